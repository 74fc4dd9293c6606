#!/usr/bin/env bash
# Joins a connected station to a running audit of N expected assets and reports the time and
# the station's peak memory for `audit start` (which pulls the local copy).
set -euo pipefail
N=${1:-200000}
B=${AUDIT_STATION:-.build/release/audit-station}
W=$(mktemp -d)
python3 - "$N" > "$W/assets.csv" <<'PY'
import sys
n=int(sys.argv[1])
print("asset_tag,serial_num,name,country")
for i in range(n): print(f"J{i},SN{i},Laptop {i},SG")
PY
printf 'join-pass-1\n' | $B --database $W/server.sqlite users create --email j@x.io --password-stdin --name J --type ADMIN >/dev/null
/usr/bin/time -f "import: %e s, peak %M KiB" $B --database $W/server.sqlite assets import $W/assets.csv >/dev/null
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
$B --database $W/server.sqlite serve --port $PORT > $W/serve.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf $W' EXIT
for i in $(seq 1 100); do grep -q Serving $W/serve.log && break; sleep 0.1; done
printf 'join-pass-1\n' | $B --database $W/station.sqlite login --server http://127.0.0.1:$PORT --email j@x.io --password-stdin >/dev/null
/usr/bin/time -f "start and join (pull the local copy of $N assets): %e s, peak %M KiB" $B --database $W/station.sqlite audit start --country SG >/dev/null || echo "join failed"
/usr/bin/time -f "first scan after joining: %e s, peak %M KiB" sh -c "printf 'J5\n' | $B --database $W/station.sqlite audit scan --json" | head -c 120; echo
