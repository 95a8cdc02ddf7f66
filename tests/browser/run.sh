#!/bin/sh
# run.sh ADAMS WORKDIR -- runs chart_html.py (the interactive chart in
# headless Chromium through Selenium) with a python3 that has selenium:
# Debian's /usr/bin/python3 (python3-selenium) first, then python3 on PATH.
# Exit 77 (skipped, with a message) when none has it.
here="$(cd "$(dirname "$0")" && pwd)"
for py in /usr/bin/python3 python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import selenium' >/dev/null 2>&1; then
    exec "$py" "$here/chart_html.py" "$@"
  fi
done
echo "SKIP: no python3 with selenium (apt-get install python3-selenium chromium chromium-driver)"
exit 77
