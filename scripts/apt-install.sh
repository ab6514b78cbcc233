#!/usr/bin/env bash
# Install Debian packages by name (as root, or through sudo), updating the package lists once.
set -euo pipefail
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
