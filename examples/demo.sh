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

echo "== flush: durable facts from a raw context dump (examples/session_log.txt)"
as should-flush --tokens 178000 --context-window 200000 || true
as flush --context-file "$here/session_log.txt"

echo "== today's log: $ws/memory/$(date +%F).md"
cat "$ws/memory/$(date +%F).md"

echo "== sleep: NREM + REM, offline"
as sleep --phase both

echo "== MEMORY.md"
cat "$ws/MEMORY.md"
for page in "$ws"/bank/entities/*.md "$ws"/bank/concepts/*.md; do
  [ -e "$page" ] || continue
  echo "== bank/${page#"$ws"/bank/}"
  cat "$page"
done

echo "== next session (from today's log)"
sed -n '/^## Next session/,/^## /p' "$ws/memory/$(date +%F).md"

echo "== status"
as status

echo "== next session start: the context an agent loads, with recall for a query"
as context --query "who owns the webhook signing keys" --budget-tokens 400
