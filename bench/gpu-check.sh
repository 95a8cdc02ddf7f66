#!/usr/bin/env bash
# bench/gpu-check.sh -- the GPU checks of issue 15, for a machine with a CUDA
# device (written for the H200 machine: 16 cores, sm_90).  Under 8 minutes:
#
#   1. build      Release with -DADAMS_CUDA=ON in build-gpu/ (all cores)
#   2. tests      the gpu test suite with SQ_REQUIRE_GPU=1: the device tests
#                 must run (a decline fails them) and pass
#   3. verify     S_2 through stem 80 (Nassau) and stem 50 (classical: larger
#                 reductions) with ADAMS_GPU_VERIFY=1 and both gates lowered
#                 so that nearly every build and reduction goes to the device;
#                 any difference ends adams with status 3 and one line naming
#                 the bidegree; the output must equal the CPU's
#   4. timings    S_2 at stems 100, 110, 120, all cores: CPU vs GPU wall time
#                 (outputs compared), the device's share from ADAMS_GPU_STATS
#   5. threads    the CPU at stem 110 with --threads 1, 2, 4, 8, 16 (the first
#                 many-core measurement of the wavefront)
#   6. gates      if time is left: stem 110 on the GPU with the build gate
#                 ADAMS_GPU_MIN_WORK at 2^14, 2^18 (default), 2^22
#
# Prints a table (also written to $OUT/gpu-check.txt when $OUT is set, else
# build-gpu/gpu-check.txt).  Exit status 0 when every check passed.
# Knobs (environment): STEMS ("100 110 120"), SWEEP_STEM (110), THREADS
# ("1 2 4 8 16"), VERIFY_STEM (80), VERIFY_CLASSICAL_STEM (50), BUDGET_S (450: later stages are skipped
# past it), JOBS.  ADAMS_GPU_EMULATE=1 runs the whole script on the
# emulator (no device needed; for trying the script itself, with small stems).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=build-gpu
JOBS=${JOBS:-$(nproc)}
STEMS=${STEMS:-"100 110 120"}
SWEEP_STEM=${SWEEP_STEM:-110}
THREADS=${THREADS:-"1 2 4 8 16"}
VERIFY_STEM=${VERIFY_STEM:-80}
VERIFY_CLASSICAL_STEM=${VERIFY_CLASSICAL_STEM:-50}
BUDGET_S=${BUDGET_S:-450}
RES=${OUT:-$ROOT/$B}
mkdir -p "$RES" "$B"
REPORT=$RES/gpu-check.txt
LOGS=$RES/gpu-check-logs
mkdir -p "$LOGS"
: >"$REPORT"
T0=$(date +%s)
fail=0

say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
elapsed() { echo $(($(date +%s) - T0)); }
left() { [ "$(elapsed)" -lt "$BUDGET_S" ]; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# run NAME ENVVARS... -- ADAMS-ARGS: runs adams with the environment given,
# output to $LOGS/NAME.out, stderr to NAME.err; sets WALL (seconds), RC and
# GPUSTATS (the ADAMS_GPU_STATS line, if any).
run() {
    local name=$1
    shift
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    local t1 t2
    t1=$(now)
    env "${envs[@]}" timeout 300 "$B/adams" "$@" >"$LOGS/$name.out" 2>"$LOGS/$name.err"
    RC=$?
    t2=$(now)
    WALL=$(secs "$t1" "$t2")
    GPUSTATS=$(grep -o 'adams: gpu: .*' "$LOGS/$name.err" | tail -1)
}
stat_of() { # stat_of KEY: the value of KEY= in $GPUSTATS
    printf '%s\n' "$GPUSTATS" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

say "== adams gpu-check: $(hostname), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?') =="
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null |
    sed 's/^/   device: /' | tee -a "$REPORT"

# ---- 1. build -----------------------------------------------------------------
t1=$(now)
if cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DADAMS_CUDA=ON -DADAMS_BUILD_BENCH=OFF \
        >"$LOGS/configure.log" 2>&1 &&
    cmake --build "$B" -j"$JOBS" >"$LOGS/build.log" 2>&1; then
    say "build (CUDA, Release)          ok, $(secs "$t1" "$(now)") s"
else
    say "build (CUDA, Release)          FAILED (see $LOGS/build.log)"
    tail -20 "$LOGS/build.log"
    exit 1
fi

# ---- 2. the gpu tests on the device ------------------------------------------------
t1=$(now)
SQ_REQUIRE_GPU=1 ctest --test-dir "$B" -R '^gpu\.' -j"$JOBS" --output-on-failure \
    >"$LOGS/ctest-gpu.log" 2>&1
rc=$?
summary=$(grep -E 'tests passed|tests failed' "$LOGS/ctest-gpu.log" | tail -1)
if [ $rc -eq 0 ]; then
    say "gpu tests on the device        ok: $summary, $(secs "$t1" "$(now)") s"
else
    say "gpu tests on the device        FAILED: $summary (see $LOGS/ctest-gpu.log)"
    grep -E 'Failed|FAIL|\*\*\*' "$LOGS/ctest-gpu.log" | head -10 | tee -a "$REPORT"
    fail=1
fi
grep -E '^device:|rref [0-9]+ x|builds [0-9]+ \(' "$LOGS/ctest-gpu.log" | sort -u | head -20 |
    sed 's/^/   /' | tee -a "$REPORT"

# ---- 3. verify mode through stem 80 ------------------------------------------------
verify() { # verify NAME STEM ALGORITHM
    run "$1_cpu" -- resolve S_2 --stem "$2" --algorithm "$3" --format csv --quiet
    local cpuv=$WALL
    run "$1_gpu" ADAMS_GPU=1 ADAMS_GPU_VERIFY=1 ADAMS_GPU_MIN_WORK=0 ADAMS_GPU_RR_MIN=64 \
        ADAMS_GPU_STATS=1 -- resolve S_2 --stem "$2" --algorithm "$3" --format csv --quiet
    local what
    what=$(printf 'verify through stem %s (%s)' "$2" "$3")
    if [ $RC -eq 0 ] && cmp -s "$LOGS/$1_cpu.out" "$LOGS/$1_gpu.out" &&
        [ -n "$GPUSTATS" ] && [ "$(stat_of builds)" -gt 0 ]; then
        say "$(printf '%-30s' "$what") ok: no difference; $(stat_of builds) builds and $(stat_of rrs) reductions checked (cpu ${cpuv} s, verify ${WALL} s)"
    else
        say "$(printf '%-30s' "$what") FAILED (rc $RC): $(grep -v '^adams: gpu:' "$LOGS/$1_gpu.err" | tail -2 | tr '\n' ' ')"
        fail=1
    fi
}
verify verify "$VERIFY_STEM" nassau
verify verify_classical "$VERIFY_CLASSICAL_STEM" classical

# ---- 4. CPU vs GPU at stems 100, 110, 120 ----------------------------------------------
say ""
say "S_2, all $(nproc) cores (--threads $(nproc)); wall seconds; outputs compared"
say "stem   cpu_s    gpu_s    cpu/gpu  same  gpu_builds  gpu_products  gpu_rrs  declined  device_ms"
declare -A CPU_AT
for n in $STEMS; do
    if ! left; then say "$n     (skipped: past the ${BUDGET_S} s budget)"; continue; fi
    run "cpu$n" -- resolve S_2 --stem "$n" --threads "$(nproc)" --format csv --quiet
    c=$WALL; crc=$RC
    CPU_AT[$n]=$c
    run "gpu$n" ADAMS_GPU=1 ADAMS_GPU_STATS=1 -- resolve S_2 --stem "$n" --threads "$(nproc)" \
        --format csv --quiet
    g=$WALL
    same=no
    [ $crc -eq 0 ] && [ $RC -eq 0 ] && cmp -s "$LOGS/cpu$n.out" "$LOGS/gpu$n.out" && same=yes
    [ "$same" = yes ] || fail=1
    ratio=$(awk -v a="$c" -v b="$g" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    say "$(printf '%-6s %-8s %-8s %-8s %-5s %-11s %-13s %-8s %-9s %s' "$n" "$c" "$g" "$ratio" "$same" \
        "$(stat_of builds)" "$(stat_of products)" "$(stat_of rrs)" "$(stat_of declined)" "$(stat_of device_ms)")"
done

# ---- 5. the CPU's threads at stem 110 ---------------------------------------------------
say ""
say "CPU threads at stem $SWEEP_STEM (S_2; wall seconds, speedup over 1 thread)"
say "threads  wall_s   speedup  same"
base=""
for k in $THREADS; do
    if ! left; then say "$k        (skipped: past the ${BUDGET_S} s budget)"; continue; fi
    if [ "$k" = "$(nproc)" ] && [ -n "${CPU_AT[$SWEEP_STEM]:-}" ]; then
        w=${CPU_AT[$SWEEP_STEM]}  # measured above
        cp "$LOGS/cpu$SWEEP_STEM.out" "$LOGS/threads$k.out"
    else
        run "threads$k" -- resolve S_2 --stem "$SWEEP_STEM" --threads "$k" --format csv --quiet
        w=$WALL
    fi
    [ -z "$base" ] && base=$w
    same=yes
    cmp -s "$LOGS/threads$k.out" "$LOGS/threads${THREADS%% *}.out" 2>/dev/null || same=no
    sp=$(awk -v a="$base" -v b="$w" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    say "$(printf '%-8s %-8s %-8s %s' "$k" "$w" "$sp" "$same")"
done

# ---- 6. the build gate at stem 110 --------------------------------------------------------
say ""
say "GPU build gate at stem $SWEEP_STEM (ADAMS_GPU_MIN_WORK; all cores)"
say "min_work  gpu_s    builds  products  device_ms"
for w in 16384 262144 4194304; do
    if ! left; then say "$w  (skipped: past the ${BUDGET_S} s budget)"; continue; fi
    run "gate$w" ADAMS_GPU=1 ADAMS_GPU_STATS=1 ADAMS_GPU_MIN_WORK=$w -- resolve S_2 \
        --stem "$SWEEP_STEM" --threads "$(nproc)" --format csv --quiet
    say "$(printf '%-9s %-8s %-7s %-9s %s' "$w" "$WALL" "$(stat_of builds)" "$(stat_of products)" "$(stat_of device_ms)")"
done

say ""
say "total $(elapsed) s; logs in $LOGS"
if [ $fail -ne 0 ]; then
    say "gpu-check: FAILED"
    exit 1
fi
say "gpu-check: all checks passed"
