#!/usr/bin/env python3
"""How long a connected station waits on a network that does not answer.

Sets up a connected station through the real command line (a `serve` over a fresh database,
`login`, `audit start`, which pulls the local copy), stops the server, then runs
`audit scan --json` against three networks:
  refused      the server's port is closed (connection refused)
  black-hole   a socket that accepts nothing and never answers
  unreachable  a listener on 127.0.0.1 whose queue is full and that never accepts: the kernel
               drops every new SYN, as for a host that is down (traffic stays on loopback)
and, as a baseline, a standalone station (the server's own database) with the same audit;
it measures, per run:
  from launch     from starting the process to the first outcome printed (the tag is written
                  at once), which includes process start-up and opening the database
  typed later     the first tag written 0.5 s after the start, to its outcome printed: the
                  first scan's own feedback
  exit            from closing standard input (Ctrl-D) to the process having exited

  swift build --product audit-station     # or -c release
  python3 Benchmarks/offline/run.py .build/debug/audit-station --runs 10
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, tempfile, time


def run(binary, db, args, stdin=b""):
    p = subprocess.run([binary, "--database", db] + args, input=stdin, capture_output=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {p.stderr.decode()[-2000:]}")
    return p.stdout


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def dead_end():
    """A listener with a backlog of 0 whose queue is filled and never accepted: connections to
    it hang in SYN_SENT, as to an unreachable host. Returns the sockets to keep open."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        try:
            filler.connect(listener.getsockname())
        except BlockingIOError:
            pass
        fillers.append(filler)
    time.sleep(0.1)
    probe = socket.socket()
    probe.settimeout(0.3)
    try:
        probe.connect(listener.getsockname())
        sys.exit("the full listener still accepted a connection; cannot stand for an unreachable host")
    except (socket.timeout, TimeoutError):
        pass
    finally:
        probe.close()
    return [listener] + fillers


def setup(binary, folder):
    server_db = os.path.join(folder, "server.sqlite")
    station_db = os.path.join(folder, "station.sqlite")
    csv = os.path.join(folder, "inventory.csv")
    with open(csv, "w") as f:
        f.write("asset_tag,serial_num,name,country,status\n")
        for n in range(1, 1001):
            f.write(f"SG-{n},SN-SG-{n},Laptop {n},SG,IN_STOCK\n")
    run(binary, server_db, ["assets", "import", csv])
    run(binary, server_db, ["users", "create", "--email", "ann@example.com", "--name", "Ann", "--type", "ADMIN",
                            "--password-stdin"], b"secret-pass\n")
    port = free_port()
    serve = subprocess.Popen([binary, "--database", server_db, "serve", "--port", str(port)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}"
        run(binary, station_db, ["login", "--server", url, "--email", "ann@example.com", "--password-stdin"], b"secret-pass\n")
        run(binary, station_db, ["audit", "start", "--country", "SG"])
    finally:
        serve.terminate()
        serve.wait()
    return station_db, server_db, port


def point_at(station_db, server):
    path = station_db + ".login.json"
    with open(path) as f:
        login = json.load(f)
    login["server"] = server
    with open(path, "w") as f:
        json.dump(login, f)


def one_scan_run(binary, station_db, n, extra, settle):
    """settle 0: the tag is written as the process starts; else written `settle` s later."""
    start = time.perf_counter()
    p = subprocess.Popen([binary, "--database", station_db, "audit", "scan", "--json"] + extra,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if settle:
        time.sleep(settle)
        start = time.perf_counter()
    p.stdin.write(f"SG-{n}\n".encode())
    p.stdin.flush()
    line = p.stdout.readline()
    first = time.perf_counter() - start
    status = json.loads(line)["status"] if line else "nothing printed"
    closed = time.perf_counter()
    p.stdin.close()
    p.stdout.read()
    err = p.stderr.read().decode().strip().splitlines()
    p.wait(timeout=120)
    return first, time.perf_counter() - closed, status, (err[-1] if err else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--sync-before-exit", type=float, default=0)
    a = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="audit-offline-")
    try:
        station_db, server_db, port = setup(a.binary, folder)
        hole = socket.socket()
        hole.bind(("127.0.0.1", 0))
        hole.listen(1024)
        dead = dead_end()
        networks = [("refused", f"http://127.0.0.1:{port}"),
                    ("black-hole", f"http://127.0.0.1:{hole.getsockname()[1]}"),
                    ("unreachable", f"http://127.0.0.1:{dead[0].getsockname()[1]}")]
        extra = ["--sync-before-exit", str(a.sync_before_exit)] if a.sync_before_exit else []
        n = 0
        starts = []
        for _ in range(a.runs):
            t = time.perf_counter()
            subprocess.run([a.binary, "--help"], capture_output=True)
            starts.append((time.perf_counter() - t) * 1000)
        print(f"process start and exit alone (--help): p50 {statistics.median(starts):.0f} ms, max {max(starts):.0f} ms")
        print(f"{'network':<12} {'from launch p50 / max':>24} {'typed later p50 / max':>24} {'exit p50 / max':>18}  outcome")
        # The server's own database is a standalone station with the same audit: the baseline.
        for name, url in networks + [("standalone", None)]:
            if url:
                point_at(station_db, url)
            db = station_db if url else server_db
            firsts, typed, exits = [], [], []
            for _ in range(a.runs):
                n += 1
                first, exit_time, status, notice = one_scan_run(a.binary, db, n, extra if url else [], 0)
                firsts.append(first * 1000)
                exits.append(exit_time * 1000)
                n += 1
                later, exit_time, _, _ = one_scan_run(a.binary, db, n, extra if url else [], 0.5)
                typed.append(later * 1000)
                exits.append(exit_time * 1000)
            print(f"{name:<12} {statistics.median(firsts):>10.0f} / {max(firsts):>5.0f} ms {statistics.median(typed):>11.1f} / {max(typed):>5.1f} ms "
                  f"{statistics.median(exits):>6.0f} / {max(exits):>4.0f} ms  {status}; \"{notice}\"")
        hole.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
