#!/usr/bin/env bash
# Builds the reins binary: ./scripts/build.sh [-o PATH] (default ./reins).
#
# It is `go build ./cmd/reins` with three settings:
#   CGO_ENABLED=0   a static binary: without the C library's dynamic loader
#                   it starts about 3 ms sooner and spawns tools faster;
#   -E _reins_rt0   on Linux (amd64, arm64), an entry point that answers
#                   --version and -v before the Go runtime starts (about
#                   1 ms instead of 8-10); every other run goes straight on
#                   to the runtime's own entry. See internal/fastpath.
#   -X ...linkedMain  tells package fastpath that this binary's main puts
#                   back what init hides from the environment (TMUX, so
#                   that a library's colour probe does not run tmux).
# A plain `go build ./cmd/reins` makes a working binary too; it answers the
# version from its first package initialiser instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$PWD/reins"
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -o=*) out="${1#-o=}"; shift ;;
    *) echo "usage: scripts/build.sh [-o PATH]" >&2; exit 2 ;;
  esac
done
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
export PATH="$PATH:/usr/local/go/bin"
cd "$root"
ldflags="-X=reins/internal/fastpath.linkedMain=true"
case "$(go env GOOS)/$(go env GOARCH)" in
  linux/amd64|linux/arm64) ldflags="$ldflags -E=_reins_rt0" ;;
esac
CGO_ENABLED=0 exec go build -ldflags="$ldflags" -o "$out" ./cmd/reins
