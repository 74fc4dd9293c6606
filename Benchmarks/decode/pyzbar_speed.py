#!/usr/bin/env python3
"""Median ms per zbar scan of one PGM frame through pyzbar, printed as three numbers:
   1. "same": pyzbar's ctypes bindings with our zbar settings (symbologies, density, QR
      binary), one scanner reused, a zbar image per frame (as our decoder does), full frame;
   2. "same, reduced": the same, after averaging the frame down as our first pass does for
      frames wider than --max-width (Pillow's Image.reduce, timed too);
   3. "stock": pyzbar.decode(image, symbols=...) as a pyzbar user would call it (density 1).
Usage: pyzbar_speed.py FRAME.pgm --iterations N --density D --max-width W --symbologies qrcode,..."""
import argparse
import ctypes
import statistics
import time

from PIL import Image
from pyzbar import pyzbar
from pyzbar.wrapper import (ZBarConfig, ZBarSymbol, zbar_image_create, zbar_image_destroy,
                            zbar_image_scanner_create, zbar_image_scanner_destroy,
                            zbar_image_scanner_set_config, zbar_image_set_data,
                            zbar_image_set_format, zbar_image_set_size, zbar_scan_image)

NAMES = {"qrcode": ZBarSymbol.QRCODE, "code128": ZBarSymbol.CODE128, "code39": ZBarSymbol.CODE39,
         "code93": ZBarSymbol.CODE93, "ean13": ZBarSymbol.EAN13, "ean8": ZBarSymbol.EAN8,
         "upca": ZBarSymbol.UPCA, "upce": ZBarSymbol.UPCE, "i25": ZBarSymbol.I25,
         "codabar": ZBarSymbol.CODABAR, "databar": ZBarSymbol.DATABAR,
         "databar-exp": ZBarSymbol.DATABAR_EXP}
CFG_BINARY = 4  # ZBAR_CFG_BINARY; pyzbar's enum predates it
Y800 = 0x30303859


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    header = data.split(maxsplit=4)
    width, height = int(header[1]), int(header[2])
    return width, height, data[-width * height:]


def median_ms(body, iterations):
    body()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("frame")
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--density", type=int, default=1)
    parser.add_argument("--max-width", type=int, default=0)
    parser.add_argument("--symbologies", default="qrcode,code128,code39,ean13,ean8,upca,upce")
    args = parser.parse_args()
    width, height, pixels = read_pgm(args.frame)
    symbols = [NAMES[name] for name in args.symbologies.split(",")]

    scanner = zbar_image_scanner_create()
    zbar_image_scanner_set_config(scanner, ZBarSymbol.NONE, ZBarConfig.CFG_ENABLE, 0)
    for symbol in symbols:
        zbar_image_scanner_set_config(scanner, symbol, ZBarConfig.CFG_ENABLE, 1)
    zbar_image_scanner_set_config(scanner, ZBarSymbol.QRCODE, CFG_BINARY, 1)
    zbar_image_scanner_set_config(scanner, ZBarSymbol.NONE, ZBarConfig.CFG_X_DENSITY, args.density)
    zbar_image_scanner_set_config(scanner, ZBarSymbol.NONE, ZBarConfig.CFG_Y_DENSITY, args.density)
    buffer = ctypes.create_string_buffer(pixels, len(pixels))

    def scan(data, w, h):
        image = zbar_image_create()
        zbar_image_set_format(image, Y800)
        zbar_image_set_size(image, w, h)
        zbar_image_set_data(image, ctypes.cast(data, ctypes.c_void_p), w * h, None)
        zbar_scan_image(scanner, image)
        zbar_image_destroy(image)

    def same():
        scan(buffer, width, height)

    factor = -(-width // args.max_width) if args.max_width and width > args.max_width else 1

    def reduced():
        if factor == 1:
            return same()
        small = Image.frombytes("L", (width, height), pixels).reduce(factor)
        data = small.tobytes()
        scan(ctypes.create_string_buffer(data, len(data)), small.size[0], small.size[1])

    def stock():
        pyzbar.decode((pixels, width, height), symbols=symbols)

    same_ms = median_ms(same, args.iterations)
    reduced_ms = median_ms(reduced, args.iterations)
    stock_ms = median_ms(stock, args.iterations)
    zbar_image_scanner_destroy(scanner)
    print(f"{same_ms:.3f} {reduced_ms:.3f} {stock_ms:.3f}")


if __name__ == "__main__":
    main()
