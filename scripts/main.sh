#!/usr/bin/env bash
# Builds adams (Release) and prints the Adams E2 page of the sphere through stem 40.
# Extra arguments are passed to `adams resolve`, e.g. scripts/main.sh --stem 60.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target adams >/dev/null
if [ $# -eq 0 ]; then set -- --stem 40; fi
exec ./build/adams resolve S_2 "$@"
