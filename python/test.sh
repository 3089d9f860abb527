#!/usr/bin/env bash
# The Python part of the README's test command: builds and installs the package the way a user
# does (`pip install ./python`, maturin fetched by pip, one release build of the extension) into
# a virtual environment under target/, then runs the pytest suite against the installed package.
#
# Two phases, both by default: `python/test.sh install` builds and installs (it takes cargo's
# build-directory lock), `python/test.sh check` runs ruff, stubtest and pytest against what the
# install phase left (no cargo command: scripts/test runs it beside `cargo test`).
# `python/test.sh deps` (never by default) only creates the environment and installs the
# package's dependencies, no cargo command: .ci/run runs it in the background while it builds,
# since pip mostly waits for the network; `install` then finds them installed.
# `python/test.sh requirements` prints what `deps` installs (PYTHON: the interpreter that reads
# pyproject.toml, python3 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/python-venv"
phase="${1:-all}"
case "$phase" in
  all | requirements | deps | install | check) ;;
  *)
    echo "python/test.sh: unknown phase '$phase' (requirements, deps, install, check, or none for install and check)" >&2
    exit 2
    ;;
esac

# ruff's version: the check phase's formatting and lints are those of this one.
ruff="ruff==0.17.6"
extras="test,ray,jax"

venv() {
  python="$(command -v python3 || true)"
  if [ -z "$python" ]; then
    echo "python/test.sh: python3 (3.9 or newer, with venv and pip) is needed" >&2
    exit 1
  fi
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --upgrade pip
}

# The requirements of ./python[$extras] as python/pyproject.toml states them (its dependencies,
# the extras', its build backend) and ruff, one a line, read with Python $1's tomllib (3.11 on).
# python/tests/test_requirements.py checks them against the installed package's metadata.
requirements() {
  "$1" - "$root/python/pyproject.toml" "$extras" "$ruff" << 'EOF'
import sys
import tomllib

with open(sys.argv[1], "rb") as f:
    pyproject = tomllib.load(f)
project = pyproject["project"]
wanted = list(project["dependencies"]) + list(pyproject["build-system"]["requires"])
for extra in sys.argv[2].split(","):
    wanted += project["optional-dependencies"][extra]
print("\n".join([*wanted, sys.argv[3]]))
EOF
}

deps() {
  venv
  # An older Python (no tomllib) skips this phase: `install` installs them all the same.
  if ! "$venv/bin/python" -c "import tomllib" 2> /dev/null; then
    echo "python/test.sh deps: no tomllib in $("$venv/bin/python" --version): skipped (install installs them)"
    return 0
  fi
  local wanted
  wanted="$(requirements "$venv/bin/python")"
  echo "python/test.sh: pip install the dependencies of ./python[$extras], and $ruff"
  # One requirement per line (none holds a space): split on newlines only.
  local IFS=$'\n'
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pip install --quiet $wanted
}

install() {
  venv
  # The extension shares the workspace's target directory, so a warm build is incremental.
  # The `ray` extra: twinsim.distributed's tests start a two-node Ray cluster on loopback; the
  # `jax` extra: twinsim.jax's engines are stepped in lockstep with the Rust twin.
  # A cold build compiles the engines in release mode (about 4 to 5 minutes on 2 cores), and pip
  # --quiet shows nothing meanwhile: say so first.
  # The extension's `workspace-release` feature (python/Cargo.toml) gives the engine crates the
  # features of the workspace's own release build, so that after `cargo build --release
  # --examples` (.ci/run's first build) cargo reuses them and compiles only PyO3, numpy and the
  # extension; without that build first, it changes nothing but adds clap and quickcheck to the
  # build. A user's `pip install ./python` does not ask for it.
  echo "python/test.sh: pip install ./python[$extras] (a first build takes about 5 minutes on 2 cores)"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" MATURIN_PEP517_ARGS="--features workspace-release" \
    "$venv/bin/python" -m pip install --quiet "./python[$extras]" "$ruff"
  # The distributed tournament is compared with the CLI's `twinsim arena`: the release build's,
  # which the check phase can use while `cargo test` rebuilds the debug one beside it. The examples
  # too, so that the features are those of .ci/run's first build (a no-op after it) and of the
  # extension's engine crates above (shared with them on a fresh machine).
  cargo build --release --quiet --examples
}

check() {
  export TWINSIM_BIN="$target/release/twinsim"
  [ -x "$TWINSIM_BIN" ] || { echo "python/test.sh check: no $TWINSIM_BIN: run python/test.sh install first" >&2; exit 1; }
  [ -x "$venv/bin/pytest" ] || { echo "python/test.sh check: no $venv: run python/test.sh install first" >&2; exit 1; }
  "$venv/bin/ruff" check python
  "$venv/bin/ruff" format --check python
  # From outside python/, so the tests and stubtest import the installed package, not the source
  # folder.
  cd "$target"
  # The extension's typed stubs (twinsim/_core.pyi) against the compiled module: every name,
  # argument, default and class (no allowlist: pyo3's text signatures let stubtest see it all).
  "$venv/bin/python" -m mypy.stubtest twinsim._core
  status=0
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "python/test.sh: pytest collected no tests" >&2
    exit 1
  fi
  exit "$status"
}

case "$phase" in
  requirements) requirements "${PYTHON:-python3}" ;;
  deps) deps ;;
  install) install ;;
  check) check ;;
  all)
    install
    check
    ;;
esac
