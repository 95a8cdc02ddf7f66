#!/usr/bin/env bash
# Builds adams and runs every test: a Release build with warnings as errors,
# then a Debug build with AddressSanitizer + UndefinedBehaviorSanitizer and
# assertions on (tests labelled "slow" are left to the Release run), then a
# ThreadSanitizer build running the threaded tests (label "threads").
set -euo pipefail
cd "$(dirname "$0")/.."
ADAMS_DEPS_FUZZ=1 scripts/deps.sh
jobs="$(nproc)"

echo "== release build (-Werror) =="
cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=Release -DADAMS_WERROR=ON >/dev/null
cmake --build build-ci -j"$jobs"
ctest --test-dir build-ci -j"$jobs" --output-on-failure

echo "== debug build with ASan + UBSan + assertions =="
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DADAMS_WERROR=ON -DADAMS_ASSERT=ON \
  -DADAMS_SANITIZE=address,undefined -DADAMS_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE slow

echo "== ThreadSanitizer build: threaded tests =="
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DADAMS_WERROR=ON \
  -DADAMS_SANITIZE=thread -DADAMS_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan -j"$jobs" --output-on-failure -L threads

echo "== libFuzzer: the module reader, 30 s from the seed corpus =="
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DADAMS_FUZZ=ON \
  -DADAMS_BUILD_BENCH=OFF -DADAMS_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_modspec
ctest --test-dir build-fuzz --output-on-failure -L fuzz

echo "== all tests passed =="
