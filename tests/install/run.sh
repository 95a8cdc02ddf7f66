#!/usr/bin/env bash
# Installs a built adams into a temporary prefix and builds the consumer
# (consumer.c) against the installed copy four ways, runs each and compares
# its output with the reference table:
#   find_package(adams), adams::adams         -> libadams.a
#   find_package(adams), adams::adams_shared  -> libadams.so (must be the installed one)
#   pkg-config --cflags --libs adams          -> libadams.so
#   pkg-config --static, cc -static           -> libadams.a + libjansson.a, fully static
# Usage: tests/install/run.sh BUILD_DIR   (a configured and built adams build folder)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
cc="${CC:-cc}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/adams-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null

version="$(sed -n 's/^project(adams VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
{ echo "adams $version"; awk -F, '!/^#/ && $1 <= 10 && $2 <= 6' "$root/tests/data/ext-S2-n60-s40.csv"; } \
  >"$tmp/expected"

check() { # name program
  "$2" >"$tmp/$1.out"
  if ! diff -u "$tmp/expected" "$tmp/$1.out" >"$tmp/$1.diff"; then
    echo "install: $1: wrong output" >&2; head -20 "$tmp/$1.diff" >&2; exit 1
  fi
  echo "install: $1: ok"
}
links_shared() { # program: does it load a libadams.so, and which
  { ldd "$1" 2>/dev/null || true; } | awk '/libadams\.so/ { print $3 }'
}

# The installed tree: the public headers and nothing internal.
for h in adams.h version.h resol.h sq_core.h fmat.h stalg.h; do
  [ -f "$prefix/include/adams/$h" ] || { echo "install: include/adams/$h missing" >&2; exit 1; }
done
for h in internal.h f2_kernels.h sq_trace.h nassau.h sq_progress.h; do
  [ ! -e "$prefix/include/adams/$h" ] || { echo "install: internal $h installed" >&2; exit 1; }
done
libdir="$(dirname "$(find "$prefix" -name adams.pc -path '*pkgconfig*' | head -1)")/.."
libdir="$(cd "$libdir" && pwd)"

# 1, 2: CMake, find_package(adams).
for kind in static shared; do
  shared=OFF; [ $kind = shared ] && shared=ON
  cmake -S "$here" -B "$tmp/cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCONSUMER_SHARED=$shared >"$tmp/cmake-$kind.log" 2>&1 || { cat "$tmp/cmake-$kind.log" >&2; exit 1; }
  cmake --build "$tmp/cmake-$kind" >>"$tmp/cmake-$kind.log" 2>&1 || { cat "$tmp/cmake-$kind.log" >&2; exit 1; }
  so="$(links_shared "$tmp/cmake-$kind/consumer")"
  if [ $kind = static ] && [ -n "$so" ]; then
    echo "install: find_package static consumer loads $so" >&2; exit 1
  fi
  if [ $kind = shared ] && [ "${so#"$libdir"/}" = "$so" ]; then
    echo "install: find_package shared consumer loads '$so', not the installed library" >&2; exit 1
  fi
  check "find_package-$kind" "$tmp/cmake-$kind/consumer"
done

# 3: pkg-config, shared.
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
[ "$(pkg-config --modversion adams)" = "$version" ] || { echo "install: adams.pc version" >&2; exit 1; }
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/pc-shared" "$here/consumer.c" \
  $(pkg-config --cflags --libs adams) -Wl,-rpath,"$(pkg-config --variable=libdir adams)"
so="$(links_shared "$tmp/pc-shared")"
[ "${so#"$libdir"/}" != "$so" ] || { echo "install: pkg-config consumer loads '$so'" >&2; exit 1; }
check pkg-config-shared "$tmp/pc-shared"

# 4: pkg-config --static, a fully static program (needs libjansson.a, which
# Debian's libjansson-dev ships).
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -static -o "$tmp/pc-static" "$here/consumer.c" \
  $(pkg-config --static --cflags --libs adams)
[ -z "$(links_shared "$tmp/pc-static")" ] || { echo "install: static consumer loads libadams.so" >&2; exit 1; }
check pkg-config-static "$tmp/pc-static"
