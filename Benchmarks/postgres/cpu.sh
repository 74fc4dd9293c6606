#!/usr/bin/env bash
# Where one PostgreSQL server's CPU goes: one `serve --postgres` on a private cluster, N scans
# from 32 connections (server-benchmark remote), then the CPU seconds of the server, of every
# PostgreSQL process and of the load generator, and each statement's mean execution and
# planning time from pg_stat_statements.
#
#   swift build -c release --product audit-station && swift build -c release --package-path Benchmarks --product server-benchmark
#   Benchmarks/postgres/cpu.sh [N=20000]
set -euo pipefail
N=${1:-20000}
PG_SETTINGS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on"
. "$(dirname "$0")/cluster.sh"
python3 -c "
print('asset_tag,name,country')
for i in range($N): print(f'SG-{i},Laptop {i},SG')" > "$W/assets.csv"
printf '%s\n' "$BENCH_PASSWORD" | $B users create --postgres "$URL" --email bench@example.com --password-stdin \
    --name Bench --type ADMIN >/dev/null
$B assets import --postgres "$URL" "$W/assets.csv" >/dev/null 2>&1
$PSQL -qc "CREATE EXTENSION pg_stat_statements" >/dev/null
port=$(free_port)
$B serve --port "$port" --postgres "$URL" > "$W/serve.log" 2>&1 &
SERVER=$!
echo $SERVER > "$W/serve.pid"
for _ in $(seq 1 100); do grep -q Serving "$W/serve.log" && break; sleep 0.1; done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
pg_ticks() { local t=0; for p in $(pgrep -u postgres -f "postgres.*$W|postgres:" ); do t=$((t + $(ticks "$p" 2>/dev/null || echo 0))); done; echo $t; }
$PSQL -qc "SELECT pg_stat_statements_reset()" >/dev/null
s0=$(ticks $SERVER); p0=$(pg_ticks)
/usr/bin/time -f "load generator: %U s user + %S s system" "$LOAD" remote --email bench@example.com --password-env BENCH_PASSWORD \
    --country SG --scans "$N" "http://127.0.0.1:$port"
s1=$(ticks $SERVER); p1=$(pg_ticks)
hz=$(getconf CLK_TCK)
python3 -c "
n, hz = $N, $hz
serve, pg = ($s1 - $s0) / hz, ($p1 - $p0) / hz
print(f'CPU: serve {serve:.2f} s ({serve / n * 1000:.3f} ms a scan), PostgreSQL {pg:.2f} s ({pg / n * 1000:.3f} ms a scan)')"
$PSQL -c "SELECT calls, round((total_exec_time / greatest(calls, 1))::numeric, 3) AS exec_ms,
    round((total_plan_time / greatest(plans, 1))::numeric, 3) AS plan_ms, plans,
    left(regexp_replace(query, '\s+', ' ', 'g'), 70) AS statement
    FROM pg_stat_statements WHERE calls >= $N ORDER BY total_exec_time DESC"
