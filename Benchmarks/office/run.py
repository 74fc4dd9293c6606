#!/usr/bin/env python3
"""Back office figures in headless Chromium, over `audit-station office` on one SQLite file.

    /usr/bin/python3 Benchmarks/office/run.py --station .build/debug/audit-station \
        [--assets 1000000] [--audits 1000] [--scans 20000] [--rounds 5]

The file holds --assets assets of SG over 50 locations, --audits - 1 ended audits (rows written
straight into the audits table, 200 a country over 5 countries, as a long-used station has them)
and one running audit of SG with all --assets expected and --scans scans (1% unknown tags),
recorded by `audit scan`.

For each screen, the time from the navigation's start (performance.timeOrigin) to the screen
drawn with its data (a MutationObserver installed before the page's own scripts, through CDP's
Page.addScriptToEvaluateOnNewDocument), over --rounds page loads: the audits list (its first
page of 50 and the chart), one audit (its numbers and the missing list's first page), that
audit's breakdown (the per-hour chart and the per-location table, which come after), and the
assets list. Then list search: the time from a
search form's submit to its table drawn with the match, over --rounds searches of the missing
list and of the assets. Prints p50 and max of each.
"""
import argparse
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

WATCH = """
window.__drawn = {};
document.addEventListener('DOMContentLoaded', function () {
  const checks = {
    audits: function () { return document.querySelectorAll('#audits-table tbody tr.link').length > 0 && document.querySelector('#missing-chart svg'); },
    audit: function () {
      return document.getElementById('n-total').textContent !== '\\u2013' && document.querySelectorAll('#list-table tbody tr').length > 1;
    },
    breakdown: function () { return document.querySelector('#hours-chart svg') && document.querySelectorAll('#by-location tbody tr').length > 1; },
    assets: function () { return document.querySelectorAll('#records-table tbody tr').length > 1; }
  };
  function look() {
    Object.keys(checks).forEach(function (k) { if (!window.__drawn[k] && checks[k]()) window.__drawn[k] = performance.now(); });
  }
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
});
"""

SEARCH = """
const done = arguments[arguments.length - 1];
const [form, table, text] = [arguments[0], arguments[1], arguments[2]];
const body = document.querySelector(table + ' tbody');
const t0 = performance.now();
const seen = new MutationObserver(function () {
  if (body.rows.length === 1 && body.textContent.indexOf(text) >= 0) { seen.disconnect(); done(performance.now() - t0); }
});
seen.observe(body, { childList: true, subtree: true });
document.getElementById(form).requestSubmit();
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stats(values):
    ordered = sorted(values)
    return f"p50 {ordered[len(ordered) // 2]:.0f} ms, max {ordered[-1]:.0f} ms (n={len(ordered)})"


def cli(station, db, *args, stdin=None):
    subprocess.run([station, "--database", db, *args], input=stdin, check=True, capture_output=True)


def build(station, work, assets, audits, scans):
    db = os.path.join(work, "station.sqlite")
    csv = os.path.join(work, "inventory.csv")
    with open(csv, "w") as f:
        f.write("asset_tag,serial_num,name,country,location\n")
        for i in range(1, assets + 1):
            f.write(f"SG-{i:07d},SN{i:08d},Laptop {i},SG,Dock {i % 50}\n")
    t = time.time()
    cli(station, db, "assets", "import", csv)
    print(f"import of {assets} assets: {time.time() - t:.1f} s")
    cli(station, db, "users", "create", "--email", "bench@example.com", "--name", "Bench", "--type", "ADMIN",
        "--password-stdin", stdin=b"bench-pass\n")
    with sqlite3.connect(db) as c:
        for n in range(audits - 1):
            country = ["SG", "MY", "TH", "VN", "ID"][n % 5]
            day = 1 + n // 5
            total = 1000 + n
            c.execute(
                "INSERT INTO audits (id, country, total_assets, scanned_count, unexpected_count, started_at, started_by, ended_at, ended_by)"
                " VALUES (?, ?, ?, ?, ?, datetime('2025-01-01', ?), 'bench', datetime('2025-01-01', ?, '+4 hours'), 'bench')",
                (str(uuid.uuid4()).upper(), country, total, total - n % 97, n % 13, f"+{day} days", f"+{day} days"))
    cli(station, db, "audit", "start", "--country", "SG")
    tags = "".join(f"SG-{i:07d}\n" if i % 100 else f"GHOST-{i}\n" for i in range(1, scans + 1))
    t = time.time()
    cli(station, db, "audit", "scan", stdin=tags.encode())
    print(f"{scans} scans through `audit scan`: {time.time() - t:.1f} s")
    return db


def browser():
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--window-size=1280,900", "--disable-gpu"]:
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    return d


def wait(d, script, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        value = d.execute_script(script)
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError(script)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--station", required=True)
    p.add_argument("--assets", type=int, default=1_000_000)
    p.add_argument("--audits", type=int, default=1000)
    p.add_argument("--scans", type=int, default=20_000)
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="office-bench-")
    server = None
    try:
        db = build(os.path.abspath(a.station), work, a.assets, a.audits, a.scans)
        port = free_port()
        log = open(os.path.join(work, "office.log"), "w")
        server = subprocess.Popen([os.path.abspath(a.station), "--database", db, "office", "--port", str(port)], stderr=log)
        base = f"http://127.0.0.1:{port}/"
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        d = browser()
        try:
            d.get(base)
            d.find_element(By.ID, "login-email").send_keys("bench@example.com")
            d.find_element(By.ID, "login-password").send_keys("bench-pass")
            d.find_element(By.ID, "login-submit").click()
            wait(d, "return window.__drawn.audits")
            running = wait(d, "const r = document.querySelector('#audits-table tbody tr.link'); return r && r.textContent.indexOf('running') >= 0")
            assert running
            d.find_element(By.CSS_SELECTOR, "#audits-table tbody tr.link").click()
            wait(d, "return window.__drawn.breakdown")
            audit_hash = d.execute_script("return location.hash")
            for screen, hash_ in [("audits", "#/audits"), ("audit", audit_hash), ("breakdown", audit_hash), ("assets", "#/assets")]:
                times = []
                for _ in range(a.rounds):
                    d.get(base + hash_)
                    d.refresh()
                    times.append(wait(d, f"return window.__drawn['{screen}']"))
                print(f"first paint, {screen}: {stats(times)}")
            d.set_script_timeout(60)
            for label, hash_, screen, name, offset in [
                    (f"the missing list ({a.assets} expected)", audit_hash, "audit", "list", 7),
                    (f"the assets ({a.assets})", "#/assets", "assets", "records", 3)]:
                d.get(base + hash_)
                d.refresh()
                wait(d, f"return window.__drawn['{screen}']")
                times = []
                for i in range(a.rounds):
                    tag = f"SG-{a.assets - 1000 * i - offset:07d}"
                    d.execute_script(f"document.getElementById('{name}-query').value = arguments[0]", tag)
                    times.append(d.execute_async_script(SEARCH, f"{name}-search", f"#{name}-table", tag))
                print(f"search of {label}: {stats(times)}")
        finally:
            d.quit()
    finally:
        if server:
            server.terminate()
            server.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
