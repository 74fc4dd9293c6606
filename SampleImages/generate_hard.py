#!/usr/bin/env python3
"""Generates the hard samples: text that is easy to get wrong (Kanji QR, full ASCII Code 39,
Code 128 with FNC4, GS1), Data Matrix (plain, tiny, GS1), photos with glare, blur, perspective
and a curved surface, and more images with no code (shelves, text, noise) for false positives;
and hard retail photos of EAN-13, EAN-8, UPC-A and UPC-E (`retail`: curved, blurred, skewed and
dim, rendered from known digits; `python3 SampleImages/generate_hard.py retail` writes only those).

Deterministic: fixed seeds, fixed tools (segno, zint, Pillow, numpy). Each image with a code has
its exact text in a .txt beside it, as generate.py writes them. Names ending in -fullascii are
read with decoder.code39FullASCII on (see Tests/ScanningTests and Benchmarks/decode).
Run from anywhere:  python3 SampleImages/generate_hard.py
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402


def zint_raw(barcode, data, scale=2.0, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "z.png")
        subprocess.run(["zint", "-b", barcode, "--scale", str(scale), "--whitesp", "10", "--vwhitesp", "10",
                        *extra, "-d", data, "-o", path], check=True, capture_output=True)
        return g.on_white(Image.open(path))


def glare(img, seed):
    """A bright specular spot over part of the code, as on a glossy label under a lamp."""
    rng = np.random.default_rng(seed)
    h, w = img.size[1], img.size[0]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    r = 0.18 * min(w, h)
    spot = np.exp(-(((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r)))
    a = np.asarray(img, dtype=np.float32)
    a = a + spot * (255 - a) * 0.75
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def curved(img, depth=0.12):
    """The label wrapped round a cylinder (a bottle, a pipe): columns squeezed towards the edges."""
    a = np.asarray(img, dtype=np.uint8)
    h, w = a.shape
    u = np.linspace(-1, 1, w)
    # x on the label seen from the front at angle asin(u) of a cylinder
    src = (np.arcsin(u * np.sin(1.2)) / 1.2 + 1) / 2 * (w - 1)
    cols = np.clip(src.round().astype(int), 0, w - 1)
    out = a[:, cols].astype(np.float32)
    shade = 1 - depth * (u ** 2)
    return Image.fromarray(np.clip(out * shade[None, :], 0, 255).astype(np.uint8))


def shelf(seed, w=800, h=600):
    """A shelf of boxes with printed words and edges, no code."""
    rng = np.random.default_rng(seed)
    img = g.background(w, h, seed, base=170)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    for row in range(3):
        y0 = 40 + row * 190
        draw.rectangle([0, y0 + 150, w, y0 + 160], fill=60)
        x = 10
        while x < w - 60:
            bw = int(rng.integers(60, 170))
            bh = int(rng.integers(70, 150))
            draw.rectangle([x, y0 + 150 - bh, x + bw, y0 + 150], fill=int(rng.integers(120, 230)), outline=30, width=2)
            draw.text((x + 6, y0 + 150 - bh + 8), "BOX %d" % int(rng.integers(100, 999)), fill=20, font=font)
            x += bw + int(rng.integers(4, 20))
    return g.jpeg_roundtrip(g.blur(img, 0.7), 85)


def dim(img, seed, light):
    """Low light: the scene at `light` of its brightness, the sensor's gain noise on top, JPEG again."""
    rng = np.random.default_rng(seed)
    a = np.asarray(img, dtype=np.float32) * light + 6
    a = a + rng.normal(0, 3 + 8 * light, a.shape)
    return g.jpeg_roundtrip(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), int(rng.integers(40, 70)))


def package(base, seed):
    """The code on a product's printed panel: a white patch on a grey box face with product text."""
    rng = np.random.default_rng(seed)
    w, hgt = base.size[0] + 120, base.size[1] + 90
    panel = Image.new("L", (w, hgt), int(rng.integers(90, 200)))
    draw = ImageDraw.Draw(panel)
    font = ImageFont.load_default()
    for line in range(3):
        draw.text((8, 6 + 12 * line), "NET WT %d g  INGREDIENTS %d" % (int(rng.integers(100, 999)), line), fill=int(rng.integers(0, 60)),
                  font=font)
    x, y = int(rng.integers(20, 100)), int(rng.integers(45, 80))
    panel.paste(g.pad(base, 6), (x - 6, y - 6))
    return panel


def retail_photo(sym, digits, seed, kind):
    """A retail product's code photographed the way a hand-held camera sees it in a shop: a code of
    1.3–2.6 px a module on a package, then `kind`: round a can (curved), out of focus or moved
    (blurred), turned away and rotated (skewed), or in low light (dim); always some blur, noise and
    JPEG on top."""
    import generate_photos as p  # it imports this file: only here, not at the top

    rng = np.random.default_rng(seed)
    base = p.scaled(g.zint(sym, digits, scale=0.5, height=int(rng.integers(25, 40))), float(rng.uniform(1.3, 2.6)))
    label = package(base, seed)
    if kind == "curved":
        label = p.cylinder(label, turn=float(rng.uniform(1.1, 1.45)), depth=float(rng.uniform(0.15, 0.35)))
    elif kind == "blurred":
        if rng.uniform() < 0.5:
            label = p.defocus(label, float(rng.uniform(1.2, 2.4)))
        else:
            label = p.motion_blur(label, float(rng.uniform(3, 6)), float(rng.uniform(-20, 20)))
    elif kind == "skewed":
        label = g.rotate(p.turned(label, float(rng.uniform(25, 50)), float(rng.uniform(-12, 12))), float(rng.uniform(-25, 25)))
    scene = p.on_desk(label, seed, blur_radius=float(rng.uniform(0.4, 1.0)), sigma=float(rng.uniform(3, 8)),
                      quality=int(rng.integers(35, 75)), margin=(int(rng.integers(80, 400)), int(rng.integers(60, 240))))
    if kind == "dim":
        scene = dim(scene, seed, float(rng.uniform(0.12, 0.3)))
    return scene


def upce_valid(six):
    """Whether six UPC-E digits stand for a UPC-A number (zint refuses the others)."""
    last = six[5]
    return last in "012" or (last == "3" and six[2] in "3456789") or (last == "4" and six[3] != "0") or (last > "4" and six[4] != "0")


def retail_digits(sym, seed):
    """Random digits for the symbology (zint adds the check digit) and the text a decoder reports."""
    rng = np.random.default_rng(seed)
    count = {"ean13": 12, "ean8": 7, "upca": 11, "upce": 7}[sym]
    while True:
        digits = "".join(str(int(d)) for d in rng.integers(0, 10, count))
        if sym in ("upca", "upce"):
            digits = "0" + digits[1:]
        # An EAN-13 that starts with 0 is a UPC-A, and decoders rightly report it so.
        if (sym != "upce" or upce_valid(digits[1:])) and (sym != "ean13" or digits[0] != "0"):
            break
    return digits, (g.upce_expected(digits) if sym == "upce" else digits + g.gs1_check(digits))


# The hard retail photos kept as samples: per symbology, (kind, seed). Out of 30 seeds of each
# symbology and kind (5000–5029), the first that zxing-cpp 3.1 or zbarimg reads right, and the one
# that zxing-cpp 3.1 misreads (upca curved 5026: a UPC-A read as 0066042562074), and the one we
# misread before (upce curved 5020: zbar read 05402885 in two views).
RETAIL = {
    "ean13": [("curved", 5001), ("blurred", 5002), ("skewed", 5001), ("dim", 5001)],
    "ean8": [("curved", 5001), ("blurred", 5002), ("skewed", 5002), ("dim", 5001)],
    "upca": [("curved", 5001), ("blurred", 5001), ("skewed", 5001), ("dim", 5001), ("curved", 5026)],
    "upce": [("curved", 5001), ("blurred", 5001), ("skewed", 5001), ("dim", 5001), ("curved", 5020)],
}


def retail():
    for sym, cases in RETAIL.items():
        for number, (kind, seed) in enumerate(cases, 81):
            digits, text = retail_digits(sym, seed)
            g.save(f"{sym}-{number}-retail-{kind}", retail_photo(sym, digits, seed, kind), text, "jpg", quality=90)


def main():
    kanji = "資産番号テスト"
    g.save("qrcode-44-kanji", g.pad(g.qr_segno(kanji, scale=4, encoding="shift_jis")), kanji)
    g.save("qrcode-45-kanji-photo", g.photo(g.qr_segno(kanji, scale=5, encoding="shift_jis"), 41), kanji, "jpg")
    utf8 = "Größe Ø-12 café"
    g.save("qrcode-46-utf8-eci", g.pad(g.qr_segno(utf8, scale=4, encoding="utf-8", eci=True)), utf8)
    latin = "Größe-7 café"
    g.save("qrcode-47-latin1", g.pad(g.qr_segno(latin, scale=4, encoding="iso-8859-1")), latin)

    full = "Tag-a1+b/x"
    base = zint_raw("EXCODE39", full, scale=2)
    g.save("code39-40-fullascii", g.pad(base), full)
    g.save("code39-41-photo-fullascii", g.photo(base, 43), full, "jpg")

    fnc4 = "Größe-Ä1"
    base = zint_raw("CODE128", fnc4, scale=2)
    g.save("code128-40-fnc4", g.pad(base), fnc4)
    g.save("code128-41-fnc4-photo", g.photo(base, 44), fnc4, "jpg")
    gs1 = "(01)09501101530003(10)AB12(17)251231"
    g.save("code128-42-gs1", g.pad(zint_raw("GS1_128", "[01]09501101530003[10]AB12[17]251231", scale=2)), gs1)

    plain = "AST-000789"
    dm = zint_raw("DATAMATRIX", plain, scale=4)
    g.save("datamatrix-01-clean", g.pad(dm), plain)
    g.save("datamatrix-02-rot30", g.rotate(g.pad(dm), 30), plain)
    g.save("datamatrix-03-blur", g.blur(g.pad(dm), 1.2), plain)
    g.save("datamatrix-04-photo", g.photo(dm, 45), plain, "jpg")
    g.save("datamatrix-05-inverted", g.invert(g.pad(dm)), plain)
    g.save("datamatrix-06-tiny", g.pad(zint_raw("DATAMATRIX", "A1", scale=1)), "A1")
    g.save("datamatrix-07-gs1", g.pad(zint_raw("DATAMATRIX", "[01]09501101530003[10]AB12[17]251231",
                                               scale=3, extra=("--gs1",))), gs1)
    g.save("datamatrix-08-glare", glare(g.pad(dm), 46), plain)
    g.save("datamatrix-09-perspective", g.perspective(g.pad(dm, 40), 0.12, 47), plain)
    g.save("datamatrix-10-curved", curved(g.pad(dm, 30)), plain)

    # Degraded photos of the other symbologies.
    cases = (("qrcode", g.qr_segno("AST-000123", scale=4), "AST-000123"),
             ("code128", g.zint("code128", "AST-000456", scale=2, height=50), "AST-000456"),
             ("code39", g.zint("code39", "TAG-7781", scale=2, height=50), "TAG-7781"),
             ("ean13", g.zint("ean13", "590123412345", scale=2, height=50), "5901234123457"),
             ("ean8", g.zint("ean8", "9638507", scale=2, height=50), "96385074"),
             ("upca", g.zint("upca", "03600029145", scale=2, height=50), "036000291452"),
             ("upce", g.zint("upce", "0123456", scale=2, height=50), g.upce_expected("0123456")))
    for number, (sym, base, text) in enumerate(cases):
        n = 50
        seed = 1000 + 10 * number
        g.save(f"{sym}-{n}-glare", glare(g.pad(base), seed), text)
        g.save(f"{sym}-{n + 1}-blur-photo", g.photo(base, seed + 1, blur_radius=1.6), text, "jpg")
        g.save(f"{sym}-{n + 2}-perspective", g.perspective(g.pad(base, 40), 0.12, seed + 2), text)
        g.save(f"{sym}-{n + 3}-curved", curved(g.pad(base, 30)), text)
        small = g.resize(base, 0.5)
        g.save(f"{sym}-{n + 4}-small-blur-noise", g.noise(g.blur(g.pad(small), 0.9), 12, seed + 4), text)
        g.save(f"{sym}-{n + 5}-blur-strong", g.blur(g.pad(base), 2.0), text)
        g.save(f"{sym}-{n + 6}-tilt60", g.blur(g.rotate(g.pad(base), 60), 0.8), text)
        g.save(f"{sym}-{n + 7}-dim-noise", g.noise(g.contrast(g.pad(base), 90, 160), 25, seed + 7), text)

    for index, seed in enumerate((11, 12, 13), 20):
        g.save(f"none-{index}-shelf", shelf(seed), fmt="jpg")
    g.save("none-23-noise-dense", g.noise(Image.new("L", (640, 480), 128), 70, 23))
    page = Image.new("L", (640, 480), 255)
    draw = ImageDraw.Draw(page)
    for line in range(22):
        draw.text((10, 8 + line * 21), "|||| IIII llll 1111 ' Inventory 2026 line %02d ||| || |" % line, fill=0,
                  font=ImageFont.load_default())
    g.save("none-24-text-bars", page)
    retail()
    print(f"{len(g.written)} images")


if __name__ == "__main__":
    if sys.argv[1:] == ["retail"]:
        retail()
        print(f"{len(g.written)} images")
    else:
        main()
