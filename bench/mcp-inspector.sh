#!/usr/bin/env bash
# Talks to a running server's MCP endpoint with the official MCP Inspector CLI: lists the tools (with the
# CLI's --strict schema portability check), then calls service_health and count_matches.
#   CDS_API_KEY=cds_... bench/mcp-inspector.sh [http://127.0.0.1:8080/mcp]
# The Inspector is fetched by npx (pinned; it warns about Node < 22 but runs on Node 20).
set -euo pipefail
URL="${1:-${CDS_MCP_URL:-http://127.0.0.1:8080/mcp}}"
KEY="${CDS_API_KEY:?set CDS_API_KEY to an API key (cds keys create, or POST /v1/admin/accounts)}"
INSPECTOR="${CDS_INSPECTOR:-@modelcontextprotocol/inspector@2.12.0}"

inspect() { npx --yes "$INSPECTOR" --cli "$URL" --transport http --header "X-API-Key: $KEY" "$@" 2> >(grep -v -E 'EBADENGINE|npm warn' >&2); }

echo "== tools/list ($URL)"
inspect --method tools/list --strict | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for (const t of JSON.parse(s).tools) console.log(`${t.name.padEnd(20)} ${t.annotations?.readOnlyHint ? "read-only" : "spends   "}  ${t.description.split("\n").find((l) => l.startsWith("Cost:"))}`)})'
echo "== tools/call service_health"
inspect --method tools/call --tool-name service_health
echo "== tools/call count_matches {countries: [us]}"
inspect --method tools/call --tool-name count_matches --tool-arg 'filter={"countries":["us"]}'
