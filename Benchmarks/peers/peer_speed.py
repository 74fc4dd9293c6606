#!/usr/bin/env python3
"""Median CPU ms (time.thread_time) per frame for the Python peers on PGM frames at full size, one core:
   pyzbar.decode (stock, all its symbologies on, as a pyzbar user calls it) and
   zxingcpp.read_barcodes (the PyPI binding of zxing-cpp, its defaults).
Prints one line per frame: NAME PYZBAR_MS ZXINGCPP_MS
Usage: peer_speed.py --iterations N FRAME.pgm..."""
import argparse
import os
import statistics
import time

import zxingcpp
from PIL import Image
from pyzbar import pyzbar


def median_ms(body, iterations):
    body()
    times = []
    for _ in range(iterations):
        start = time.thread_time()
        body()
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("frames", nargs="+")
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()
    for path in args.frames:
        image = Image.open(path).convert("L")
        raw = (image.tobytes(), image.size[0], image.size[1])
        zbar_ms = median_ms(lambda: pyzbar.decode(raw), args.iterations)
        zxing_ms = median_ms(lambda: zxingcpp.read_barcodes(image), args.iterations)
        print(f"{os.path.basename(path)} {zbar_ms:.3f} {zxing_ms:.3f}")


if __name__ == "__main__":
    main()
