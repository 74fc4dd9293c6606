#!/usr/bin/env python3
"""The quality table of `decode-benchmark quality` for the Python peers on the same samples:
zxing-cpp (PyPI, its defaults: try-harder, rotate, invert, downscale) and pyzbar (stock, all
symbologies). Cells: read right / misread / not found; the none row counts false positives.
Samples named *-fullascii are judged against the full ASCII text (zxing-cpp 3 expands it;
pyzbar cannot). UPC-A and UPC-E reported in their EAN-13 form count as right. Usage: peer_quality.py [SampleImages]"""
import collections
import os
import sys

import zxingcpp
from PIL import Image
from pyzbar import pyzbar

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "SampleImages")
def ean13_forms(truth, group):
    """The peers report UPC-A and UPC-E as EAN-13: the same number in that form counts as right."""
    if group == "upca":
        return {truth, "0" + truth}
    if group == "upce" and len(truth) == 8:
        d = truth[1:7]
        last = d[5]
        if last in "012":
            body = d[0] + d[1] + last + "0000" + d[2] + d[3] + d[4]
        elif last == "3":
            body = d[0] + d[1] + d[2] + "00000" + d[3] + d[4]
        elif last == "4":
            body = d[0] + d[1] + d[2] + d[3] + "00000" + d[4]
        else:
            body = d[0:5] + "0000" + last
        return {truth, "0" + truth[0] + body + truth[7]}
    return {truth}


tally = collections.defaultdict(lambda: collections.Counter())
images = collections.Counter()
for name in sorted(os.listdir(folder)):
    stem, ext = os.path.splitext(name)
    if ext not in (".png", ".jpg", ".pgm", ".ppm"):
        continue
    truth_path = os.path.join(folder, stem + ".txt")
    truth = open(truth_path, encoding="utf-8").read() if os.path.exists(truth_path) else None
    group = ("none" if truth is None else "frame") if stem.startswith("frame-") else stem.split("-")[0]
    image = Image.open(os.path.join(folder, name)).convert("L")
    zx = [r.text for r in zxingcpp.read_barcodes(image)]
    zb = [s.data.decode("utf-8", "replace") for s in pyzbar.decode(image)]
    for reader, texts in (("zxing-cpp-py", zx), ("pyzbar", zb)):
        if truth is None:
            verdict = "right" if not texts else "misread"
        elif any(t not in ean13_forms(truth, group) for t in texts):
            verdict = "misread"
        else:
            verdict = "right" if texts else "notfound"
        for key in (group, "all"):
            tally[(key, reader)][verdict] += 1
    for key in (group, "all"):
        images[key] += 1
print("symbology   images  zxing-cpp-py  pyzbar")
for group in sorted(images, key=lambda g: (g == "all", g)):
    cells = []
    for reader in ("zxing-cpp-py", "pyzbar"):
        c = tally[(group, reader)]
        cells.append(f"{c['right']}/{c['misread']}/{c['notfound']}".ljust(14))
    print(f"{group:<12}{images[group]:>6}  " + "".join(cells))
