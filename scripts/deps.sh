#!/usr/bin/env bash
# Installs the Debian 12 packages adams needs to build and test, if missing.
# libm4ri-dev is only a test oracle and benchmark baseline, never linked
# into the adams program or library.  libjansson-dev reads module files;
# libsqlite3-dev and libzstd-dev keep runs in stores (docs/save-format.md).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libjansson-dev libm4ri-dev libsqlite3-dev libzstd-dev)
# The test command also fuzzes the module reader for a short while (clang's libFuzzer).
# and renders a chart in headless Chromium (tests/cli/t-chart-browser.c), and drives the
# interactive one through Selenium (tests/browser/chart_html.py).
[ "${ADAMS_DEPS_FUZZ:-0}" = 1 ] && pkgs+=(clang libclang-rt-14-dev chromium chromium-driver python3-selenium)
# The Python package's tests (tests/python, docs/python.md): pytest, and pip install ./python.
[ "${ADAMS_DEPS_FUZZ:-0}" = 1 ] && pkgs+=(python3 python3-pytest python3-pip python3-venv)
# resolve --mpi (docs/mpi.md): Open MPI, an optional build feature (-DADAMS_MPI=ON)
# that the test command's mpi stage builds and runs.
[ "${ADAMS_DEPS_FUZZ:-0}" = 1 ] && pkgs+=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
