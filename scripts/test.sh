#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine, then runs every
# test. This is the project's one test command (README.md); .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"

need_apt=()
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "test.sh: installing ${need_apt[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# npm peers: MCP servers and SDK clients the tests talk to.
if [ -f .ci/package.json ]; then
  if [ -f .ci/package-lock.json ]; then
    npm ci --prefix .ci --omit=optional --no-audit --no-fund --loglevel=error
  else
    npm install --prefix .ci --omit=optional --no-audit --no-fund --loglevel=error
  fi
fi

# Tests whose peers are missing fail instead of skipping.
export CI="${CI:-true}"
git config --global user.email >/dev/null 2>&1 || git config --global user.email "tests@reins.invalid"
git config --global user.name >/dev/null 2>&1 || git config --global user.name "reins tests"

# -count=1: the end-to-end tests build the binary themselves, which the
# test cache cannot see, so cached results could be stale.
go test -race -count=1 -timeout 30m ./...
