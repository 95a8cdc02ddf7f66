#!/usr/bin/env bash
# tests/mpi/refused.sh ADAMS: in a build without MPI, `resolve --mpi` is
# refused with one line and exit 2 (docs/mpi.md), and nothing on stdout.
set -u
adams=$1
out=$("$adams" resolve C2 --stem 10 --mpi 2>/tmp/adams-mpi-refused.$$)
rc=$?
err=$(cat /tmp/adams-mpi-refused.$$); rm -f /tmp/adams-mpi-refused.$$
want="adams: resolve: --mpi: this adams was built without MPI (configure with -DADAMS_MPI=ON; docs/mpi.md)"
[ $rc -eq 2 ] || { echo "FAIL: exit $rc, expected 2"; exit 1; }
[ "$err" = "$want" ] || { echo "FAIL: stderr '$err'"; exit 1; }
[ -z "$out" ] || { echo "FAIL: stdout not empty"; exit 1; }
echo "ok: --mpi refused in a build without MPI"
