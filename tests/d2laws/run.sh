#!/bin/sh
# run.sh MODE ADAMS CHECKER WORKDIR -- bench/d2-laws.py (the laws of the Adams
# d_2 on a whole `adams d2` output, docs/secondary.md "Checks from outside
# adams") on S_2 through stem 40, s <= 23 (classical engine), from the store
# of that d2 run.
#   MODE ok       the real output: exit 0, every law checked on the counts of
#                 cells and classes below (they depend only on dim Ext), the
#                 three known values of the sphere found; --module S_2 too;
#                 and the peer's published lines through (30, 7).
#   MODE altered  one line altered (d_2 e_0 = 0 at (17, 4); one entry of a
#                 two-dimensional target at (32, 7)) or removed ((38, 4)): the
#                 checker must exit 1 and name the cell.
# Exit 77 (skipped, with a message) when python3 is missing.
set -u
mode=$1 adams=$2 checker=$3 work=$4
py=$(command -v python3 2>/dev/null) || {
  echo "SKIP: no python3 on PATH: bench/d2-laws.py cannot run (apt-get install python3)"
  exit 77
}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work" || fail "cannot make $work"
"$adams" d2 S_2 --stem 40 --max-s 23 --algorithm classical --threads 1 --quiet --save "$work/s40.db" >"$work/d2.txt" ||
  fail "adams d2 S_2 --stem 40 --max-s 23 --algorithm classical failed"
[ "$(wc -l <"$work/d2.txt")" -eq 98 ] || fail "adams d2 printed $(wc -l <"$work/d2.txt") lines, not 98"
check() { # FILE [extra options]: runs the checker into $work/out, echoes the exit code
  f=$1; shift
  "$py" "$checker" --adams "$adams" --stem 40 --max-s 23 "$@" "$f" >"$work/out" 2>&1
  echo $?
}
expect() { grep -qF -- "$1" "$work/out" || { cat "$work/out"; fail "no line with: $1"; }; }

case $mode in
ok)
  for src in "--from $work/s40.db" "--module S_2 --algorithm classical"; do
    # shellcheck disable=SC2086 # two words on purpose
    rc=$(check "$work/d2.txt" $src)
    cat "$work/out"
    [ "$rc" -eq 0 ] || fail "exit $rc on the real output ($src)"
    expect "d2-laws: 98 lines, region stems 0..40, targets through s = 23 (S_2)"
    expect "lines: 89 cells checked"
    expect "d2 d2 = 0: 40 cells checked"
    expect "leibniz d_2(h_0 x) = h_0 d_2(x): 246 classes checked"
    expect "leibniz d_2(h_1 x) = h_1 d_2(x): 233 classes checked"
    expect "leibniz d_2(h_2 x) = h_2 d_2(x): 205 classes checked"
    expect "leibniz d_2(h_3 x) = h_3 d_2(x): 171 classes checked"
    expect "leibniz d_2(h_4 x) = h_4 d_2(x) + h_0 h_3^2 x: 103 classes checked (1 with a nonzero side), 0 failed"
    expect "leibniz d_2(h_5 x) = h_5 d_2(x) + h_0 h_4^2 x: 37 classes checked"
    expect "known values of S_2 (d_2 h_4, d_2 e_0, d_2 f_0): 3 cells checked (3 with a nonzero side), 0 failed"
    [ "$(grep -c ', 0 failed' "$work/out")" -eq 9 ] || fail "not every law says 0 failed"
    [ "$(tail -n 1 "$work/out")" = ok ] || fail "the last line is not ok"
  done
  # the peer's published lines (tests/data/secondary-S_2.txt, its Max n = 30,
  # Max s = 7) against adams' products: every law holds there too
  peer="$(cd "$(dirname "$checker")/.." && pwd)/tests/data/secondary-S_2.txt"
  "$py" "$checker" --adams "$adams" --module S_2 --algorithm classical --stem 30 --max-s 7 \
    "$peer" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  [ "$rc" -eq 0 ] || fail "exit $rc on the peer's lines $peer"
  expect "d2-laws: 18 lines, region stems 0..30, targets through s = 7 (S_2)"
  expect "lines: 17 cells checked (4 with a nonzero side), 0 failed"
  expect "known values of S_2 (d_2 h_4, d_2 e_0, d_2 f_0): 3 cells checked (3 with a nonzero side), 0 failed"
  [ "$(tail -n 1 "$work/out")" = ok ] || fail "the last line is not ok"
  ;;
altered)
  # each alteration: a sed script, the cell the checker must name
  for case in '/^d_2 x_(17, 4, 0) = \[1\]$/s/\[1\]/[0]/|(17, 4)' \
              '/^d_2 x_(32, 7, 0) = /{s/\[0/[X/;s/\[1/[0/;s/\[X/[1/;}|(32, 7)' \
              '/^d_2 x_(38, 4, 0) = /d|(38, 4)'; do
    script=${case%|*} cell=${case##*|}
    sed "$script" "$work/d2.txt" >"$work/bad.txt"
    [ "$(diff "$work/d2.txt" "$work/bad.txt" | grep -c '^[<>]')" -ge 1 ] || fail "sed '$script' changed nothing"
    rc=$(check "$work/bad.txt" --from "$work/s40.db")
    cat "$work/out"
    [ "$rc" -eq 1 ] || fail "exit $rc, not 1, on the output altered by sed '$script'"
    grep -F "failed; first:" "$work/out" | grep -qF "$cell" || fail "no failure names the cell $cell"
    [ "$(tail -n 1 "$work/out" | cut -c1-6)" = FAILED ] || fail "the last line is not FAILED"
  done
  # bad input: one line, exit 2
  echo "d_2 x_(1, 1, 0) = [2]" >"$work/bad.txt"
  rc=$(check "$work/bad.txt" --from "$work/s40.db")
  [ "$rc" -eq 2 ] || fail "exit $rc, not 2, on an entry 2"
  expect "is not 0 or 1"
  ;;
*) fail "unknown mode $mode" ;;
esac
echo PASS
