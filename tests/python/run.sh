#!/usr/bin/env bash
# run.sh MODE LIBADAMS ADAMS_BIN ARG -- the Python package's tests for CTest
# (tests/python/tests.cmake).
#   pytest: runs pytest on the test file ARG with the package from python/,
#           ADAMS_LIBRARY=LIBADAMS and ADAMS_BIN (the program it compares with)
#   pip:    `ADAMS_LIBRARY=LIBADAMS pip install --no-index --no-build-isolation
#           --target TMP ARG` (offline, the system's setuptools; setup.py
#           bundles the library), then imports the installed package from TMP
#           without ADAMS_LIBRARY (it finds the bundled copy) and computes h_4
# The interpreter: $ADAMS_PYTHON, else the first python3 on PATH that has
# pytest (pip mode: pip and setuptools), else /usr/bin/python3.  Exit 77, with
# a line saying what is missing, when there is none.
set -uo pipefail
mode=$1 lib=$2 bin=$3 arg=$4
here="$(cd "$(dirname "$0")" && pwd)"
case $mode in
  pytest) need="import pytest" ;;
  pip) need="import setuptools, wheel, pip" ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
py=""
for c in ${ADAMS_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "$need" >/dev/null 2>&1; then py=$c; break; fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with '$need' (Debian: python3-pytest, python3-pip, python3-wheel; scripts/deps.sh installs them)"
  exit 77
fi
export ADAMS_LIBRARY="$lib" ADAMS_BIN="$bin" PYTHONDONTWRITEBYTECODE=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = pytest ]; then  # its own temporary folder: ctest -j runs several at once
  "$py" -m pytest -q -p no:cacheprovider --rootdir "$here" --basetemp "$tmp/pytest" "$arg"
  exit $?
fi
cp -r "$arg" "$tmp/src"   # pip builds in place: keep the source tree clean
"$py" -m pip install --quiet --no-index --no-build-isolation --disable-pip-version-check \
  --target "$tmp/site" "$tmp/src" || { echo "FAIL: pip install $arg"; exit 1; }
[ -f "$tmp/site/adams/libadams.so" ] || { echo "FAIL: the library was not bundled"; exit 1; }
out="$(cd "$tmp" && env -u ADAMS_LIBRARY PYTHONPATH="$tmp/site" "$py" -c \
  "import adams; r = adams.resolve('S_2', stem=40); print(r.ext(15, 1), adams.__file__)")" \
  || { echo "FAIL: the installed package did not run"; exit 1; }
echo "$out"
case $out in
  "1 $tmp/site/adams/__init__.py") exit 0 ;;
  *) echo "FAIL: expected h_4 (1) from the installed package in $tmp/site"; exit 1 ;;
esac
