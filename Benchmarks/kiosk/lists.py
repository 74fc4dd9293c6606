#!/usr/bin/env python3
"""Kiosk figures for a barcode gun and long lists, in headless Chromium.

    /usr/bin/python3 Benchmarks/kiosk/lists.py --station .build/debug/audit-station [--rounds 20] [--assets 100000]

1. Bursts: 20 tags and Enter each sent back-to-back to the entry field in one WebDriver call,
   as a keyboard-wedge gun types them, --rounds times. For each round: whether the page showed
   all 20 outcomes in the order typed, and the time from the last Enter's keydown (the event's
   own timeStamp) to the moment the page put the last outcome in its DOM
   (window.kiosk.outcomes). Prints p50, p99 and max.
2. Lists: an audit of --assets assets (all missing). The time from the navigation start to the
   missing list's first page being drawn ("Rows 1–50 of 100,000"), over 5 page loads; and the
   time from a search's input event (a tag typed into the search box at once) to the list
   drawn with its matches, over 10 searches. Both read in the page (performance.now() and a
   MutationObserver on the list's range line). Prints p50 and max.
"""
import argparse
import os
import shutil
import socket
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def browser():
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--window-size=1280,720", "--disable-gpu"]:
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


class Kiosk:
    def __init__(self, station, work, assets):
        self.station, self.work = station, work
        self.db = os.path.join(work, "station.sqlite")
        csv = os.path.join(work, "inventory.csv")
        with open(csv, "w") as f:
            f.write("asset_tag,serial_num,name,country,location\n")
            for i in range(1, assets + 1):
                f.write(f"SG-{i:06d},SN{i:08d},Item {i},SG,Dock {'ABCDEFGH'[i % 8]}\n")
        self.cli("assets", "import", csv)
        self.cli("audit", "start", "--country", "SG")
        self.port = free_port()
        self.log = open(os.path.join(work, "kiosk.log"), "w")
        self.proc = subprocess.Popen([station, "--database", self.db, "kiosk", "--port", str(self.port), "--no-camera", "--user", "Bench"],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the kiosk did not start")

    def cli(self, *args):
        subprocess.run([self.station, "--database", self.db, *args], check=True, capture_output=True)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=20)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/"


def wait(driver, script, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script(script):
            return
        time.sleep(0.02)
    raise SystemExit(f"timed out: {script}")


def bursts(driver, rounds):
    driver.execute_script("""
        window.kiosk.enters = [];
        document.getElementById('entry').addEventListener('keydown', function (e) {
          if (e.key === 'Enter') window.kiosk.enters.push(performance.timeOrigin + e.timeStamp);
        }, true);""")
    latencies, in_order = [], 0
    for r in range(rounds):
        tags = [f"SG-{(r * 20 + i + 1):06d}" for i in range(20)]
        before = driver.execute_script("return window.kiosk.outcomes.length")
        enters = driver.execute_script("return window.kiosk.enters.length")
        driver.find_element("id", "entry").send_keys("".join(t + "\ue007" for t in tags))
        wait(driver, f"return window.kiosk.outcomes.length >= {before + 20}")
        shown = driver.execute_script(f"return window.kiosk.outcomes.slice({before})")
        last_enter = driver.execute_script(f"return window.kiosk.enters[{enters + 19}]")
        if [o["identifier"] for o in shown[:20]] == tags:
            in_order += 1
        latencies.append(shown[19]["at"] - last_enter)
        time.sleep(0.5)
    return latencies, in_order


def searches(driver, count):
    times = []
    for i in range(count):
        needle = f"SG-{(i * 7919 % 90000) + 1000:06d}"[:8]
        driver.execute_script("""
            const box = document.getElementById('missing-search');
            box.value = ''; box.dispatchEvent(new Event('input'));""")
        wait(driver, "return !/matching/.test(document.getElementById('missing-total').textContent)", 30)
        time.sleep(0.4)
        took = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const box = document.getElementById('missing-search'), needle = arguments[0];
            const watch = document.getElementById('missing-range');
            const t0 = performance.now();
            const seen = new MutationObserver(function () {
              if (/matching/.test(document.getElementById('missing-total').textContent)) { seen.disconnect(); done(performance.now() - t0); }
            });
            seen.observe(watch, { childList: true, characterData: true, subtree: true });
            seen.observe(document.getElementById('missing-total'), { childList: true, characterData: true, subtree: true });
            box.value = needle; box.dispatchEvent(new Event('input'));""", needle)
        times.append(took)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--station", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--assets", type=int, default=100000)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="kiosk-lists-")
    kiosk = Kiosk(os.path.abspath(args.station), work, args.assets)
    driver = browser()
    driver.set_script_timeout(60)
    try:
        driver.get(kiosk.url)
        wait(driver, "return document.body.dataset.screen === 'scan'")
        # When the first page of the missing list is drawn, measured in the page.
        opens = []
        for _ in range(5):
            driver.get(kiosk.url)
            t = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const range = () => document.getElementById('missing-range');
                const check = () => /^Rows 1/.test((range() && range().textContent) || '');
                if (check()) { done(performance.now()); return; }
                const seen = new MutationObserver(function () { if (check()) { seen.disconnect(); done(performance.now()); } });
                seen.observe(document.body, { childList: true, characterData: true, subtree: true });""")
            opens.append(t)
        searched = searches(driver, 10)
        driver.get(kiosk.url)
        wait(driver, "return document.activeElement && document.activeElement.id === 'entry'")
        latencies, in_order = bursts(driver, args.rounds)
    finally:
        driver.quit()
        kiosk.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"missing list of {args.assets:,} opens (navigation start to first page drawn): "
          f"p50 {percentile(opens, 50):.0f} ms, max {max(opens):.0f} ms over {len(opens)} loads")
    print(f"search settles (input event to matches drawn): p50 {percentile(searched, 50):.0f} ms, "
          f"max {max(searched):.0f} ms over {len(searched)} searches")
    print(f"20-tag bursts: {in_order} of {len(latencies)} shown all 20 in order; last Enter to last outcome "
          f"p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f} ms, max {max(latencies):.0f} ms")


if __name__ == "__main__":
    main()
