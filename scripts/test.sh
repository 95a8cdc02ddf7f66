#!/usr/bin/env bash
# Builds adams and runs every test, in stages:
#   release   a Release build with warnings as errors (and the strict set:
#             -Wconversion -Wmissing-prototypes -Wformat=2 -Wvla), every test,
#             the layering checks included (docs/library.md)
#   generic   the same build's tests again with SQ_SIMD=generic: the portable
#             F_2 kernels instead of AVX2 (tests labelled "slow" left out);
#             and the fp layer compiled as for a target without AVX2
#   install   that build installed into a temporary prefix, and a program
#             built against it with find_package(adams) and with pkg-config,
#             linked statically and shared (tests/install/run.sh)
#   asan      a Debug build with AddressSanitizer + UndefinedBehaviorSanitizer
#             and assertions on (tests labelled "slow" are left to release)
#   tsan      a ThreadSanitizer build running the threaded tests (label "threads")
#   mpi       a build with MPI (-DADAMS_MPI=ON): resolve --mpi on 2-4 ranks
#             against the threaded run, a killed rank and SIGTERM resumed
#             (tests/mpi/run.sh, label "mpi"; the release build runs
#             mpi.refused, --mpi refused without MPI)
#   fuzz      30 s of libFuzzer on the module reader, 20 s on the store reader
set -euo pipefail
cd "$(dirname "$0")/.."
ADAMS_DEPS_FUZZ=1 scripts/deps.sh
jobs="$(nproc)"
strict=(-DADAMS_WERROR=ON -DADAMS_STRICT_WARNINGS=ON)
times=""
stage_start() { stage="$1"; t0=$SECONDS; echo "== $2 =="; }
stage_end() { times+="$(printf '  %-8s %4d s' "$stage" $((SECONDS - t0)))"$'\n'; }

stage_start release "release build (-Werror, strict warnings)"
cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=Release "${strict[@]}" >/dev/null
cmake --build build-ci -j"$jobs"
ctest --test-dir build-ci -j"$jobs" --output-on-failure
stage_end

stage_start generic "release build, portable kernels (SQ_SIMD=generic)"
SQ_SIMD=generic ctest --test-dir build-ci -j"$jobs" --output-on-failure -LE 'slow|layering|browser'
# The fp layer as on a target without AVX2 (kernels_avx2.c reduced to its stub).
cmake -S . -B build-noavx2 -DCMAKE_BUILD_TYPE=Release "${strict[@]}" -DADAMS_AVX2=OFF \
  -DADAMS_BUILD_TESTS=OFF -DADAMS_BUILD_BENCH=OFF -DADAMS_BUILD_SHARED=OFF >/dev/null
cmake --build build-noavx2 -j"$jobs" --target adams_fp
stage_end

stage_start install "install; build a program on it with find_package and pkg-config"
tests/install/run.sh build-ci
stage_end

stage_start asan "debug build with ASan + UBSan + assertions"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug "${strict[@]}" -DADAMS_ASSERT=ON \
  -DADAMS_SANITIZE=address,undefined -DADAMS_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE 'slow|layering'
stage_end

stage_start tsan "ThreadSanitizer build: threaded tests"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${strict[@]}" \
  -DADAMS_SANITIZE=thread -DADAMS_BUILD_BENCH=OFF -DADAMS_BUILD_SHARED=OFF >/dev/null
cmake --build build-tsan -j"$jobs"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan -j"$jobs" --output-on-failure -L threads
stage_end

# The CUDA path compiles where nvcc is (the CUDA 13 toolkit in /usr/local/cuda
# here; a fresh Debian 12 machine has none, and the stage says so). Without a
# device its device tests skip (77); the kernel bodies' CPU grid tests run in
# every build above.
NVCC="$(command -v nvcc || true)"
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
if [ -n "$NVCC" ]; then
  stage_start cuda "CUDA build (nvcc): the gpu tests"
  cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release -DADAMS_CUDA=ON -DADAMS_WERROR=ON \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DADAMS_BUILD_BENCH=OFF >/dev/null
  cmake --build build-cuda -j"$jobs"
  ctest --test-dir build-cuda -j"$jobs" --output-on-failure -R '^gpu\.'
  stage_end
else
  echo "== CUDA build: skipped, no nvcc on this machine =="
fi

# resolve --mpi over Open MPI (scripts/deps.sh installs it); only the program
# is built, and the test skips (77, said) where mpirun is missing.
stage_start mpi "MPI build: resolve --mpi against the threaded run (tests/mpi/run.sh)"
cmake -S . -B build-mpi-ci -DCMAKE_BUILD_TYPE=Release "${strict[@]}" -DADAMS_MPI=ON \
  -DADAMS_BUILD_BENCH=OFF >/dev/null
cmake --build build-mpi-ci -j"$jobs" --target adams
ctest --test-dir build-mpi-ci --output-on-failure -L mpi
stage_end

stage_start fuzz "libFuzzer: the module reader (30 s) and the store reader (20 s), from their seed corpora"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DADAMS_FUZZ=ON \
  -DADAMS_BUILD_BENCH=OFF -DADAMS_BUILD_TESTS=OFF -DADAMS_BUILD_SHARED=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_modspec fuzz_store
ctest --test-dir build-fuzz --output-on-failure -L fuzz
stage_end

echo "== all tests passed =="
printf 'stage times:\n%s' "$times"
