#!/usr/bin/env python3
"""Draws one camera frame (binary PGM) holding the given codes side by side.

    make_frame.py --width 640 --height 480 --out scene.pgm --qr TAG-1 --ean13 4006381333931 --datamatrix DM-1

Codes are laid out left to right in equal slots on a light background, with a little
sensor-like noise so consecutive frames are not byte-identical. Needs segno,
python-barcode, Pillow and zint for Data Matrix (scripts/setup.sh installs them).
"""
import argparse
import io
import os
import random
import subprocess
import tempfile

import barcode
import segno
from barcode.writer import ImageWriter
from PIL import Image


def render(kind, text, slot_w, slot_h):
    if kind == "qr":
        buf = io.BytesIO()
        segno.make_qr(text, error="m").save(buf, kind="png", scale=1, border=4)
        img = Image.open(io.BytesIO(buf.getvalue())).convert("L")
        scale = max(1, min(slot_w, slot_h) * 7 // 10 // img.width)
        return img.resize((img.width * scale, img.height * scale), Image.NEAREST)
    if kind == "datamatrix":
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "dm.png")
            subprocess.run(["zint", "-b", "DATAMATRIX", "--scale", "1", "-d", text, "-o", path],
                           check=True, capture_output=True)
            rgba = Image.open(path).convert("RGBA")
            img = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("L")
        scale = max(1, min(slot_w, slot_h) * 4 // 10 // img.width)
        return img.resize((img.width * scale, img.height * scale), Image.NEAREST)
    name = {"ean13": "ean13", "code128": "code128"}[kind]
    writer = ImageWriter()
    img = barcode.get(name, text, writer=writer).render(
        {"module_width": 0.2, "module_height": 12.0, "quiet_zone": 2.0, "font_size": 0, "dpi": 254}
    ).convert("L")
    if img.width > slot_w:
        img = img.resize((slot_w, img.height * slot_w // img.width), Image.NEAREST)
    return img


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    for kind in ("qr", "ean13", "code128", "datamatrix"):
        parser.add_argument("--" + kind, action="append", default=[])
    args = parser.parse_args()

    codes = [("qr", t) for t in args.qr] + [("ean13", t) for t in args.ean13] + [("code128", t) for t in args.code128] \
        + [("datamatrix", t) for t in args.datamatrix]
    frame = Image.new("L", (args.width, args.height), 225)
    if codes:
        slot_w = args.width // len(codes)
        for i, (kind, text) in enumerate(codes):
            img = render(kind, text, slot_w - 16, args.height - 16)
            frame.paste(img, (i * slot_w + (slot_w - img.width) // 2, (args.height - img.height) // 2))
    rng = random.Random(args.seed)
    data = bytearray(frame.tobytes())
    for i in range(0, len(data), 7):
        data[i] = max(0, min(255, data[i] + rng.randint(-6, 6)))
    with open(args.out, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (args.width, args.height))
        f.write(bytes(data))


if __name__ == "__main__":
    main()
