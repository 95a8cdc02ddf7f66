#!/usr/bin/env bash
# tests/mpi/run.sh ADAMS WORKDIR: resolve --mpi against the threaded run
# (docs/mpi.md).  Exit 0 ok, 1 a failure (what differs is said), 77 skip
# (mpirun missing).  About 20-40 s on a loaded 2-core machine.
set -u
adams=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
if ! command -v mpirun >/dev/null 2>&1; then
  echo "skip: mpirun not found (Debian: apt-get install openmpi-bin libopenmpi-dev)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# -q: mpirun's own banners off.  When a rank dies, mpirun sends SIGCONT, waits
# odls_base_sigkill_timeout seconds, sends SIGTERM, waits again, sends SIGKILL:
# 3 s gives rank 0 the time to commit and say its line (docs/mpi.md).
mpi=(mpirun -q --oversubscribe "${root[@]}")
mpik=("${mpi[@]}" --mca odls_base_sigkill_timeout 3)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. The same bytes as the threaded run: Nassau (S_2 through stem 50, every
#    differential), classical (C2), an odd prime (S_3); 2, 3 and 4 ranks.
same() { # name np threads args...
  local name=$1 np=$2 th=$3; shift 3
  "$adams" resolve "$@" --threads 2 --quiet > "ref-$name.txt" || { fail "$name: threaded run"; return; }
  "${mpi[@]}" -np "$np" "$adams" resolve "$@" --threads "$th" --mpi --quiet > "mpi-$name.txt" 2> "mpi-$name.err"
  local rc=$?
  [ $rc -eq 0 ] || { fail "$name: -np $np exit $rc: $(head -3 "mpi-$name.err")"; return; }
  cmp -s "ref-$name.txt" "mpi-$name.txt" || { fail "$name: -np $np differs from the threaded run"; return; }
  echo "ok: $name -np $np --threads $th: the threaded run's bytes ($(wc -c < "ref-$name.txt") bytes)"
}
same s2 3 1 S_2 --stem 50 --format differentials
same s2csv 4 2 S_2 --stem 50 --format csv
same c2 3 1 C2 --stem 30 --algorithm classical --format differentials
same s3 2 1 S_3 --stem 40 --format csv

# 2. A rank killed mid-run (rank 2 at its 40th step): nonzero exit, one line
#    from adams, the store keeps what was committed; the same command resumes
#    to the same bytes.
rm -f f.db
ADAMS_MPI_FAULT=2:40 "${mpik[@]}" -x ADAMS_MPI_FAULT -np 3 "$adams" resolve S_2 --stem 50 \
  --threads 1 --mpi --quiet --save f.db > fault.txt 2> fault.err
rc=$?
lines=$(grep -c '^adams: ' fault.err)
if [ $rc -eq 0 ]; then
  fail "a killed rank: exit 0"
elif [ "$lines" -ne 1 ] || ! grep -q '^adams: interrupted: .* steps are saved in f.db' fault.err; then
  fail "a killed rank: $lines lines from adams: $(cat fault.err)"
else
  echo "ok: a killed rank: exit $rc, one line: $(cat fault.err)"
fi
"${mpi[@]}" -np 3 "$adams" resolve S_2 --stem 50 --threads 1 --mpi --quiet --save f.db \
  --format differentials > resumed.txt 2> resumed.err
rc=$?
if [ $rc -ne 0 ]; then
  fail "resume after a killed rank: exit $rc: $(head -3 resumed.err)"
elif ! cmp -s ref-s2.txt resumed.txt; then
  fail "resume after a killed rank differs from the threaded run"
elif ! "$adams" check f.db > check.txt 2>&1; then
  fail "adams check after the resume: $(tail -3 check.txt)"
else
  echo "ok: resumed after a killed rank: the threaded run's bytes, the store checks"
fi

# 3. SIGTERM to mpirun (what Ctrl-C and a batch system's time limit send)
#    during a saving run, once rank 0 has taken 300 results (its trace):
#    rank 0 commits, says one line and stops; the same command resumes.
rm -f t.db term.log
"$adams" resolve S_2 --stem 90 --threads 2 --quiet > ref-s90.txt
ADAMS_LOG=step ADAMS_LOG_FILE=term.log "${mpik[@]}" -x ADAMS_LOG -x ADAMS_LOG_FILE -np 3 \
  "$adams" resolve S_2 --stem 90 --threads 1 --mpi --quiet --save t.db > term.txt 2> term.err &
pid=$!
for _ in $(seq 600); do
  [ -f term.log ] && [ "$(grep -c 'event=mpi_step' term.log)" -ge 300 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
"${mpi[@]}" -np 3 "$adams" resolve S_2 --stem 90 --threads 1 --mpi --quiet --save t.db \
  > term2.txt 2> term2.err
rc2=$?
# (On a loaded machine the run may finish before the signal lands: then its
# output is whole and the second run only reads the store.)
if [ $rc -ne 0 ] && ! grep -q '^adams: interrupted: .* steps are saved in t.db' term.err &&
   ! cmp -s ref-s90.txt term.txt; then
  fail "SIGTERM to mpirun: exit $rc without adams's line: $(cat term.err)"
elif [ $rc2 -ne 0 ] || ! cmp -s ref-s90.txt term2.txt; then
  fail "SIGTERM then resume (exit $rc, then $rc2): $(head -3 term.err term2.err)"
else
  echo "ok: SIGTERM to mpirun (exit $rc: $(cat term.err)), then resumed: the same bytes"
fi

# 4. What --mpi refuses: one line, exit 2, said once.
refuse() { # what args...
  local what=$1; shift
  "${mpi[@]}" -np 3 "$adams" resolve "$@" --mpi > /dev/null 2> refuse.err
  local rc=$? n
  n=$(grep -c '^adams: ' refuse.err)
  if [ $rc -eq 0 ] || [ "$n" -ne 1 ] || ! grep -q -- "$what" refuse.err; then
    fail "refusal of $what: exit $rc, $n lines: $(cat refuse.err)"
  else
    echo "ok: refused: $(cat refuse.err)"
  fi
}
refuse "--gpu" C2 --stem 10 --gpu
refuse "--coefficients" C2 --stem 10 --coefficients C2
refuse "cofiber" C4 --stem 10
refuse "unknown module" NoSuchModule --stem 10

[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "all mpi checks passed"
