#!/usr/bin/env bash
# A day with agent-sleep on a bundled sample, offline: notes in, memory out.
# Usage: examples/demo.sh [WORKSPACE]   (default: a new temporary folder)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(dirname "$(command -v python)")"
[ -x "$here/../.venv/bin/agent-sleep" ] && bin="$here/../.venv/bin"
as() { "$bin/agent-sleep" "$@"; }
ws="${1:-$(mktemp -d)/agent_workspace}"
export AGENT_SLEEP_WORKSPACE="$ws"
unset ANTHROPIC_API_KEY  # the demo runs on the offline defaults

echo "== init"
as init

echo "== micro-rest: notes from examples/sample_notes.txt"
trim() { local s="$1"; s="${s#"${s%%[![:space:]]*}"}"; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
while IFS='|' read -r type conf source note; do
  type=$(trim "$type"); conf=$(trim "$conf"); source=$(trim "$source"); note=$(trim "$note")
  [[ -z "$type" || "$type" == \#* ]] && continue
  args=(--type "$type" --note "$note")
  [[ -n "$conf" ]] && args+=(--confidence "$conf")
  [[ -n "$source" ]] && args+=(--source "$source")
  id=$(as rest "${args[@]}")
  printf '%s  %s: %s\n' "$id" "$type" "$note"
done < "$here/sample_notes.txt"

echo "== today's log: $ws/memory/$(date +%F).md"
cat "$ws/memory/$(date +%F).md"
