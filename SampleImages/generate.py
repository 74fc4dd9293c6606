#!/usr/bin/env python3
"""Generates the barcode sample images in this folder. Deterministic: fixed seeds, fixed tools.

Every image with a code has a .txt beside it holding the exact expected text (no newline).
Names are SYMBOLOGY-NN-VARIANT.EXT, where SYMBOLOGY is the decoder's raw name (qrcode,
code128, ...); images named none-* hold no code. frame-* are camera-sized scenes used by the
speed benchmark (Benchmarks/decode).

Tools: segno and qrencode (QR), zint (linear codes), Pillow and numpy (distortions).
Run from anywhere:  python3 SampleImages/generate.py
"""
import io
import os
import subprocess
import tempfile

import numpy as np
import segno
from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
WHITE = 255


# ---------------------------------------------------------------- base images
def qr_segno(text, scale=4, border=4, encoding=None, eci=False, error="m"):
    code = segno.make_qr(text, error=error, encoding=encoding, eci=eci)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=border)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


def qr_qrencode(text, scale=4):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "q.png")
        subprocess.run(["qrencode", "-s", str(scale), "-m", "4", "-o", path, text], check=True)
        return on_white(Image.open(path))


ZINT_TYPES = {"code128": "CODE128", "code39": "CODE39", "ean13": "EANX", "ean8": "EANX",
              "upca": "UPCA", "upce": "UPCE"}


def zint(symbology, data, scale=1.0, height=40):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "z.png")
        subprocess.run(["zint", "-b", ZINT_TYPES[symbology], "--scale", str(scale), "--height",
                        str(height), "--whitesp", "10", "-d", data, "-o", path],
                       check=True, capture_output=True)
        return on_white(Image.open(path))


def datamatrix(data, scale=4):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "z.png")
        subprocess.run(["zint", "-b", "DATAMATRIX", "--scale", str(scale), "--whitesp", "10", "--vwhitesp", "10",
                        "-d", data, "-o", path], check=True, capture_output=True)
        return on_white(Image.open(path))


def on_white(img):
    rgba = img.convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("L")


def gs1_check(digits):
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


def upce_expected(digits7):
    """zbar reports UPC-E as 8 digits: number system, 6 digits, check digit of the UPC-A form."""
    ns, d = digits7[0], digits7[1:]
    last = d[5]
    if last in "012":
        upca = ns + d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        upca = ns + d[0:3] + "00000" + d[3:5]
    elif last == "4":
        upca = ns + d[0:4] + "00000" + d[4]
    else:
        upca = ns + d[0:5] + "0000" + last
    return digits7 + gs1_check(upca)


# ---------------------------------------------------------------- distortions
def pad(img, margin=24, fill=WHITE):
    return ImageOps.expand(img, border=margin, fill=fill)


def rotate(img, degrees):
    return img.rotate(degrees, resample=Image.BICUBIC, expand=True, fillcolor=WHITE)


def resize(img, factor):
    w, h = img.size
    return img.resize((max(1, round(w * factor)), max(1, round(h * factor))), Image.BILINEAR)


def blur(img, radius):
    return img.filter(ImageFilter.GaussianBlur(radius))


def noise(img, sigma, seed):
    rng = np.random.default_rng(seed)
    a = np.asarray(img, dtype=np.float32) + rng.normal(0, sigma, (img.size[1], img.size[0]))
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def contrast(img, dark, light):
    a = np.asarray(img, dtype=np.float32) / 255.0
    return Image.fromarray((dark + a * (light - dark)).round().astype(np.uint8))


def invert(img):
    return ImageOps.invert(img)


def shade(img, strength, seed):
    """Uneven light: a diagonal gradient and a soft shadow."""
    rng = np.random.default_rng(seed)
    h, w = img.size[1], img.size[0]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    ramp = (np.cos(angle) * x / w + np.sin(angle) * y / h)
    ramp = (ramp - ramp.min()) / max(ramp.max() - ramp.min(), 1e-6)
    light = 1.0 - strength * ramp
    a = np.asarray(img, dtype=np.float32) * light
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def perspective(img, amount, seed):
    rng = np.random.default_rng(seed)
    w, h = img.size
    d = lambda: rng.uniform(0, amount) * min(w, h)
    corners = [(d(), d()), (w - d(), d()), (w - d(), h - d()), (d(), h - d())]
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    matrix = []
    for (x, y), (u, v) in zip(corners, src):
        matrix.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        matrix.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    coeffs = np.linalg.solve(np.array(matrix), np.array(src).reshape(8))
    return img.transform((w, h), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=WHITE)


def background(w, h, seed, base=150):
    """A desk-like texture with clutter: blotches, boxes, lines of text."""
    rng = np.random.default_rng(seed)
    small = rng.normal(base, 25, (h // 16 + 2, w // 16 + 2)).clip(0, 255).astype(np.uint8)
    bg = Image.fromarray(small).resize((w, h), Image.BICUBIC)
    draw = ImageDraw.Draw(bg)
    font = ImageFont.load_default()
    for _ in range(max(4, w * h // 40000)):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        kind = int(rng.integers(0, 3))
        if kind == 0:
            draw.rectangle([x, y, x + int(rng.integers(20, 160)), y + int(rng.integers(10, 90))],
                           outline=int(rng.integers(0, 255)), width=int(rng.integers(1, 4)))
        elif kind == 1:
            words = " ".join("".join(chr(int(c)) for c in rng.integers(97, 123, int(rng.integers(3, 9))))
                             for _ in range(int(rng.integers(2, 6))))
            draw.text((x, y), words, fill=int(rng.integers(0, 90)), font=font)
        else:
            draw.line([x, y, x + int(rng.integers(-200, 200)), y + int(rng.integers(-200, 200))],
                      fill=int(rng.integers(0, 255)), width=int(rng.integers(1, 3)))
    return bg


def photo(code_img, seed, size=None, angle=8.0, amount=0.06, blur_radius=0.8, sigma=6, quality=80):
    """A label photographed on a desk: paper label, tilt, perspective, light, blur, noise, JPEG."""
    rng = np.random.default_rng(seed)
    label = pad(code_img, 16)
    label = rotate(label, float(rng.uniform(-angle, angle)))
    label = perspective(label, amount, seed)
    w, h = size or (label.size[0] + 160, label.size[1] + 120)
    scene = background(w, h, seed)
    x = int(rng.integers(0, max(1, w - label.size[0])))
    y = int(rng.integers(0, max(1, h - label.size[1])))
    mask = label.point(lambda v: 255)  # the whole label is opaque paper
    scene.paste(label, (x, y), mask)
    scene = shade(scene, 0.35, seed)
    scene = blur(scene, blur_radius)
    scene = noise(scene, sigma, seed)
    return jpeg_roundtrip(scene, quality)


def jpeg_roundtrip(img, quality):
    buffer = io.BytesIO()
    img.save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


# ---------------------------------------------------------------- output
written = []


def save(name, img, text=None, fmt="png", quality=85):
    path = os.path.join(HERE, f"{name}.{fmt}")
    if fmt == "png":
        img.save(path, "PNG", optimize=True)
    elif fmt == "jpg":
        img.save(path, "JPEG", quality=quality)
    elif fmt == "pgm":
        img.save(path, "PPM")  # Pillow writes mode L as binary PGM (P5)
    elif fmt == "ppm":
        img.convert("RGB").save(path, "PPM")
    if text is not None:
        with open(os.path.join(HERE, f"{name}.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    written.append(path)


def variants(sym, base, text, seed, quiet=False):
    """The common set of hard cases for one symbology; returns how many were written."""
    cases = [
        ("clean", lambda: pad(base), "png"),
        ("small", lambda: pad(resize(base, 0.5)), "png"),
        ("rot10", lambda: rotate(pad(base), 10), "png"),
        ("rot30", lambda: rotate(pad(base), 30), "png"),
        ("rot45", lambda: rotate(pad(base), 45), "png"),
        ("rot90", lambda: rotate(pad(base), 90), "png"),
        ("rot180", lambda: rotate(pad(base), 180), "png"),
        ("blur", lambda: blur(pad(base), 1.2), "png"),
        ("blur-heavy", lambda: blur(pad(base), 2.2), "png"),
        ("noise", lambda: noise(pad(base), 30, seed), "png"),
        ("noise-heavy", lambda: noise(pad(base), 60, seed + 1), "png"),
        ("lowcontrast", lambda: contrast(pad(base), 115, 150), "png"),
        ("inverted", lambda: invert(pad(base)), "png"),
        ("shadow", lambda: shade(pad(base), 0.7, seed), "png"),
        ("photo", lambda: photo(base, seed), "jpg"),
        ("photo-tilted", lambda: photo(base, seed + 7, angle=25, amount=0.1, blur_radius=1.2, sigma=10), "jpg"),
        ("jpeg-q20", lambda: pad(base), "jpg20"),
    ]
    for index, (variant, make, fmt) in enumerate(cases, 1):
        img = make()
        if fmt == "jpg20":
            save(f"{sym}-{index:02d}-{variant}", img, text, "jpg", quality=20)
        else:
            save(f"{sym}-{index:02d}-{variant}", img, text, fmt)
    return len(cases)


def main():
    for name in os.listdir(HERE):
        if name.split(".")[-1] in ("png", "jpg", "pgm", "ppm", "txt"):
            os.remove(os.path.join(HERE, name))

    # QR codes: the full set of hard cases, plus text encodings and file formats.
    variants("qrcode", qr_segno("AST-000123", scale=4), "AST-000123", 100)
    extra = [
        ("tiny", pad(qr_segno("SG-LAPTOP-00042", scale=1, border=2), 8), "SG-LAPTOP-00042"),
        ("utf8", pad(qr_segno("Bürostuhl-42 · 资产-0042", scale=3, encoding="utf-8")), "Bürostuhl-42 · 资产-0042"),
        ("latin1", pad(qr_segno("Ångström-Lab-3", scale=3, encoding="iso-8859-1")), "Ångström-Lab-3"),
        ("latin1-cafe", pad(qr_segno("Café-Kasse-7", scale=3, encoding="iso-8859-1")), "Café-Kasse-7"),
        ("eci-greek", pad(qr_segno("Γραφείο-12", scale=3, encoding="iso-8859-7", eci=True)), "Γραφείο-12"),
        ("eci-utf8", pad(qr_segno("Größe-XL-9", scale=3, encoding="utf-8", eci=True)), "Größe-XL-9"),
        ("qrencode", qr_qrencode("https://assets.example.com/t/MY-0007781", scale=3),
         "https://assets.example.com/t/MY-0007781"),
        ("serial", pad(qr_segno("C02XK1ZJJG5H", scale=5, error="h")), "C02XK1ZJJG5H"),
    ]
    for index, (variant, img, text) in enumerate(extra, 30):
        save(f"qrcode-{index:02d}-{variant}", img, text)
    save("qrcode-40-pgm", pad(qr_segno("PGM-TAG-1", scale=4)), "PGM-TAG-1", "pgm")
    save("qrcode-41-ppm", pad(qr_segno("PPM-TAG-2", scale=4)), "PPM-TAG-2", "ppm")

    variants("code128", zint("code128", "AST-000456", scale=1.0), "AST-000456", 200)
    save("code128-30-lowercase", pad(zint("code128", "sn:Ab12-Cd34", scale=1.0)), "sn:Ab12-Cd34")
    variants("code39", zint("code39", "TAG-7781", scale=1.0), "TAG-7781", 300)
    save("code39-30-long", pad(zint("code39", "MY-WH2-SHELF-0044", scale=1.0)), "MY-WH2-SHELF-0044")
    ean13 = "400638133393"
    variants("ean13", zint("ean13", ean13, scale=1.0), ean13 + gs1_check(ean13), 400)
    # EAN-8, UPC-A and UPC-E get the same hard cases as the others.
    ean8 = "9638507"
    variants("ean8", zint("ean8", ean8, scale=1.0), ean8 + gs1_check(ean8), 500)
    upca = "03600029145"
    variants("upca", zint("upca", upca, scale=1.0), upca + gs1_check(upca), 600)
    upce = "0123456"
    variants("upce", zint("upce", upce, scale=1.0), upce_expected(upce), 700)

    # Images with no code, some of them built to tempt a decoder into a wrong read.
    rng = np.random.default_rng(900)
    save("none-01-white", Image.new("L", (320, 240), WHITE))
    save("none-02-noise", noise(Image.new("L", (320, 240), 128), 60, 901))
    save("none-03-desk", background(480, 360, 902), fmt="jpg")
    bars = np.repeat(rng.choice([0, 255], size=(1, 300), p=[0.45, 0.55]).astype(np.uint8), 120, axis=0)
    save("none-04-random-bars", pad(Image.fromarray(bars)))
    modules = np.kron(rng.choice([0, 255], size=(33, 33)).astype(np.uint8), np.ones((6, 6), np.uint8))
    save("none-05-random-modules", pad(Image.fromarray(modules)))
    text = Image.new("L", (480, 320), WHITE)
    draw = ImageDraw.Draw(text)
    for line in range(16):
        draw.text((12, 10 + line * 19), "Asset register page %d — serial C02XK1ZJ, model 14-inch" % line,
                  fill=0, font=ImageFont.load_default())
    save("none-06-text", text)
    damaged = np.asarray(pad(zint("code128", "AST-000456")), dtype=np.uint8).copy()
    damaged[:, damaged.shape[1] // 2 - 30: damaged.shape[1] // 2 + 30] = WHITE  # the middle torn off
    save("none-07-torn-code128", Image.fromarray(damaged))
    qr_half = np.asarray(pad(qr_segno("AST-000123", scale=4)), dtype=np.uint8).copy()
    qr_half[qr_half.shape[0] // 2:, :] = WHITE
    save("none-08-half-qrcode", Image.fromarray(qr_half))
    stripes = np.tile(np.repeat(np.array([0, 255], np.uint8), 4), 60)[None, :].repeat(150, axis=0)
    save("none-09-stripes", pad(Image.fromarray(stripes)))
    save("none-10-gradient", Image.fromarray(np.tile(np.linspace(0, 255, 400).astype(np.uint8), (300, 1))))

    # Camera-sized frames for the speed benchmark: a desk scene with and without a label.
    for (w, h) in ((640, 480), (1280, 720)):
        seed = w
        save(f"frame-{w}x{h}-none", photo(Image.new("L", (1, 1), 150), seed, size=(w, h), angle=0), fmt="jpg")
        scene = photo(qr_segno("AST-000123", scale=4 if w == 640 else 6), seed, size=(w, h))
        save(f"frame-{w}x{h}-qrcode", scene, "AST-000123", fmt="jpg")
    # More camera scenes at 720p (not in the speed benchmark): a part's DataMatrix label, and a
    # product's EAN-13 and a Code 128 asset tag at the distance a kiosk camera sees them.
    save("frame-1280x720-datamatrix", photo(datamatrix("AST-000789", scale=5), 1290, size=(1280, 720)), "AST-000789", fmt="jpg")
    save("frame-1280x720-ean13", photo(zint("ean13", "400638133393", scale=1.5), 1291, size=(1280, 720)), "4006381333931",
         fmt="jpg")
    save("frame-1280x720-code128", photo(zint("code128", "AST-000456", scale=1.5), 1292, size=(1280, 720)), "AST-000456",
         fmt="jpg")

    total = sum(os.path.getsize(p) for p in written)
    print(f"{len(written)} images, {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
