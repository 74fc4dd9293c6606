#!/usr/bin/env python3
"""Import benchmark: a large inventory CSV through `assets import`, on the station and through
the API.

Builds nothing: pass the audit-station binary (a release build). It writes a CSV of N assets
(the shape of Benchmarks/store: serial numbers out of order, so the indexes are not filled in
order), then times, each through the real command line:
  - station: `assets import FILE` into a fresh SQLite file;
  - API: `serve` on a fresh SQLite file, a connected station logged in to it, and
    `assets import FILE` there, which streams the file as text/csv to
    POST /api/v2/assets/import;
  - with --bad: the same station import with one bad row near the end and one near the start,
    which must import nothing and name both lines;
  - after the API import (unless --no-search), the assets' search through the API
    (GET /api/v2/assets?search=one tag), 10 times while the server's search index is still
    taking the imported rows (searches then read the rows), then how long after the import's
    end the index had them all (`assets_fts_paused` empty), then 10 times again.
Peak memory is each process's own ru_maxrss (os.wait4), so the station, the uploading client
and the server are measured apart.

  swift build -c release --product audit-station
  python3 Benchmarks/import/run.py .build/release/audit-station --assets 1000000 --bad
  python3 Benchmarks/import/run.py .build/release/audit-station --postgres
  python3 Benchmarks/import/run.py .build/release/audit-station --server-args "--postgres URL"

--postgres starts a private PostgreSQL cluster (Debian's postgresql: initdb and pg_ctl in a
temporary folder, on a free port, as the postgres user when run as root) and measures the API
on it; it is stopped and removed at the end.
"""
import argparse, glob, json, os, shutil, signal, socket, sqlite3, subprocess, sys, tempfile, time, urllib.request


class PrivateCluster:
    """A throwaway PostgreSQL cluster with one database, `audit`."""

    def __init__(self, folder):
        self.folder = os.path.join(folder, "pg")
        os.mkdir(self.folder)
        os.chmod(folder, 0o755)
        self.bin = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))[-1]
        self.run_as = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        data = os.path.join(self.folder, "data")
        subprocess.run(self.run_as + [f"{self.bin}/initdb", "-D", data, "-A", "trust", "-U", "postgres"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run(self.run_as + [f"{self.bin}/pg_ctl", "-D", data, "-l", os.path.join(self.folder, "pg.log"), "-w", "-o",
                                      f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(self.run_as + [f"{self.bin}/createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "audit"],
                       check=True)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/audit"

    def stop(self):
        subprocess.run(self.run_as + [f"{self.bin}/pg_ctl", "-D", os.path.join(self.folder, "data"), "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_measured(binary, db, args, stdin=None):
    """Runs one command; returns (seconds, its own peak RSS in MiB, stdout, stderr, exit code).
    Output goes to files, so neither pipe can fill and stall the child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        p = subprocess.Popen([binary, "--database", db] + args, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                             stdout=out, stderr=err)
        if stdin:
            p.stdin.write(stdin)
            p.stdin.close()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return seconds, usage.ru_maxrss / 1024, out.read(), err.read(), p.returncode


def must(result, what):
    if result[4] != 0:
        sys.exit(f"{what} failed: {result[3].decode()[-2000:]}")
    return result


def write_csv(path, n, bad_lines=()):
    with open(path, "w") as f:
        f.write("asset_tag,serial_num,name,model,status,manufacturer,country,location\n")
        for i in range(n):
            line = i + 2
            if line in bad_lines:
                f.write(f"AT-{0:08d},,Repeat,Latitude 7440,IN_STOCK,Dell,SG,Rack 1\n" if line > 100 else
                        f"BAD-{i},,Bad country,Latitude 7440,IN_STOCK,Dell,QQ,Rack 1\n")
                continue
            country = "SG" if i % 10 else "MY"
            status = "ARCHIVED" if i % 97 == 0 else "IN_STOCK"
            f.write(f"AT-{i:08d},SN{i * 7919 % 10**10:010d},Laptop {i},Latitude 7440,{status},Dell,{country},Rack {i % 500}\n")


def search_times(port, token, tag, rounds=10):
    """Milliseconds of `rounds` searches for `tag` through the API, each checked to find it."""
    times = []
    for _ in range(rounds):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v2/assets?search={tag}&per_page=50",
                                         headers={"Authorization": f"Bearer {token}"})
        start = time.perf_counter()
        with urllib.request.urlopen(request) as answer:
            body = json.load(answer)
        times.append((time.perf_counter() - start) * 1000)
        tags = [row["asset_tag"] for row in body["data"]["assets"]]
        if tags != [tag]:
            sys.exit(f"the search for {tag} found {tags[:5]}")
    times.sort()
    return f"p50 {times[len(times) // 2]:.0f} ms, max {times[-1]:.0f} ms"


def index_waiting(db):
    """Whether the SQLite file's search index still waits for imported rows."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return c.execute("SELECT count(*) FROM assets_fts_paused").fetchone()[0] > 0


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--assets", type=int, default=1_000_000)
    parser.add_argument("--bad", action="store_true", help="also time a failing import")
    parser.add_argument("--no-api", action="store_true")
    parser.add_argument("--no-search", action="store_true", help="skip the search timings after the API import")
    parser.add_argument("--server-args", default="", help="extra arguments for the server's `users create` and `serve`, "
                        "such as \"--postgres postgres://…\" to measure the API on PostgreSQL")
    parser.add_argument("--postgres", action="store_true", help="measure the API on a private PostgreSQL cluster")
    parser.add_argument("--keep", action="store_true")
    a = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="audit-import-bench-")
    cluster = None
    if a.postgres:
        cluster = PrivateCluster(folder)
        a.server_args = f"--postgres {cluster.url} {a.server_args}"
        os.environ.setdefault("AUDIT_STATION_JWT_SECRET", os.urandom(32).hex())
        print(f"PostgreSQL: {cluster.bin}, a private cluster on port {cluster.port}")
    csv_path = os.path.join(folder, "inventory.csv")
    write_csv(csv_path, a.assets)
    print(f"inventory: {a.assets:,} assets, CSV {os.path.getsize(csv_path) / 2**20:.0f} MiB")
    server = None
    try:
        db = os.path.join(folder, "station.sqlite")
        seconds, peak, _, err, _ = must(run_measured(a.binary, db, ["assets", "import", csv_path]), "station import")
        print(f"station import: {seconds:.2f} s, {a.assets / seconds:,.0f} rows/s, peak RSS {peak:.0f} MiB")

        if a.bad:
            bad_path = os.path.join(folder, "bad.csv")
            bad = (50, a.assets - 10)
            write_csv(bad_path, a.assets, bad)
            bad_db = os.path.join(folder, "bad.sqlite")
            seconds, peak, _, err, code = run_measured(a.binary, bad_db, ["assets", "import", bad_path])
            named = all(f"line {line}:" in err.decode() for line in bad)
            print(f"station import with 2 bad rows: {seconds:.2f} s, {a.assets / seconds:,.0f} rows/s checked, "
                  f"peak RSS {peak:.0f} MiB, exit {code}, both lines named: {named}")
            if code == 0 or not named:
                sys.exit("the bad import must fail and name both lines:\n" + err.decode()[-2000:])

        if not a.no_api:
            server_db = os.path.join(folder, "server.sqlite")
            extra = a.server_args.split()
            must(run_measured(a.binary, server_db, ["users", "create", "--email", "bench@example.com", "--password-stdin",
                                                     "--name", "Bench", "--type", "ADMIN"] + extra, b"import-bench-1\n"), "users create")
            port = free_port()
            log = open(os.path.join(folder, "serve.log"), "w")
            server = subprocess.Popen([a.binary, "--database", server_db, "serve", "--port", str(port)] + extra,
                                      stdout=log, stderr=log)
            for _ in range(100):
                if "Serving" in open(os.path.join(folder, "serve.log")).read():
                    break
                time.sleep(0.1)
            station_db = os.path.join(folder, "connected.sqlite")
            must(run_measured(a.binary, station_db, ["login", "--server", f"http://127.0.0.1:{port}", "--email",
                                                      "bench@example.com", "--password-stdin"], b"import-bench-1\n"), "login")
            seconds, peak, _, err, _ = must(run_measured(a.binary, station_db, ["assets", "import", csv_path]), "API import")
            imported = time.perf_counter()
            if not a.no_search and not extra:
                login = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/auth/login", method="POST", headers={"Content-Type": "application/json"},
                    data=json.dumps({"email": "bench@example.com", "password": "import-bench-1", "device_name": "bench"}).encode())
                with urllib.request.urlopen(login) as answer:
                    token = json.load(answer)["data"]["token"]
                tag = f"AT-{a.assets - 7:08d}"
                waiting = index_waiting(server_db)
                during = search_times(port, token, tag)
                print(f"search for one tag while the index {'takes the rows' if waiting else 'has them already'}: {during}")
                while index_waiting(server_db):
                    time.sleep(0.2)
                print(f"search index has every row {time.perf_counter() - imported:.1f} s after the import's end")
                print(f"search for one tag with the index: {search_times(port, token, tag)}")
            server.send_signal(signal.SIGINT)
            _, _, usage = os.wait4(server.pid, 0)
            server = None
            print(f"API import (connected station -> serve, text/csv): {seconds:.2f} s, {a.assets / seconds:,.0f} rows/s, "
                  f"peak RSS client {peak:.0f} MiB, server {usage.ru_maxrss / 1024:.0f} MiB")
    finally:
        if server is not None:
            server.kill()
            server.wait()
        if cluster is not None:
            cluster.stop()
        if a.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
