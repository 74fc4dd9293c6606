#!/usr/bin/env python3
"""The quality table of `decode-benchmark quality` for the Python peers on the same samples:
zxing-cpp (PyPI, its defaults: try-harder, rotate, invert, downscale) and pyzbar (stock, all
symbologies). Cells: read right / misread / not found; the none row counts false positives.
Samples named *-fullascii are judged against the full ASCII text (zxing-cpp 3 expands it;
pyzbar cannot). UPC-A and UPC-E reported in their EAN-13 form count as right. A multi-* image
holds several codes (one text a line in its .txt) and is right only when all are reported.
Usage: peer_quality.py [--classes] [SampleImages]   (--classes: rows by kind of damage, as
decode-benchmark quality --classes)"""
import collections
import os
import sys

import zxingcpp
from PIL import Image
from pyzbar import pyzbar

by_class = "--classes" in sys.argv
positional = [a for a in sys.argv[1:] if not a.startswith("--")]
folder = positional[0] if positional else os.path.join(os.path.dirname(__file__), "..", "..", "SampleImages")


def damage_class(stem):
    parts = stem.split("-")
    if len(parts) > 2 and parts[1].isdigit() and not stem.startswith("multi-"):
        return "-".join(parts[2:])
    return parts[0]


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
    truths = None if truth is None else (truth.split("\n") if stem.startswith("multi-") else [truth])
    group = ("none" if truth is None else "frame") if stem.startswith("frame-") else stem.split("-")[0]
    forms = set() if truth is None else set().union(*(ean13_forms(t, group) for t in truths))
    if by_class:
        group = damage_class(stem)
    image = Image.open(os.path.join(folder, name)).convert("L")
    # GS1 as printed, (01)…, from its default text mode; any other text as it is (that mode
    # escapes control characters as <NUL>, <ESC>, …)
    hri, plain = zxingcpp.read_barcodes(image), zxingcpp.read_barcodes(image, text_mode=zxingcpp.TextMode.Plain)
    zx = [h.text if h.content_type == zxingcpp.ContentType.GS1 else p.text for h, p in zip(hri, plain)]
    zb = [s.data.decode("utf-8", "replace") for s in pyzbar.decode(image)]
    for reader, texts in (("zxing-cpp-py", zx), ("pyzbar", zb)):
        if truth is None:
            verdict = "right" if not texts else "misread"
        elif any(t not in forms for t in texts):
            verdict = "misread"
        else:
            found = all(any(t in ean13_forms(want, stem.split("-")[0]) for t in texts) for want in truths)
            verdict = "right" if found else "notfound"
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
