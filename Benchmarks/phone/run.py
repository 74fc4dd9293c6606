#!/usr/bin/env python3
"""The phone page's frame-to-outcome time, in headless Chromium with a fake camera.

    /usr/bin/python3 Benchmarks/phone/run.py --station .build/release/audit-station [--tags 50]

`serve` runs on 127.0.0.1 over a new database with --tags assets. Chromium's fake camera plays a
Y4M at 5 frames a second: 8 s of an empty scene, then each tag's QR code for 1 s with 0.6 s of
the empty scene between. The page at /scan logs in, names the phone, opens the audit and
starts the camera; it sends about 5 frames a second to POST /api/v1/decode, and a code read in
two frames in a row is a scan (POST /api/v1/audit/scan). The page records when it grabbed the
first frame that read each code and the frame that confirmed it (window.scanPage.reads), and
when it showed each outcome (window.scanPage.outcomes). Prints p50, p99 and max of:

- confirming frame -> outcome on screen (decode of that frame, the scan stored, the outcome drawn);
- first frame that read the code -> outcome on screen (adds the wait for the confirming frame,
  about one frame interval).

Needs Debian's python3-selenium, chromium and chromium-driver, and the frame generator's Python
packages (segno, Pillow) on the `python3` of the PATH (scripts/setup.sh installs them).
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAKE_FRAME = os.path.join(ROOT, "Tests", "FakeCamera", "make_frame.py")
WIDTH, HEIGHT, FPS = 960, 540, 5


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def pgm_pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    # P5\n<w> <h>\n255\n<pixels>
    fields, rest = [], data
    while len(fields) < 4:
        rest = rest.lstrip()
        end = min(i for i in (rest.find(b" "), rest.find(b"\n")) if i >= 0)
        fields.append(rest[:end])
        rest = rest[end:]
    return rest[1:]


def write_y4m(path, scenes):
    """`scenes`: (pixels, frames) pairs, played in order."""
    chroma = bytes([128]) * (WIDTH * HEIGHT // 2)
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for pixels, frames in scenes:
            for _ in range(frames):
                out.write(b"FRAME\n" + pixels + chroma)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--station", required=True)
    parser.add_argument("--tags", type=int, default=50)
    args = parser.parse_args()
    station = os.path.abspath(args.station)
    work = tempfile.mkdtemp(prefix="phone-bench-")
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {station}, {WIDTH}x{HEIGHT} frames at {FPS}/s")
    make = [shutil.which("python3"), MAKE_FRAME, "--width", str(WIDTH), "--height", str(HEIGHT)]
    empty = os.path.join(work, "empty.pgm")
    subprocess.run([*make, "--out", empty], check=True)
    tags = [f"PHONE-{i:04d}" for i in range(args.tags)]
    scenes = [(pgm_pixels(empty), FPS * 8)]
    for i, tag in enumerate(tags):
        path = os.path.join(work, f"tag{i}.pgm")
        subprocess.run([*make, "--seed", str(i), "--qr", tag, "--out", path], check=True)
        scenes += [(pgm_pixels(path), FPS), (pgm_pixels(empty), 3)]
    scenes.append((pgm_pixels(empty), FPS * 3600 // 60))
    video = os.path.join(work, "camera.y4m")
    write_y4m(video, scenes)
    with open(os.path.join(work, "assets.csv"), "w") as csv:
        csv.write("asset_tag,name,country\n" + "".join(f"{tag},Laptop {tag},SG\n" for tag in tags))
    db = ["--database", os.path.join(work, "db.sqlite")]
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    subprocess.run([station, *db, "assets", "import", os.path.join(work, "assets.csv")], **quiet)
    subprocess.run([station, *db, "users", "create", "--email", "bench@example.com", "--name", "Bench", "--type", "ADMIN",
                    "--password-stdin"], input=b"bench-pass\n", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    subprocess.run([station, *db, "audit", "start", "--country", "SG"], **quiet)
    port = free_port()
    log = open(os.path.join(work, "serve.log"), "w")
    server = subprocess.Popen([station, *db, "serve", "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844",
                "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={video}", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        driver.get(f"http://127.0.0.1:{port}/scan")
        def wait(js, limit=30):
            if not _until(driver, js, limit):
                sys.exit(f"the page never got to: {js}")
        wait("return !!document.getElementById('login-email') && !document.getElementById('screen-login').hidden")
        driver.find_element("id", "login-email").send_keys("bench@example.com")
        driver.find_element("id", "login-password").send_keys("bench-pass")
        driver.find_element("id", "login-submit").click()
        wait("return !document.getElementById('screen-device').hidden")
        driver.find_element("id", "device-name").send_keys("Bench phone")
        driver.find_element("css selector", "#device-form button").click()
        wait("return !document.getElementById('screen-scan').hidden")
        driver.find_element("id", "camera-start").click()
        limit = time.time() + 8 + args.tags * 1.6 + 30
        reads, outcomes = [], []
        while time.time() < limit:
            reads = driver.execute_script("return window.scanPage.reads || []")
            outcomes = driver.execute_script("return window.scanPage.outcomes || []")
            if len({o["identifier"] for o in outcomes if o.get("status") == "found_expected"}) >= len(tags):
                break
            time.sleep(0.5)
        frames = driver.execute_script("return window.scanPage.frames")
    finally:
        driver.quit()
        server.terminate()
        server.wait()
    shown = {}
    for o in outcomes:
        if o.get("status") == "found_expected":
            shown.setdefault(o["identifier"], o["at"])
    confirmed, first = [], []
    for r in reads:
        if r["text"] in shown:
            confirmed.append(shown[r["text"]] - r["confirmed"])
            first.append(shown[r["text"]] - r["first"])
    print(f"{len(shown)} of {len(tags)} tags found, {frames} frames sent")
    for name, values in (("confirming frame -> outcome", confirmed), ("first frame that read it -> outcome", first)):
        if values:
            slowest = ", ".join(f"{v:.0f}" for v in sorted(values)[-3:])
            print(f"{name}: p50 {percentile(values, 50):.1f} ms, p90 {percentile(values, 90):.1f} ms, "
                  f"p99 {percentile(values, 99):.1f} ms, max {max(values):.1f} ms (slowest three: {slowest} ms)")
    if confirmed:
        order = [r["text"] for r in reads if r["text"] in shown]
        worst = max(range(len(confirmed)), key=lambda i: confirmed[i])
        print(f"the slowest was tag {worst + 1} of {len(confirmed)} ({order[worst]})")
    shutil.rmtree(work, ignore_errors=True)


def _until(driver, js, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        if driver.execute_script(js):
            return True
        time.sleep(0.2)
    return False


if __name__ == "__main__":
    sys.exit(main())
