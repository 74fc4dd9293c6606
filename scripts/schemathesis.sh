#!/usr/bin/env bash
# Runs schemathesis against the OpenAPI document of a real `audit-station serve`.
#   scripts/schemathesis.sh [MAX_EXAMPLES_PER_OPERATION] [MAX_SECONDS]     (defaults: 25, 300)
# Starts a server on 127.0.0.1 (a free port) over a temporary database with an admin user, a few
# assets and a running audit, logs in for a token, and checks every operation of /openapi.yaml for
# no 5xx (not_a_server_error) and answers that match the document (response_schema_conformance).
# Logout and an admin's password reset are left out, as either would revoke the token the run
# uses (the reset does when it picks the admin's own id), and every later call would be a 401.
# The server is stopped at the end.
# Environment: AUDIT_STATION (the built binary; by default `swift build` makes it), SCHEMATHESIS_CHECKS
# (to run other checks, comma-separated), SCHEMATHESIS_PHASES (examples,coverage,fuzzing), SCHEMATHESIS_SEED
# (1), SCHEMATHESIS_REPORT (a folder to keep the JUnit report in). Exits with schemathesis's status.
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-25}"
seconds="${2:-300}"
binary="${AUDIT_STATION:-}"
if [ -z "$binary" ]; then
    swift build --product audit-station >&2
    binary="$(swift build --show-bin-path)/audit-station"
fi
command -v schemathesis >/dev/null || { echo "schemathesis is not installed: python3 -m pip install schemathesis" >&2; exit 2; }

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
db="$work/server.sqlite"
station() { "$binary" --database "$db" "$@"; }

password="schema-check-$RANDOM$RANDOM"
printf "%s\n" "$password" | station users create --email admin@example.com --password-stdin --name Admin --type ADMIN --can-edit-assets >/dev/null
printf 'asset_tag,serial_num,name,country,status\nSG-1,S-1,Laptop,SG,IN_STOCK\nSG-2,S-2,Phone,SG,DEPLOYED\nMY-1,S-3,Desk,MY,IN_STOCK\n' > "$work/assets.csv"
station assets import "$work/assets.csv" >/dev/null 2>&1
station customers create --name Ann --contact-number "+65 1" --address "1 Road" --country SG >/dev/null
station audit start --country SG --user Admin >/dev/null

"$binary" --database "$db" serve --host 127.0.0.1 --port 0 >"$work/serve.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 300); do
    port="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | sed 's/.*://' || true)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
base="http://127.0.0.1:$port"

token="$(BASE="$base" PASSWORD="$password" python3 - <<'PY'
import json, os, urllib.request
body = json.dumps({"email": "admin@example.com", "password": os.environ["PASSWORD"], "device_name": "schemathesis"}).encode()
request = urllib.request.Request(os.environ["BASE"] + "/api/v1/auth/login", data=body, headers={"Content-Type": "application/json"})
answer = json.load(urllib.request.urlopen(request, timeout=30))
print((answer.get("data") or answer)["token"])
PY
)"

report="$(realpath -m "${SCHEMATHESIS_REPORT:-$work/report}")"
echo "schemathesis against $base/openapi.yaml: at most $examples examples an operation, $seconds s"
set +e
(cd "$work" && schemathesis run "$base/openapi.yaml" --url "$base" \
    -H "Authorization: Bearer $token" \
    --checks "${SCHEMATHESIS_CHECKS:-not_a_server_error,response_schema_conformance}" \
    --phases "${SCHEMATHESIS_PHASES:-examples,coverage,fuzzing}" \
    --max-examples "$examples" --max-time "$seconds" --seed "${SCHEMATHESIS_SEED:-1}" \
    --exclude-path /api/v1/auth/logout --exclude-path "/api/v1/users/{id}/password" \
    --workers 1 --request-timeout 30 --no-color \
    --report junit --report-dir "$report")  # from $work, where it keeps its .schemathesis cache
status=$?
set -e
if grep -q '"status":500\|Fatal error' "$work/serve.log"; then echo "the server log shows a failure:" >&2; tail -20 "$work/serve.log" >&2; fi
exit "$status"
