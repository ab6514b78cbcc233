#!/usr/bin/env bash
# What the test suite needs beyond Python, from Debian's packages when missing: PostgreSQL's server,
# Redis (the shared cache of the multi-server tests), Chromium's headless shell (the browser tests and axe,
# through Playwright) and the full browser (Lighthouse, a test run headed), Java (the Nu HTML Checker) and
# Node.js with npm (the quality gates' packages), libfaketime (a server whose clock moves; make test-later).
set -euo pipefail
here=$(dirname "$0")
missing=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
[[ -x /usr/bin/chromium ]] || missing+=(chromium fonts-dejavu-core)
[[ -x /usr/bin/chromium-headless-shell ]] || missing+=(chromium-headless-shell)
command -v java >/dev/null || missing+=(default-jre-headless)
command -v npm >/dev/null || missing+=(nodejs npm)
command -v faketime >/dev/null || missing+=(faketime)
if ((${#missing[@]})); then
  echo "Installing ${missing[*]} from Debian's packages"
  "$here/apt-install.sh" "${missing[@]}"
fi
