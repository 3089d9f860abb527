#!/usr/bin/env bash
# The Python part of the README's test command: builds and installs the package the way a user
# does (`pip install ./python`, maturin fetched by pip, one release build of the extension) into
# a virtual environment under target/, then runs the pytest suite against the installed package.
#
# Two phases, both by default: `python/test.sh install` builds and installs (it takes cargo's
# build-directory lock), `python/test.sh check` runs ruff, stubtest and pytest against what the
# install phase left (no cargo command: scripts/test runs it beside `cargo test`).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/python-venv"
phase="${1:-all}"
case "$phase" in
  all | install | check) ;;
  *)
    echo "python/test.sh: unknown phase '$phase' (install, check, or none for both)" >&2
    exit 2
    ;;
esac

install() {
  python="$(command -v python3 || true)"
  if [ -z "$python" ]; then
    echo "python/test.sh: python3 (3.9 or newer, with venv and pip) is needed" >&2
    exit 1
  fi
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --upgrade pip
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
  echo "python/test.sh: pip install ./python[test,ray,jax] (a first build takes about 5 minutes on 2 cores)"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" MATURIN_PEP517_ARGS="--features workspace-release" \
    "$venv/bin/python" -m pip install --quiet "./python[test,ray,jax]" "ruff==0.17.6"
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
  install) install ;;
  check) check ;;
  all)
    install
    check
    ;;
esac
