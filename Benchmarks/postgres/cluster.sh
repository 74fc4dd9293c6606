# Sourced by the PostgreSQL benchmarks: a private cluster (Debian's postgresql, scripts/setup.sh)
# in a temporary folder $W, on a free port, run as the postgres user when this runs as root,
# with one database whose URL is $URL. Everything is stopped and removed at exit, along with
# the processes whose pids are in $W/*.pid. Extra server settings: PG_SETTINGS.
B=${AUDIT_STATION:-.build/release/audit-station}
LOAD=${SERVER_BENCHMARK:-Benchmarks/.build/release/server-benchmark}
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
    -o "-p $PGPORT -k $W -c listen_addresses=127.0.0.1 -c max_connections=200 ${PG_SETTINGS:-}" start >/dev/null
$AS "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres audit
URL="postgres://postgres@127.0.0.1:$PGPORT/audit"
PSQL="$AS $PGBIN/psql -h 127.0.0.1 -p $PGPORT -U postgres audit"

export AUDIT_STATION_JWT_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
export BENCH_PASSWORD=bench-password-1
