#!/usr/bin/env python3
"""Screenshots of every kiosk screen, for docs/kiosk.md (see kiosk-screenshots.sh)."""
import argparse
import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FAKE = os.path.join(ROOT, "Tests", "FakeCamera")
NAMES = ["Laptop 14in", "Dock USB-C", "Monitor 27in", "Keyboard", "Headset", "Webcam", "Laptop 13in",
         "Tablet", "Phone", "Printer", "Scanner", "Router"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, host="127.0.0.1"):
    for _ in range(300):
        try:
            socket.create_connection((host, port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on {host}:{port}")


class Run:
    def __init__(self, station, work):
        self.station, self.work, self.procs = station, work, []

    def cli(self, db, *args, stdin=None):
        return subprocess.run([self.station, "--database", db, *args], input=stdin, check=True,
                              capture_output=True, text=True).stdout

    def background(self, db, *args, env=None):
        log = open(os.path.join(self.work, f"log-{len(self.procs)}.txt"), "w")
        p = subprocess.Popen([self.station, "--database", db, *args], stdout=log, stderr=log,
                             env=dict(os.environ, **(env or {})))
        self.procs.append(p)
        return p

    def stop(self, p):
        p.terminate()
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                self.stop(p)


def browser(width=1280, height=720):
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    fit(driver, width, height)
    return driver


def fit(driver, width, height):
    """Sizes the window so that the page itself is width x height (the window size includes
    the browser's frame)."""
    driver.set_window_size(width, height)
    inner_w, inner_h = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width + (width - inner_w), height + (height - inner_h))


def inventory(run, db):
    path = os.path.join(run.work, "inventory.csv")
    with open(path, "w") as f:
        f.write("asset_tag,serial_num,name,country,location\n")
        for i, name in enumerate(NAMES, 1):
            f.write(f"SG-{i:04d},SN{i:06d},{name},SG,Dock A\n")
        for i in range(1, 4):
            f.write(f"MY-{i:04d},MYSN{i:05d},{NAMES[i]},MY,Shah Alam\n")
    run.cli(db, "assets", "import", path)


def shot(driver, out, name):
    time.sleep(0.8)
    driver.save_screenshot(os.path.join(out, name + ".png"))
    print("wrote", os.path.join(out, name + ".png"))


def type_tag(driver, tag, status):
    before = driver.execute_script("return (window.kiosk && window.kiosk.outcomes.length) || 0")
    driver.find_element(By.ID, "entry").send_keys(tag + Keys.ENTER)
    for _ in range(100):
        if driver.execute_script("return (window.kiosk && window.kiosk.outcomes.length) || 0") > before and \
                driver.find_element(By.ID, "outcome").get_attribute("data-status") == status:
            return
        time.sleep(0.1)
    raise SystemExit(f"no {status} outcome for {tag}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--station", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", choices=["standalone", "gun", "connected", "pin"], help="render one group of screens")
    args = parser.parse_args()
    station = os.path.abspath(args.station)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="kiosk-shots-")
    run = Run(station, work)
    try:
        groups = {"standalone": standalone, "gun": gun_and_places, "connected": connected, "pin": pin}
        for name, render in groups.items():
            if args.only in (None, name):
                render(run, out)
    finally:
        run.close()
        shutil.rmtree(work, ignore_errors=True)


def standalone(run, out):
    work = run.work
    db = os.path.join(work, "standalone.sqlite")
    inventory(run, db)
    lib = os.path.join(work, "libfakev4l2.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", lib, *glob.glob(os.path.join(FAKE, "*.c")), "-ldl", "-lpthread",
                    "-lturbojpeg"], check=True)
    make = [shutil.which("python3"), os.path.join(FAKE, "make_frame.py"), "--width", "1280", "--height", "720"]
    empty, tag = os.path.join(work, "empty.pgm"), os.path.join(work, "tag.pgm")
    subprocess.run([*make, "--out", empty], check=True)
    subprocess.run([*make, "--seed", "3", "--qr", "SG-0004", "--out", tag], check=True)
    playlist = os.path.join(work, "playlist.txt")
    with open(playlist, "w") as f:
        f.write(f"{empty} *240\n{tag} *100000\n")
    env = {"LD_PRELOAD": lib, "FAKEV4L2_FRAMES": playlist, "FAKEV4L2_FPS": "30", "FAKEV4L2_DEVICE": "/dev/video70",
           "FAKEV4L2_AT_END": "hold"}
    port = free_port()
    kiosk = run.background(db, "kiosk", "--port", str(port), "--device", "/dev/video70", "--user", "Priya", env=env)
    wait_port(port)
    url = f"http://127.0.0.1:{port}/"
    driver = browser()
    try:
        driver.get(url)
        time.sleep(1.5)
        shot(driver, out, "kiosk-start")
        fit(driver, 1024, 768)
        shot(driver, out, "kiosk-start-1024x768")
        fit(driver, 1280, 720)
        start = driver.execute_script("""
            const b = [...document.querySelectorAll('#screen-start button')].find(b => /start/i.test(b.textContent) && /SG/.test(b.closest('li,tr,div')?.textContent ?? ''));
            if (b) b.click(); return !!b""")
        assert start, "no start button for SG"
        # The start dialog: no location ticked, the whole country.
        time.sleep(1)
        driver.find_element(By.ID, "scope-start").click()
        for tag_ in ["SG-0001", "SG-0002", "SG-0003"]:
            type_tag(driver, tag_, "found_expected")
        # The camera shows SG-0004 after 8 s of empty frames.
        for _ in range(200):
            if any(o.get("identifier") == "SG-0004" for o in driver.execute_script("return window.kiosk.outcomes")):
                break
            time.sleep(0.1)
        time.sleep(0.3)
        shot(driver, out, "kiosk-scan-found")
        type_tag(driver, "SG-0002", "already_scanned")
        shot(driver, out, "kiosk-scan-already-scanned")
        type_tag(driver, "MY-0002", "unexpected")
        shot(driver, out, "kiosk-scan-unexpected")
        type_tag(driver, "NO-SUCH-TAG", "unknown")
        shot(driver, out, "kiosk-scan-unknown")
        type_tag(driver, "X" * 200, "rejected")
        shot(driver, out, "kiosk-scan-rejected")
        for size in [(1024, 768), (1920, 1080)]:
            fit(driver, *size)
            time.sleep(0.5)
            shot(driver, out, f"kiosk-scan-{size[0]}x{size[1]}")
        fit(driver, 1280, 720)
        driver.find_element(By.ID, "end-button").send_keys(Keys.ENTER)
        time.sleep(0.5)
        shot(driver, out, "kiosk-end-confirm")
        driver.find_element(By.ID, "confirm-yes").send_keys(Keys.ENTER)
        time.sleep(1)
        shot(driver, out, "kiosk-summary")
        fit(driver, 1024, 768)
        shot(driver, out, "kiosk-summary-1024x768")
    finally:
        driver.quit()
        run.stop(kiosk)
    # No camera: the device is missing.
    port = free_port()
    db2 = os.path.join(work, "nocamera.sqlite")
    inventory(run, db2)
    run.cli(db2, "audit", "start", "--country", "SG")
    kiosk = run.background(db2, "kiosk", "--port", str(port), "--device", "/dev/video-missing")
    wait_port(port)
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        time.sleep(1)
        # Nobody said who scans: the scanning screen asks.
        shot(driver, out, "kiosk-name-prompt")
        driver.find_element(By.ID, "user-dialog-name").send_keys("Priya")
        time.sleep(0.4)
        driver.find_element(By.ID, "user-dialog-save").click()
        time.sleep(0.5)
        type_tag(driver, "SG-0005", "found_expected")
        shot(driver, out, "kiosk-no-camera")
    finally:
        driver.quit()
        run.stop(kiosk)


def attach_photo(db, identifier, jpeg):
    """Attaches `jpeg` to the first scan of `identifier`, as a camera station keeps its frame."""
    with open(jpeg, "rb") as f:
        data = f.read()
    con = sqlite3.connect(db, timeout=10)
    try:
        row = con.execute("SELECT id, audit_id FROM scans WHERE identifier = ? ORDER BY id LIMIT 1", (identifier,)).fetchone()
        now = time.strftime("%Y-%m-%d %H:%M:%S.000", time.gmtime())
        con.execute("INSERT OR IGNORE INTO scan_photos (scan_row, audit_id, jpeg, bytes, taken_at, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (row[0], row[1], data, len(data), now, now))
        con.commit()
    finally:
        con.close()


def gun(driver, text):
    """A barcode gun's burst: the keys back-to-back to whatever has the focus."""
    driver.switch_to.active_element.send_keys(text + Keys.ENTER)


def gun_and_places(run, out):
    """A gun on the start screen, locations, misplaced, a problem stacked beside a FOUND, undo,
    the case hint and the lost-camera alarm (the emulated camera unplugged)."""
    work = run.work
    db = os.path.join(work, "places.sqlite")
    path = os.path.join(work, "places.csv")
    with open(path, "w") as f:
        f.write("asset_tag,serial_num,name,country,location\n")
        for i, name in enumerate(NAMES, 1):
            f.write(f"SG-{i:04d},SN{i:06d},{name},SG,{'Dock A' if i % 3 else 'Dock B'}\n")
        f.write("MY-0001,MYSN00001,Phone,MY,Shah Alam\n")
    run.cli(db, "assets", "import", path)
    lib = os.path.join(work, "libfakev4l2-places.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", lib, *glob.glob(os.path.join(FAKE, "*.c")), "-ldl", "-lpthread",
                    "-lturbojpeg"], check=True)
    empty = os.path.join(work, "empty-places.pgm")
    subprocess.run([shutil.which("python3"), os.path.join(FAKE, "make_frame.py"), "--width", "1280", "--height", "720",
                    "--out", empty], check=True)
    playlist = os.path.join(work, "playlist-places.txt")
    with open(playlist, "w") as f:
        f.write(f"{empty} *30\n")
    gone = os.path.join(work, "unplugged")
    env = {"LD_PRELOAD": lib, "FAKEV4L2_FRAMES": playlist, "FAKEV4L2_FPS": "15", "FAKEV4L2_DEVICE": "/dev/video71",
           "FAKEV4L2_AT_END": "loop", "FAKEV4L2_GONE_FILE": gone}
    port = free_port()
    kiosk = run.background(db, "kiosk", "--port", str(port), "--device", "/dev/video71", "--user", "Priya", env=env)
    wait_port(port)
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        time.sleep(1.5)
        gun(driver, "SG-0001")
        time.sleep(0.2)
        shot(driver, out, "kiosk-not-recorded")
        time.sleep(6)
        driver.execute_script("document.querySelector('button[data-country=\"SG\"]').click()")
        time.sleep(1)
        driver.find_element(By.CSS_SELECTOR, '#scope-choices input[value="Dock A"]').click()
        driver.find_element(By.CSS_SELECTOR, '#scope-choices input[value="Dock B"]').click()
        shot(driver, out, "kiosk-start-locations")
        driver.find_element(By.ID, "scope-start").click()
        time.sleep(1.5)
        type_tag(driver, "LOC:Dock A", "location")
        shot(driver, out, "kiosk-scan-location")
        type_tag(driver, "SG-0001", "found_expected")
        type_tag(driver, "SG-0003", "misplaced")
        shot(driver, out, "kiosk-scan-misplaced")
        fit(driver, 1024, 768)
        shot(driver, out, "kiosk-scan-places-1024x768")
        fit(driver, 1280, 720)
        type_tag(driver, "sg-0002", "unknown")
        shot(driver, out, "kiosk-scan-case-hint")
        gun(driver, "NO-SUCH-TAG")
        gun(driver, "SG-0004")
        time.sleep(0.3)
        shot(driver, out, "kiosk-scan-problem-stack")
        # The camera's frame of the unknown tag, kept as the scan loop keeps it.
        attach_photo(db, "NO-SUCH-TAG", os.path.join(ROOT, "SampleImages", "qrcode-15-photo.jpg"))
        # Last scans come from the audit's trail, which a restarted kiosk reads again.
        run.stop(kiosk)
        kiosk = run.background(db, "kiosk", "--port", str(port), "--device", "/dev/video71", "--user", "Priya", env=env)
        wait_port(port)
        driver.refresh()
        for _ in range(100):
            if driver.execute_script("return document.querySelectorAll('#recent .photo-mark').length") and \
                    driver.execute_script("return document.querySelectorAll('#unexpected-list .photo-mark').length"):
                break
            time.sleep(0.1)
        shot(driver, out, "kiosk-scan-photo")
        driver.find_element(By.CSS_SELECTOR, "#unexpected-list .photo-mark").click()
        time.sleep(0.5)
        shot(driver, out, "kiosk-photo")
        driver.find_element(By.ID, "photo-close").click()
        driver.find_element(By.ID, "undo-button").click()
        shot(driver, out, "kiosk-undo-confirm")
        driver.find_element(By.ID, "undo-yes").click()
        shot(driver, out, "kiosk-undone")
        open(gone, "w").close()
        for _ in range(200):
            if driver.find_element(By.ID, "camera-alarm").is_displayed():
                break
            time.sleep(0.1)
        shot(driver, out, "kiosk-camera-lost")
        os.remove(gone)
    finally:
        driver.quit()
        run.stop(kiosk)


def connected(run, out):
    work = run.work
    server_db = os.path.join(work, "server.sqlite")
    inventory(run, server_db)
    run.cli(server_db, "users", "create", "--email", "ann@example.com", "--name", "Ann", "--type", "ADMIN",
            "--password-stdin", stdin="kiosk-shots-pass\n")
    server_port = free_port()
    server = run.background(server_db, "serve", "--port", str(server_port))
    wait_port(server_port)
    db = os.path.join(work, "connected.sqlite")
    run.cli(db, "login", "--server", f"http://127.0.0.1:{server_port}", "--email", "ann@example.com", "--password-stdin",
            stdin="kiosk-shots-pass\n")
    run.cli(db, "audit", "start", "--country", "SG")
    port = free_port()
    kiosk = run.background(db, "kiosk", "--port", str(port), "--no-camera", "--user", "Priya")
    wait_port(port)
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        time.sleep(1)
        type_tag(driver, "SG-0001", "found_expected")
        run.stop(server)
        for tag_ in ["SG-0002", "SG-0003"]:
            type_tag(driver, tag_, "found_expected")
        for _ in range(150):
            offline = driver.find_element(By.ID, "connection").get_attribute("data-state") == "offline"
            if offline and "\u26A0" in driver.find_element(By.ID, "missing-note").text:
                break
            time.sleep(0.2)
        shot(driver, out, "kiosk-offline")
        # A tag outside the station's copy waits for the server's decision.
        type_tag(driver, "ZZ-404", "awaiting")
        shot(driver, out, "kiosk-pending")
    finally:
        driver.quit()
        run.stop(kiosk)


# What the kiosk answers a browser on another machine (the only one it asks a PIN of): its state
# is locked, and a PIN is checked. The pages are opened on loopback only, so the page gets these
# answers from this script, run before its own (as in the browser test of the PIN screen).
ANOTHER_MACHINE = """
(function () {
  var kioskFetch = window.fetch.bind(window);
  function answer(status, body) {
    return Promise.resolve(new Response(JSON.stringify(body), { status: status, headers: { 'Content-Type': 'application/json' } }));
  }
  window.fetch = function (input, init) {
    var url = String((input && input.url) || input);
    if (url.indexOf('/api/state') >= 0) return answer(200, { station: 'kiosk-7', pin_required: true });
    if (url.indexOf('/api/pin') >= 0) return answer(401, { error: 'WRONG_PIN', message: 'Wrong PIN' });
    return kioskFetch(input, init);
  };
})();
"""


def pin(run, out):
    db = os.path.join(run.work, "pin.sqlite")
    port = free_port()
    kiosk = run.background(db, "kiosk", "--port", str(port), "--no-camera")
    wait_port(port)
    driver = browser()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ANOTHER_MACHINE})
        driver.get(f"http://127.0.0.1:{port}/")
        time.sleep(1)
        shot(driver, out, "kiosk-pin")
        # A gun's burst on the PIN screen: refused aloud, never sent as a PIN.
        driver.switch_to.active_element.send_keys("SG-0042" + Keys.ENTER)
        time.sleep(0.3)
        shot(driver, out, "kiosk-pin-not-recorded")
    finally:
        driver.quit()
        run.stop(kiosk)

if __name__ == "__main__":
    main()
