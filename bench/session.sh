#!/usr/bin/env bash
# Whole-process benchmark of an agent CLI against the fake model server.
#   bench/session.sh ./reins               # reins alone, with targets
#   bench/session.sh ./reins "claude"      # and a reference CLI side by side
set -euo pipefail
cd "$(dirname "$0")/.."
agent="${1:?usage: bench/session.sh AGENT_CMD [REFERENCE_CMD]}"
ref="${2:-}"
exec go run ./bench/session -runs "${RUNS:-5}" ${ref:+-ref "$ref"} -- $agent
