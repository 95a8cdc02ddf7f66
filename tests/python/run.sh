#!/usr/bin/env bash
# run.sh MODE LIBADAMS ADAMS_BIN ARG -- the Python package's tests for CTest
# (tests/python/tests.cmake).
#   pytest: runs pytest on the test file ARG with the package from python/,
#           ADAMS_LIBRARY=LIBADAMS and ADAMS_BIN (the program it compares with)
#   pip:    the issue's command: a fresh virtual environment (python3 -m venv,
#           no system packages), `ADAMS_LIBRARY=LIBADAMS pip install ARG`
#           offline (the package's own build backend needs nothing from an
#           index, python/_backend/adams_build.py, and bundles the library),
#           then imports the installed package without ADAMS_LIBRARY (it finds
#           the bundled copy) and computes h_4; and the same with
#           `pip install --no-index --no-build-isolation --target TMP`
# The interpreter: $ADAMS_PYTHON, else the first python3 on PATH that has
# pytest (pip mode: pip and setuptools), else /usr/bin/python3.  Exit 77, with
# a line saying what is missing, when there is none.
set -uo pipefail
mode=$1 lib=$2 bin=$3 arg=$4
here="$(cd "$(dirname "$0")" && pwd)"
case $mode in
  pytest) need="import pytest" ;;
  pip) need="import venv, ensurepip, pip" ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
py=""
for c in ${ADAMS_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "$need" >/dev/null 2>&1; then py=$c; break; fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with '$need' (Debian: python3-pytest, python3-pip, python3-venv; scripts/deps.sh installs them)"
  exit 77
fi
export ADAMS_LIBRARY="$lib" ADAMS_BIN="$bin" PYTHONDONTWRITEBYTECODE=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = pytest ]; then  # its own temporary folder: ctest -j runs several at once
  "$py" -m pytest -q -p no:cacheprovider --rootdir "$here" --basetemp "$tmp/pytest" "$arg"
  exit $?
fi
cp -r "$arg" "$tmp/src"   # keep the source tree clean
check() { # the site folder the package went to, and what installed it
  [ -f "$1/adams/libadams.so" ] || { echo "FAIL ($2): the library was not bundled"; exit 1; }
  out="$(cd "$tmp" && env -u ADAMS_LIBRARY PYTHONPATH="$1" "$3" -c \
    "import adams; r = adams.resolve('S_2', stem=40); print(r.ext(15, 1), adams.__file__)")" \
    || { echo "FAIL ($2): the installed package did not run"; exit 1; }
  echo "$2: $out"
  [ "$out" = "1 $1/adams/__init__.py" ] ||
    { echo "FAIL ($2): expected h_4 (1) from the installed package in $1"; exit 1; }
}
# 1. A fresh virtual environment, offline, the plain command.
"$py" -m venv "$tmp/venv" || { echo "FAIL: python3 -m venv"; exit 1; }
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check "$tmp/src" ||
  { echo "FAIL: pip install $arg in a fresh venv"; exit 1; }
site="$("$tmp/venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
check "$site" venv "$tmp/venv/bin/python3"
# 2. Into a folder, with the system's pip.
"$py" -m pip install --quiet --no-index --no-build-isolation --disable-pip-version-check \
  --target "$tmp/site" "$tmp/src" || { echo "FAIL: pip install --target $arg"; exit 1; }
check "$tmp/site" target "$py"
exit 0
