#!/usr/bin/env python3
"""Memory of a server whose report downloads stall: N clients ask for an audit's report and
never read it. Start a server first (see docs/FIGURES.md, "Stalled report downloads"):

    audit-station --database big.sqlite serve --port 8182
    python3 Benchmarks/stalled/stalled_downloads.py 12 json

It logs in as boss@example.com (password secret-pass), takes SG's running audit, and prints the
server's RSS before, its peak over 60 s of stalled downloads, and after the clients close, with
the spool files (/tmp/audit-answer-*) left.
"""
import json, socket, time, urllib.request, os, subprocess, sys
base = "http://127.0.0.1:8182"
def login(email):
    r = urllib.request.Request(base + "/api/v1/auth/login", data=json.dumps({"email": email, "password": "secret-pass", "device_name": "probe"}).encode(), headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(r))["data"]["token"]
token = login("boss@example.com")
audit = json.load(urllib.request.urlopen(urllib.request.Request(base + "/api/v1/audit/status?country=SG", headers={"Authorization": "Bearer " + token})))["data"]["audit"]["id"]
pid = int(subprocess.check_output(["pgrep", "-f", "serve --port 8182"]).split()[0])
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
def tmpfiles():
    return len([f for f in os.listdir("/tmp") if f.startswith("audit-answer-")])
n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
fmt = sys.argv[2] if len(sys.argv) > 2 else "json"
print(f"server RSS before: {rss()} MiB")
socks = []
for i in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", 8182))
    s.sendall(f"GET /api/v1/audit/{audit}/report?format={fmt} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    socks.append(s)
peak = 0
for t in range(60):
    time.sleep(1)
    peak = max(peak, rss())
print(f"{n} stalled {fmt} downloads of a 100,000-asset report, never read: server RSS peak {peak} MiB over 60 s; spool files {tmpfiles()}")
for s in socks: s.close()
time.sleep(5)
print(f"after the clients closed: RSS {rss()} MiB, spool files {tmpfiles()}")
