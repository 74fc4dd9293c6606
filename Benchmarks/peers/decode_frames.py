#!/usr/bin/env python3
"""zxing-cpp (PyPI, its defaults) on the frames that `server-benchmark decode --frames-out DIR`
wrote: every SampleImages image scaled to at most 1280 px wide and sent as JPEG (quality 80),
as the phone page sends frames to POST /api/v1/decode. Counted as the benchmark counts ours:
right (every text of the .txt read), wrong (a text read that the .txt does not hold), missed;
none-* frames (no .txt) count only when something is read (wrong).
Usage: decode_frames.py DIR"""
import os
import sys

import zxingcpp
from PIL import Image

folder = sys.argv[1]
right = wrong = missed = total = 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".jpg"):
        continue
    stem = name[:-4]
    truth_path = os.path.join(folder, stem + ".txt")
    truth = set(open(truth_path).read().split("\n")) if os.path.exists(truth_path) else set()
    texts = {r.text for r in zxingcpp.read_barcodes(Image.open(os.path.join(folder, name)))}
    total += 1
    if not texts <= truth:
        wrong += 1
    elif truth and truth <= texts:
        right += 1
    elif truth:
        missed += 1
print(f"zxing-cpp {getattr(zxingcpp, '__version__', '?')}: {right} right, {wrong} with a wrong text, {missed} missed, of {total} frames")
