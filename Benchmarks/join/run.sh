#!/usr/bin/env bash
# Joins a connected station to a running audit of N expected assets (plus N/10 assets of
# another country, which a station must not copy) and reports the time and the station's peak
# memory for `audit start` (which streams the local copy), then a new process's first scans
# after that: an expected tag, a repeat, and one outside the copy (pending until the server
# decides it), each process timed from start to exit; then a second station's join alone.
set -euo pipefail
N=${1:-1000000}
B=${AUDIT_STATION:-.build/release/audit-station}
W=$(mktemp -d)
python3 - "$N" > "$W/assets.csv" <<'PY'
import sys
n=int(sys.argv[1])
out=sys.stdout
out.write("asset_tag,serial_num,name,country\n")
out.writelines(f"J{i},SN{i},Laptop {i},SG\n" for i in range(n))
out.writelines(f"K{i},SK{i},Laptop {i},MY\n" for i in range(n // 10))
PY
printf 'join-pass-1\n' | $B --database $W/server.sqlite users create --email j@x.io --password-stdin --name J --type ADMIN >/dev/null
/usr/bin/time -f "import $N + $((N / 10)) assets: %e s, peak %M KiB" $B --database $W/server.sqlite assets import $W/assets.csv >/dev/null
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
$B --database $W/server.sqlite serve --port $PORT > $W/serve.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf $W' EXIT
for i in $(seq 1 100); do grep -q Serving $W/serve.log && break; sleep 0.1; done
printf 'join-pass-1\n' | $B --database $W/station.sqlite login --server http://127.0.0.1:$PORT --email j@x.io --password-stdin >/dev/null
/usr/bin/time -f "start and join (stream the local copy of $N assets): %e s, peak %M KiB" $B --database $W/station.sqlite audit start --country SG >/dev/null || echo "join failed"
python3 - "$W/station.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
held = db.execute("SELECT count(*), sum(country <> 'SG') FROM replica_expected").fetchone()
print(f"the copy holds {held[0]} expected assets, {held[1] or 0} of another country")
PY
ls -l $W/station.sqlite | awk '{printf "station database: %.0f MiB\n", $5 / 1048576}'
for tag in J5 J5 K5; do
  /usr/bin/time -f "a new process's scan of $tag (start to exit): %e s, peak %M KiB" sh -c "printf '$tag\n' | $B --database $W/station.sqlite audit scan --json 2>/dev/null" | head -c 100; echo
done
# A second station joins the running audit: its first scan streams the copy (the audit is
# already started, so this is the join alone).
printf 'join-pass-1\n' | $B --database $W/second.sqlite login --server http://127.0.0.1:$PORT --email j@x.io --password-stdin >/dev/null
/usr/bin/time -f "a second station joins (streams the copy of $N assets) and scans J7: %e s, peak %M KiB" sh -c "printf 'J7\n' | $B --database $W/second.sqlite audit scan --json 2>/dev/null" | head -c 100; echo
