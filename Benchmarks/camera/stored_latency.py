#!/usr/bin/env python3
"""Capture -> stored-outcome latency of `audit-station audit scan --device` through the
emulated V4L2 camera (1280x720 at 30 fps).

    Benchmarks/camera/stored_latency.py --station .build/release/audit-station [--seconds 30]

It imports 60 assets into a fresh database, starts an audit, and shows the camera 60 tags in
turn (3 frames each, 3 empty frames between). The emulator logs the CLOCK_MONOTONIC time at
which each tag's first frame is captured; this script timestamps each `--json` outcome line
as it arrives on the station's standard output (printed only after the scan is stored), so
the difference is capture -> stored -> printed.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FAKE = os.path.join(ROOT, "Tests", "FakeCamera")
TAGS = 60


def run(*args, **kwargs):
    subprocess.run(args, check=True, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--station", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="stored-latency-")
    lib = os.path.join(work, "libfakev4l2.so")
    run("cc", "-O2", "-shared", "-fPIC", "-o", lib, *glob.glob(os.path.join(FAKE, "*.c")), "-ldl", "-lpthread", "-lturbojpeg")
    make = [sys.executable, os.path.join(FAKE, "make_frame.py"), "--width", "1280", "--height", "720"]
    run(*make, "--out", os.path.join(work, "empty.pgm"))
    with open(os.path.join(work, "tags.txt"), "w") as playlist:
        for i in range(TAGS):
            path = os.path.join(work, f"tag{i:02d}.pgm")
            run(*make, "--seed", str(i), "--qr", f"BENCH-{i:02d}", "--out", path)
            playlist.write(f"{path} *3\n{os.path.join(work, 'empty.pgm')} *3\n")
    with open(os.path.join(work, "assets.csv"), "w") as csv:
        csv.write("asset_tag,name,country\n")
        for i in range(TAGS):
            csv.write(f"BENCH-{i:02d},Bench asset {i},SG\n")
    config = os.path.join(work, "station.json")
    with open(config, "w") as f:
        json.dump({"camera": {"device": "/dev/video77", "goneAfterSeconds": 0.05}}, f)
    db = os.path.join(work, "station.sqlite")
    base = [args.station, "--database", db, "--config", config]
    run(*base, "assets", "import", os.path.join(work, "assets.csv"), stdout=subprocess.DEVNULL)
    run(*base, "audit", "start", "--country", "SG", "--user", "bench", stdout=subprocess.DEVNULL)

    log = os.path.join(work, "device.log")
    env = dict(os.environ, LD_PRELOAD=lib, FAKEV4L2_DEVICE="/dev/video77", FAKEV4L2_FORMAT="GREY",
               FAKEV4L2_FPS="30", FAKEV4L2_FRAMES=os.path.join(work, "tags.txt"), FAKEV4L2_AT_END="loop",
               FAKEV4L2_LOG=log)
    station = subprocess.Popen([*base, "audit", "scan", "--device", "/dev/video77", "--json", "--user", "bench"],
                               env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    arrivals = []

    def reader():
        for line in station.stdout:
            arrivals.append((time.monotonic(), line))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    time.sleep(args.seconds)
    station.terminate()
    station.wait(timeout=10)
    thread.join(timeout=5)

    starts = {}  # tag index -> [capture times of its first frame]
    for line in open(log):
        m = re.match(r"scene entry=(\d+) sequence=\d+ t=([\d.]+)", line)
        if m and int(m.group(1)) % 6 == 0:
            starts.setdefault(int(m.group(1)) // 6, []).append(float(m.group(2)))
    latencies, statuses = [], {}
    for arrived, line in arrivals:
        outcome = json.loads(line)
        statuses[outcome.get("status")] = statuses.get(outcome.get("status"), 0) + 1
        tag = int(outcome["identifier"].split("-")[1])
        before = [t for t in starts.get(tag, []) if t <= arrived]
        if before:
            latencies.append(1000 * (arrived - before[-1]))
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(round(p / 100 * (len(latencies) - 1))))]

    print(f"stored-outcome latency: audit-station audit scan --device, emulated GREY camera 1280x720 at 30 fps, {args.seconds:.0f} s")
    print(f"  outcomes printed {len(arrivals)} ({', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))})")
    if latencies:
        print(f"  capture -> stored outcome printed: p50 {pct(50):.1f} ms, p99 {pct(99):.1f} ms, max {latencies[-1]:.1f} ms")
    err = station.stderr.read().decode(errors="replace").strip().splitlines()
    if not latencies and err:
        print("  station stderr:", *err[-5:], sep="\n    ")


if __name__ == "__main__":
    main()
