#!/usr/bin/env bash
# Install what the test suite needs and run all of it: Debian's dovecot-imapd (a real IMAP server
# for the mail tests) and chromium (the browser tests) when missing and we are root, then a
# virtualenv with nomopoly and its test extras; then ruff and mypy, then pytest. Extra arguments go to pytest
# (the suite runs in parallel with pytest-xdist: -n auto is one worker per CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v dovecot >/dev/null 2>&1 || need+=(dovecot-imapd)
[ -x /usr/bin/chromium ] || need+=(chromium fonts-dejavu-core)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "note: ${need[*]} missing; install with: sudo apt-get install ${need[*]}" >&2
  fi
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# axe-core (accessibility checks in the browser tests) from the npm registry, cached per user
axe="${XDG_CACHE_HOME:-$HOME/.cache}/nomopoly/axe"
[ -f "$axe/node_modules/axe-core/axe.min.js" ] || npm install --prefix "$axe" --no-audit --no-fund --silent axe-core@4 \
  || echo "note: axe-core not installed; the accessibility tests will skip (fail under REQUIRE_BROWSER=1)" >&2
# the linter and the type checker first: a finding fails the run before the suite starts
.venv/bin/ruff check --quiet admin tests bench scripts
.venv/bin/mypy
# in parallel, one worker per CPU, unless the arguments choose (-n 0 runs it in this process)
parallel=(-n auto)
for arg in "$@"; do case "$arg" in -n|-n*|--numprocesses*) parallel=() ;; esac; done
exec .venv/bin/python -m pytest "${parallel[@]}" "$@"
