#!/usr/bin/env bash
# What the test suite needs beyond Python: PostgreSQL's server and Debian's Chromium.
set -euo pipefail
here=$(dirname "$0")
missing=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
[[ -x /usr/bin/chromium ]] || missing+=(chromium fonts-dejavu-core)
if ((${#missing[@]})); then
  echo "Installing ${missing[*]} from Debian's packages"
  "$here/apt-install.sh" "${missing[@]}"
fi
