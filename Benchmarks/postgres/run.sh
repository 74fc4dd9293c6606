#!/usr/bin/env bash
# Scans/s and p50/p99 latency from 32 connections: one `serve` on SQLite, then one and two
# `serve` processes sharing one PostgreSQL database, in the same run on the same machine.
# Each run is a fresh audit of N expected assets scanned once each; every server is asked for
# the counts afterwards, which must be exact.
#
#   swift build -c release --product audit-station && swift build -c release --product server-benchmark
#   Benchmarks/postgres/run.sh [N=20000]
#
# Needs Debian's postgresql (scripts/setup.sh). The cluster is private: a temporary folder, a
# free port, run as the postgres user when this runs as root, removed at the end.
set -euo pipefail
N=${1:-20000}
B=${AUDIT_STATION:-.build/release/audit-station}
LOAD=${SERVER_BENCHMARK:-.build/release/server-benchmark}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
W=$(mktemp -d /tmp/audit-pg-bench.XXXXXX)
chmod 755 "$W"
AS=""
if [ "$(id -u)" -eq 0 ]; then chown postgres "$W"; AS="runuser -u postgres --"; fi
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
PGPORT=$(free_port)
cleanup() {
    for pid in $(cat "$W"/*.pid 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
    $AS "$PGBIN/pg_ctl" -D "$W/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$W"
}
trap cleanup EXIT

$AS "$PGBIN/initdb" -D "$W/data" -A trust -U postgres >/dev/null
$AS "$PGBIN/pg_ctl" -D "$W/data" -l "$W/pg.log" -w \
    -o "-p $PGPORT -k $W -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
$AS "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres audit
URL="postgres://postgres@127.0.0.1:$PGPORT/audit"

export AUDIT_STATION_JWT_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
export BENCH_PASSWORD=bench-password-1
python3 - "$N" > "$W/assets.csv" <<'PY'
import sys
print("asset_tag,name,country")
for i in range(int(sys.argv[1])): print(f"SG-{i},Laptop {i},SG")
PY
for target in "--database $W/server.sqlite" "--postgres $URL"; do
    # shellcheck disable=SC2086
    printf '%s\n' "$BENCH_PASSWORD" | $B users create $target --email bench@example.com --password-stdin \
        --name Bench --type ADMIN >/dev/null
    # shellcheck disable=SC2086
    /usr/bin/time -f "import of $N assets (${target%% *}): %e s, peak %M KiB" $B assets import $target "$W/assets.csv" >/dev/null
done

# serve ARGS…: starts a server on a free port with ARGS, prints its URL once it listens.
serve() {
    local port log
    port=$(free_port); log="$W/serve-$port.log"
    $B serve --port "$port" "$@" > "$log" 2>&1 &
    echo $! > "$W/serve-$port.pid"   # serve runs in a subshell: the pid goes to a file
    for _ in $(seq 1 200); do grep -q Serving "$log" && break; sleep 0.05; done
    grep -q Serving "$log" || { cat "$log" >&2; exit 1; }
    echo "http://127.0.0.1:$port"
}
load() { "$LOAD" remote --email bench@example.com --password-env BENCH_PASSWORD --country SG --scans "$N" "$@"; }

echo "== SQLite, one server"
SQLITE=$(serve --database "$W/server.sqlite")
load "$SQLITE"
echo "== PostgreSQL, one server"
PG1=$(serve --postgres "$URL")
load "$PG1"
echo "== PostgreSQL, two servers on one database"
PG2=$(serve --postgres "$URL")
load "$PG1" "$PG2"
