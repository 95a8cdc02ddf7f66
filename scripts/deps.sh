#!/usr/bin/env bash
# Installs the Debian 12 packages adams needs to build and test, if missing.
# libm4ri-dev is only a test oracle and benchmark baseline, never linked
# into the adams program or library.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libm4ri-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
