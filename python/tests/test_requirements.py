"""`python/test.sh requirements` (what CI's background `deps` phase installs before the package is
built) against the installed package's own metadata, written by maturin from pyproject.toml: every
requirement of the package and of the extras `python/test.sh` installs is in the list, so that the
install phase only has the extension left to build."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys

from conftest import REPOSITORY

TEST_SH = REPOSITORY / "python" / "test.sh"


def listed() -> set[str]:
    out = subprocess.run(
        ["bash", str(TEST_SH), "requirements"],
        env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.replace(" ", "") for line in out.stdout.splitlines() if line}


def installed_extras() -> set[str]:
    match = re.search(r'^extras="([^"]+)"$', TEST_SH.read_text(), re.MULTILINE)
    assert match, "python/test.sh names the extras it installs"
    return set(match.group(1).split(","))


def test_the_background_install_covers_every_requirement_of_the_installed_package() -> None:
    wanted = listed()
    extras = installed_extras()
    assert {"test", "ray", "jax"} <= extras
    required = importlib.metadata.requires("twinsim") or []
    checked = 0
    for requirement in required:
        spec, _, marker = requirement.partition(";")
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", marker)
        if extra and extra.group(1) not in extras:
            continue
        assert spec.replace(" ", "") in wanted, f"{requirement!r} is not in {sorted(wanted)}"
        checked += 1
    # The package's own dependencies and those of each extra were all seen.
    assert checked >= 3 + len(extras), required
    # And ruff, pinned, which the check phase runs.
    assert any(r.startswith("ruff==") for r in wanted), sorted(wanted)
