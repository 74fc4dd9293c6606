#!/usr/bin/env bash
# Scans/s and p50/p99 latency from 32 connections: one `serve` on SQLite, then one and two
# `serve` processes sharing one PostgreSQL database, in the same run on the same machine.
# Each run is a fresh audit of N expected assets scanned once each; every server is asked for
# the counts afterwards, which must be exact.
#
#   swift build -c release --product audit-station && swift build -c release --package-path Benchmarks --product server-benchmark
#   Benchmarks/postgres/run.sh [N=20000]
#
# Needs Debian's postgresql (scripts/setup.sh). The cluster is private (cluster.sh).
set -euo pipefail
N=${1:-20000}
. "$(dirname "$0")/cluster.sh"
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
