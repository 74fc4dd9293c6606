#!/usr/bin/env python3
"""Writes 1280x720 frames holding one code at a given module size (pixels per module), for the
reading-distance figure of `decode-benchmark distance DIR`: a smaller module is a code further
from the camera. Names: SYMBOLOGY-mM.MM.png with the expected text in SYMBOLOGY-mM.MM.txt.
Usage: distance_frames.py DIR"""
import io
import os
import subprocess
import sys
import tempfile

import numpy as np
import segno
from PIL import Image

SIZES = [0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0]
SCALE = 10  # pixels per module of the sharp master


def master(symbology, text):
    if symbology == "qrcode":
        buffer = io.BytesIO()
        segno.make_qr(text, error="m").save(buffer, kind="png", scale=SCALE, border=4)
        return Image.open(io.BytesIO(buffer.getvalue())).convert("L")
    barcode = {"code128": "CODE128", "datamatrix": "DATAMATRIX"}[symbology]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "z.png")
        extra = ["--height", "25"] if symbology == "code128" else []
        subprocess.run(["zint", "-b", barcode, "--scale", str(SCALE / 2), "--whitesp", "10", "--vwhitesp", "10",
                        *extra, "-d", text, "-o", path], check=True, capture_output=True)
        rgba = Image.open(path).convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("L")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(720)
    for symbology, text in (("qrcode", "AST-000123"), ("code128", "AST-000456"), ("datamatrix", "AST-000789")):
        sharp = master(symbology, text)
        for size in SIZES:
            factor = size / SCALE
            code = sharp.resize((max(1, round(sharp.size[0] * factor)), max(1, round(sharp.size[1] * factor))), Image.BOX)
            frame = Image.fromarray(rng.normal(140, 6, (720, 1280)).clip(0, 255).astype(np.uint8))
            frame.paste(code, ((1280 - code.size[0]) // 2, (720 - code.size[1]) // 2))
            name = f"{symbology}-m{size:.2f}"
            frame.save(os.path.join(out, name + ".png"))
            with open(os.path.join(out, name + ".txt"), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
