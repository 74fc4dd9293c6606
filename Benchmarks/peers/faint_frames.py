#!/usr/bin/env python3
"""Writes 1280x720 frames holding one faint code (a label printed with little contrast,
slightly out of focus, with sensor noise), for `decode-benchmark distance DIR`, which prints
which decoder columns read each. Names: SYMBOLOGY-cCONTRASTbBLUR-mCONTRAST.png with the
expected text beside it. Usage: faint_frames.py DIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "SampleImages"))
import generate as g  # noqa: E402
from PIL import Image  # noqa: E402


def frame(folder, code, name, text, dark, light, blur):
    scene = Image.new("L", (1280, 720), 140)
    label = g.contrast(g.pad(code, 30), dark, light)
    scene.paste(label, ((1280 - label.size[0]) // 2, (720 - label.size[1]) // 2))
    scene = g.noise(g.blur(scene, blur), 4, 7)
    scene.save(os.path.join(folder, f"{name}.png"))
    with open(os.path.join(folder, f"{name}.txt"), "w") as f:
        f.write(text)


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for dark, light in ((125, 150), (120, 150), (110, 150)):
        for blur in (0.8, 1.5):
            tag = f"c{light - dark}b{blur}-m{light - dark}"
            frame(folder, g.zint("ean13", "400638133393", scale=1.5, height=50), f"ean13-{tag}", "4006381333931", dark, light, blur)
            frame(folder, g.zint("code128", "AST-000456", scale=1.0, height=50), f"code128-{tag}", "AST-000456", dark, light, blur)
            frame(folder, g.qr_segno("AST-000123", scale=3), f"qrcode-{tag}", "AST-000123", dark, light, blur)


if __name__ == "__main__":
    main()
