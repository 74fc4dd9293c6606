#!/usr/bin/env python3
"""Store and CLI benchmark for a standalone station with a large inventory.

Builds nothing: pass the audit-station binary (a release build). It creates a fresh database,
then measures, each through the real command line:
  - import of N expected assets from CSV,
  - audit start (fixing the expected set),
  - durable scans through `audit scan --json`: one scan at a time (closed loop, per-scan
    latency p50/p99) and a piped batch (throughput),
  - CSV and JSON report export,
  - peak memory (max RSS) of every step.

  swift build -c release --product audit-station
  python3 Benchmarks/store/run.py .build/release/audit-station --assets 1000000
"""
import argparse, os, random, shutil, statistics, subprocess, sys, tempfile, time


def run(binary, db, args, stdin=None):
    """Runs one command; returns (seconds, stdout)."""
    start = time.perf_counter()
    p = subprocess.Popen([binary, "--database", db] + args, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate(stdin)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {err.decode()[-2000:]}")
    return seconds, out


def peak_rss_mib():
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--assets", type=int, default=1_000_000)
    parser.add_argument("--scans", type=int, default=2000, help="scans one at a time (latency)")
    parser.add_argument("--batch", type=int, default=10000, help="scans piped at once (throughput)")
    parser.add_argument("--keep", action="store_true")
    a = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="audit-bench-")
    db = os.path.join(folder, "bench.sqlite")
    csv_path = os.path.join(folder, "inventory.csv")
    rng = random.Random(7)
    with open(csv_path, "w") as f:
        f.write("asset_tag,serial_num,name,model,status,manufacturer,country,location\n")
        for n in range(a.assets):
            country = "SG" if n % 10 else "MY"
            status = "ARCHIVED" if n % 97 == 0 else "IN_STOCK"
            f.write(f"AT-{n:08d},SN{n * 7919 % 10**10:010d},Laptop {n},Latitude 7440,{status},Dell,{country},Rack {n % 500}\n")
    print(f"inventory: {a.assets} assets, CSV {os.path.getsize(csv_path) / 1e6:.0f} MB")

    seconds, _ = run(a.binary, db, ["assets", "import", csv_path])
    print(f"import: {seconds:.2f} s ({a.assets / seconds:,.0f} rows/s), peak RSS so far {peak_rss_mib():.0f} MiB")

    seconds, out = run(a.binary, db, ["audit", "start", "--country", "SG", "--json"])
    print(f"audit start: {seconds:.2f} s (expected set fixed: {out.decode().split('total_assets')[1][2:12].split(',')[0]} assets)")

    # Closed loop: one scan, wait for its stored outcome, then the next.
    p = subprocess.Popen([a.binary, "--database", db, "audit", "scan", "--json"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    latencies = []
    tags = [f"AT-{rng.randrange(a.assets):08d}" for _ in range(a.scans)]
    first = time.perf_counter()
    for tag in tags:
        t0 = time.perf_counter()
        p.stdin.write((tag + "\n").encode())
        line = p.stdout.readline()
        if not line:
            sys.exit("scan process ended early")
        latencies.append(time.perf_counter() - t0)
    total = time.perf_counter() - first
    p.stdin.close(); p.wait()
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    print(f"scans one at a time: {a.scans} in {total:.2f} s = {a.scans / total:,.0f} durable scans/s; "
          f"latency p50 {p50:.2f} ms, p99 {p99:.2f} ms")

    batch = "\n".join(f"AT-{rng.randrange(a.assets):08d}" for _ in range(a.batch)).encode() + b"\n"
    seconds, out = run(a.binary, db, ["audit", "scan", "--json"], stdin=batch)
    print(f"scans piped: {a.batch} in {seconds:.2f} s = {a.batch / seconds:,.0f} durable scans/s (incl. process start)")

    for fmt in ("csv", "json"):
        path = os.path.join(folder, f"report.{fmt}")
        seconds, _ = run(a.binary, db, ["audit", "report", "--format", fmt, "--output", path])
        print(f"report {fmt}: {seconds:.2f} s, {os.path.getsize(path) / 1e6:.0f} MB")

    print(f"peak RSS of any step: {peak_rss_mib():.0f} MiB")
    print(f"database: {os.path.getsize(db) / 1e6:.0f} MB")
    if not a.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
