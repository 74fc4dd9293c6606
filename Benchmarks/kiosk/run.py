#!/usr/bin/env python3
"""Kiosk figures in headless Chromium, through the emulated V4L2 camera at 1280x720, 30 fps.

    /usr/bin/python3 Benchmarks/kiosk/run.py --station .build/release/audit-station [--scans 200]

1. Scan-to-screen latency: the camera shows --scans different QR tags in turn (0.5 s each,
   0.4 s of empty frames between). The emulator logs the CLOCK_MONOTONIC time at which each
   tag's first frame is captured; the page records when it puts each outcome in its DOM
   (window.kiosk.outcomes, wall clock). The difference is frame -> decode -> store -> pushed
   event -> DOM. Prints p50, p99 and max.
2. Preview: with the page open and no code in view, the MJPEG frames a second that reach a
   second viewer of /api/preview.mjpg over 10 s, and the kiosk process's CPU over the same
   10 s (the emulator's producer thread runs inside that process and is included).

Needs Debian's python3-selenium, chromium and chromium-driver (scripts/setup.sh), and the
frame generator's Python packages on the `python3` of the PATH.
"""
import argparse
import glob
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FAKE = os.path.join(ROOT, "Tests", "FakeCamera")
FPS = 30


def run(*args, **kwargs):
    subprocess.run(args, check=True, **kwargs)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Kiosk:
    def __init__(self, station, work, lib, playlist, device):
        self.port = free_port()
        env = dict(os.environ, LD_PRELOAD=lib, FAKEV4L2_FRAMES=playlist, FAKEV4L2_FPS=str(FPS), FAKEV4L2_FORMAT="GREY",
                   FAKEV4L2_DEVICE=device, FAKEV4L2_AT_END="loop", FAKEV4L2_LOG=os.path.join(work, "device.log"), NO_COLOR="1")
        self.log = open(os.path.join(work, "kiosk.log"), "w")
        self.process = subprocess.Popen([station, "--database", os.path.join(work, "db.sqlite"), "kiosk", "--port", str(self.port),
                                         "--device", device, "--user", "Bench"], env=env, stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the kiosk did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def browser():
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,720",
                "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def latency(args, work, lib):
    make = [shutil.which("python3"), os.path.join(FAKE, "make_frame.py"), "--width", "1280", "--height", "720"]
    empty = os.path.join(work, "empty.pgm")
    run(*make, "--out", empty)
    tags = [f"KIOSK-{i:04d}" for i in range(args.scans)]
    playlist = os.path.join(work, "tags.txt")
    with open(playlist, "w") as out:
        out.write(f"{empty} *{FPS * 8}\n")  # time for the page to open
        for i, tag in enumerate(tags):
            path = os.path.join(work, f"tag{i}.pgm")
            run(*make, "--seed", str(i), "--qr", tag, "--out", path)
            out.write(f"{path} *{FPS // 2}\n{empty} *{FPS * 4 // 10}\n")
        out.write(f"{empty} *{FPS * 3600}\n")
    with open(os.path.join(work, "assets.csv"), "w") as csv:
        csv.write("asset_tag,name,country\n" + "".join(f"{tag},Laptop {tag},SG\n" for tag in tags))
    db = ["--database", os.path.join(work, "db.sqlite")]
    run(args.station, *db, "assets", "import", os.path.join(work, "assets.csv"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run(args.station, *db, "audit", "start", "--country", "SG", stdout=subprocess.DEVNULL)
    kiosk = Kiosk(args.station, work, lib, playlist, "/dev/video71")
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{kiosk.port}/")
        deadline = time.time() + 8 + args.scans * 0.9 + 30
        outcomes = []
        while time.time() < deadline:
            outcomes = driver.execute_script("return (window.kiosk && window.kiosk.outcomes) || []")
            done = {o["identifier"] for o in outcomes if o.get("identifier") in tags}
            if len(done) >= len(tags):
                break
            time.sleep(0.5)
        offset = time.time() - time.monotonic()  # CLOCK_MONOTONIC -> wall clock, both read here
    finally:
        driver.quit()
        kiosk.stop()
    # Scene changes alternate: empty, tag 0, empty, tag 1, … ("entry" is the frame's index).
    shown = {}
    scene = 0
    with open(os.path.join(work, "device.log")) as log:
        for line in log:
            m = re.search(r"scene entry=\d+ sequence=\d+ t=([\d.]+)", line)
            if m:
                if scene % 2 == 1 and scene // 2 < len(tags):
                    shown.setdefault(tags[scene // 2], float(m.group(1)) + offset)
                scene += 1
    latencies = []
    for o in outcomes:
        tag = o.get("identifier")
        if tag in shown and o.get("status") == "found_expected":
            latencies.append(o["at"] / 1000 - shown.pop(tag))
    print(f"scan-to-screen latency over {len(latencies)} of {len(tags)} tags: "
          f"p50 {percentile(latencies, 50) * 1000:.1f} ms, p99 {percentile(latencies, 99) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms" if latencies else "no outcomes reached the page")


def preview(args, work, lib):
    make = [shutil.which("python3"), os.path.join(FAKE, "make_frame.py"), "--width", "1280", "--height", "720"]
    # An audit runs, so the page shows its scanning screen with the preview.
    with open(os.path.join(work, "assets.csv"), "w") as csv:
        csv.write("asset_tag,name,country\nPREVIEW-1,Laptop,SG\n")
    db = ["--database", os.path.join(work, "db.sqlite")]
    run(args.station, *db, "assets", "import", os.path.join(work, "assets.csv"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run(args.station, *db, "audit", "start", "--country", "SG", stdout=subprocess.DEVNULL)
    playlist = os.path.join(work, "empty.txt")
    with open(playlist, "w") as out:
        for i in range(4):  # four noisy empty frames, so successive frames differ as a camera's do
            path = os.path.join(work, f"empty{i}.pgm")
            run(*make, "--seed", str(100 + i), "--out", path)
            out.write(f"{path} *1\n")
    kiosk = Kiosk(args.station, work, lib, playlist, "/dev/video72")
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{kiosk.port}/")
        time.sleep(3)
        frames = [0]
        stop = time.time() + 10

        def read():
            conn = http.client.HTTPConnection("127.0.0.1", kiosk.port, timeout=5)
            conn.request("GET", "/api/preview.mjpg")
            response = conn.getresponse()
            while time.time() < stop:
                line = response.fp.readline()
                if line.lower().startswith(b"content-length:"):
                    frames[0] += 1
                    length = int(line.split(b":")[1])
                    response.fp.readline()
                    response.fp.read(length)
            conn.close()

        reader = threading.Thread(target=read)
        cpu0, t0 = cpu_seconds(kiosk.process.pid), time.time()
        reader.start()
        reader.join()
        cpu1, t1 = cpu_seconds(kiosk.process.pid), time.time()
        page_ok = driver.execute_script("const i=document.getElementById('preview'); return !!i && i.naturalWidth > 0")
    finally:
        driver.quit()
        kiosk.stop()
    print(f"preview at 1280x720: {frames[0] / (t1 - t0):.1f} frames/s to a second viewer while the page is open "
          f"(page shows the preview: {page_ok}); kiosk CPU {100 * (cpu1 - cpu0) / (t1 - t0):.1f}% of one core with no code in view")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--station", required=True)
    parser.add_argument("--scans", type=int, default=200)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="kiosk-bench-")
    lib = os.path.join(work, "libfakev4l2.so")
    run("cc", "-O2", "-shared", "-fPIC", "-o", lib, *glob.glob(os.path.join(FAKE, "*.c")), "-ldl", "-lpthread", "-lturbojpeg")
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {args.station}")
    latency(args, work, lib)
    os.remove(os.path.join(work, "db.sqlite"))
    for suffix in ("-wal", "-shm"):
        if os.path.exists(os.path.join(work, "db.sqlite" + suffix)):
            os.remove(os.path.join(work, "db.sqlite" + suffix))
    preview(args, work, lib)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
