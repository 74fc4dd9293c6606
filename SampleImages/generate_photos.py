#!/usr/bin/env python3
"""Generates the photo-like samples of issue 24: the damage real photographs of labels have, and
texts and layouts that decoders get wrong.

- perspective: the label turned 25° and 40° away from the camera (a real projection, with the far
  side smaller), on a desk, as a JPEG;
- motion blur (the hand moved along the code) and defocus (a disc, not a Gaussian);
- glare: a bright lamp spot over part of the code, on a photo;
- a label wrapped round a thin cylinder (stronger than generate_hard.py's curved);
- small modules: 1.5 and 2 px a module (QR, Data Matrix) or a bar (linear);
- JPEG quality 35 and 55 on photos; an inverted (light on dark) label on a photo;
- two codes in one image (multi-*; the .txt holds one text a line), also a QR code inside another;
- QR text encodings: Shift_JIS half-width katakana only, Kanji mode after control bytes,
  Kanji mode after binary bytes (only a decoder that decodes each segment on its own gets it),
  ECI Shift_JIS; a Data Matrix with two ECI segments; a Code 32 (read with decoder.code32);
- an EAN-13 photo where one engine also reads a wrong number that passes the check digit;

Deterministic: fixed seeds and fixed tools (segno, zint, Pillow, numpy). Each image with a code
has its exact text in a .txt beside it (no newline; multi-* hold one text a line). Only this
script's files are written; run it after generate.py and generate_hard.py (generate.py removes
every sample first). Python: the PATH's python3 with Pillow, numpy and segno from PyPI (the one
scripts/setup.sh prepares); zint from Debian.
Run from anywhere:  python3 SampleImages/generate_photos.py
"""
import io
import os
import sys

import numpy as np
import segno
from PIL import Image, ImageFilter
from segno import consts

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402
import generate_hard as h  # noqa: E402


def turned(img, yaw, pitch=6.0, seed=0):
    """The label turned `yaw` degrees about its vertical axis (and a little about the horizontal
    one), seen by a pinhole camera about one label width away: the far side is smaller."""
    w, hgt = img.size
    f = 1.3 * max(w, hgt)
    a, b = np.radians(yaw), np.radians(pitch)
    corners = []
    for x, y in [(-w / 2, -hgt / 2), (w / 2, -hgt / 2), (w / 2, hgt / 2), (-w / 2, hgt / 2)]:
        # yaw about y, then pitch about x
        x1, z1 = x * np.cos(a), x * np.sin(a)
        y2, z2 = y * np.cos(b) - z1 * np.sin(b), y * np.sin(b) + z1 * np.cos(b)
        corners.append((f * x1 / (f + z2), f * y2 / (f + z2)))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    ox, oy = -min(xs) + 4, -min(ys) + 4
    dst = [(x + ox, y + oy) for x, y in corners]
    size = (int(max(xs) - min(xs) + 8), int(max(ys) - min(ys) + 8))
    src = [(0, 0), (w, 0), (w, hgt), (0, hgt)]
    rows = []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    coeffs = np.linalg.solve(np.array(rows), np.array(src).reshape(8))
    return img.transform(size, Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=g.WHITE)


def on_desk(label, seed, blur_radius=0.7, sigma=5, quality=70, margin=(140, 100), invert_label=False):
    """The label (already distorted) pasted on a desk scene, lit unevenly, blurred, noisy, JPEG'd."""
    rng = np.random.default_rng(seed)
    if invert_label:
        label = g.invert(label)
    w, hgt = label.size[0] + margin[0], label.size[1] + margin[1]
    scene = g.background(w, hgt, seed)
    x, y = int(rng.integers(0, margin[0])), int(rng.integers(0, margin[1]))
    scene.paste(label, (x, y), label.point(lambda v: 255))
    scene = g.shade(scene, 0.3, seed)
    scene = g.blur(scene, blur_radius)
    scene = g.noise(scene, sigma, seed)
    return g.jpeg_roundtrip(scene, quality)


def motion_blur(img, length, angle=0.0):
    """The camera moved `length` px along `angle` degrees while the shutter was open."""
    a = np.asarray(img, dtype=np.float32)
    out = np.zeros_like(a)
    dx, dy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    steps = max(2, int(length))
    for i in range(steps):
        t = i / (steps - 1) - 0.5
        shifted = np.roll(np.roll(a, int(round(t * length * dy)), axis=0), int(round(t * length * dx)), axis=1)
        out += shifted
    return Image.fromarray(np.clip(out / steps, 0, 255).astype(np.uint8))


def defocus(img, radius):
    """Out of focus: each point spread over a disc (a Gaussian is too kind)."""
    r = int(np.ceil(radius))
    y, x = np.mgrid[-r:r + 1, -r:r + 1]
    disc = (x * x + y * y <= radius * radius).astype(np.float32)
    disc /= disc.sum()
    a = np.asarray(img, dtype=np.float32)
    out = np.zeros_like(a)
    padded = np.pad(a, r, mode="edge")
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            wgt = disc[dy + r, dx + r]
            if wgt:
                out += wgt * padded[r + dy:r + dy + a.shape[0], r + dx:r + dx + a.shape[1]]
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def cylinder(img, turn=1.45, depth=0.25):
    """Wrapped round a thin cylinder: most of its half-turn is visible, the edges squeezed and dark."""
    a = np.asarray(img, dtype=np.uint8)
    hgt, w = a.shape
    u = np.linspace(-1, 1, w)
    src = (np.arcsin(u * np.sin(turn)) / turn + 1) / 2 * (w - 1)
    out = a[:, np.clip(src.round().astype(int), 0, w - 1)].astype(np.float32)
    out *= (1 - depth * u ** 2)[None, :]
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def scaled(img, factor):
    """Resampled so that one module becomes `factor` px (area average, like a camera sensor)."""
    w, hgt = img.size
    return img.resize((max(1, round(w * factor)), max(1, round(hgt * factor))), Image.BOX)


def qr_segments(segments, scale=1, border=4):
    code = segno.make(segments, micro=False)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=border)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


def side_by_side(left, right, gap=40):
    w, hgt = left.size[0] + right.size[0] + gap, max(left.size[1], right.size[1])
    canvas = Image.new("L", (w, hgt), g.WHITE)
    canvas.paste(left, (0, (hgt - left.size[1]) // 2))
    canvas.paste(right, (left.size[0] + gap, (hgt - right.size[1]) // 2))
    return canvas


# One module (or narrowest bar) a pixel, so that `scaled` sets the module size exactly.
BASES = {
    "qrcode": (lambda: g.qr_segno("AST-000789", scale=1, border=4), "AST-000789"),
    "datamatrix": (lambda: h.zint_raw("DATAMATRIX", "DM-ASSET-00321", scale=0.5), "DM-ASSET-00321"),
    "code128": (lambda: g.zint("code128", "AST-004521", scale=0.5, height=30), "AST-004521"),
    "ean13": (lambda: g.zint("ean13", "400638133393", scale=0.5, height=30), "4006381333931"),
    "upca": (lambda: g.zint("upca", "03600029145", scale=0.5, height=30), "036000291452"),
}


def damage(sym, make, text, seed):
    base = make()
    big = scaled(base, 4)
    cases = [
        ("60-persp25", lambda: on_desk(turned(g.pad(big, 12), 25, seed=seed), seed)),
        ("61-persp40", lambda: on_desk(turned(g.pad(big, 12), 40, 10, seed=seed), seed + 1)),
        ("62-motion", lambda: on_desk(motion_blur(g.pad(big, 16), 6, 0 if sym in ("qrcode", "datamatrix") else 90), seed + 2)),
        ("63-defocus", lambda: on_desk(defocus(g.pad(big, 16), 2.2), seed + 3)),
        ("64-glare", lambda: on_desk(h.glare(g.pad(big, 16), seed + 4), seed + 4)),
        ("65-cylinder", lambda: on_desk(cylinder(g.pad(big, 16)), seed + 5)),
        ("66-module15", lambda: g.noise(g.pad(scaled(base, 1.5), 12), 4, seed + 6)),
        ("67-module2", lambda: on_desk(g.pad(scaled(base, 2), 8), seed + 7, blur_radius=0.5)),
        ("68-jpeg-q35", lambda: on_desk(g.pad(scaled(base, 3), 12), seed + 8, quality=35)),
        ("69-jpeg-q55", lambda: on_desk(turned(g.pad(scaled(base, 3), 12), 20), seed + 9, quality=55)),
        ("70-inverted-photo", lambda: on_desk(g.pad(big, 16), seed + 10, invert_label=True)),
    ]
    for name, build in cases:
        g.save(f"{sym}-{name}", build(), text, "jpg" if name[3:] not in ("module15",) else "png", quality=90)


def easy_to_misread():
    """An EAN-13 out of focus on a desk photo that libzxing 1.4 reads once
    as 2961934123457 (a wrong number that passes the check digit) beside the right one: the
    decoder must report only the right one. Found by generating such scenes until one misread."""
    i = 72
    rng = np.random.default_rng(i)
    base = g.zint("ean13", "590123412345", scale=0.5, height=30)
    img = g.pad(scaled(base, rng.uniform(1.3, 3.0)), 10)
    img = defocus(img, rng.uniform(1.2, 2.2))
    scene = on_desk(img, i, blur_radius=rng.uniform(0.4, 1.0), sigma=rng.uniform(4, 12), quality=int(rng.integers(30, 70)),
                    margin=(700, 300))
    g.save("ean13-80-misread-prone", scene, "5901234123457", "jpg", quality=90)


def texts():
    kata = "ｱｾｯﾄ-ﾃｽﾄ"
    g.save("qrcode-90-sjis-katakana", g.pad(qr_segments([(kata.encode("shift_jis"), consts.MODE_BYTE)], scale=4)), kata)
    after = "\x01\x02" + "資産番号"
    g.save("qrcode-91-kanji-after-control",
           g.pad(qr_segments([(b"\x01\x02", consts.MODE_BYTE), ("資産番号".encode("shift_jis"), consts.MODE_KANJI)], scale=4)),
           after)
    binary = bytes([0xFE, 0x80, 0xA0, 0xFF])
    g.save("qrcode-92-kanji-after-binary",
           g.pad(qr_segments([(binary, consts.MODE_BYTE), ("資産番号".encode("shift_jis"), consts.MODE_KANJI)], scale=4)),
           binary.decode("latin-1") + "資産番号")
    g.save("qrcode-93-eci-sjis", g.pad(g.qr_segno("資産-ｶﾒﾗ-7", scale=4, encoding="shift_jis", eci=True)), "資産-ｶﾒﾗ-7")
    g.save("qrcode-94-katakana-photo",
           on_desk(turned(g.pad(qr_segments([(kata.encode("shift_jis"), consts.MODE_BYTE)], scale=4), 12), 20), 94), kata,
           "jpg", quality=90)
    # Code 32 (Italian pharmacode) inside Code 39: read with decoder.code32 on (names ending -code32)
    g.save("code39-90-code32", g.pad(h.zint_raw("CODE32", "12345678", scale=2)), "A123456788")
    g.save("datamatrix-90-eci-segments",
           g.pad(h.zint_raw("DATAMATRIX", "Größe", scale=4, extra=("--eci=3", "--seg1=9,Γραφείο"))), "GrößeΓραφείο")


def multi():
    left = g.pad(g.qr_segno("AST-000111", scale=4), 8)
    right = g.pad(g.qr_segno("AST-000222", scale=4), 8)
    g.save("multi-01-two-qr", g.pad(side_by_side(left, right)), "AST-000111\nAST-000222")
    small = g.pad(g.qr_segno("AST-000333", scale=2), 4)
    g.save("multi-02-qr-large-and-small", g.pad(side_by_side(g.pad(g.qr_segno("AST-000444", scale=6), 8), small, 120)),
           "AST-000444\nAST-000333")
    g.save("multi-03-two-qr-photo", on_desk(turned(g.pad(side_by_side(left, right), 12), 20), 103), "AST-000111\nAST-000222",
           "jpg", quality=90)
    bars = g.zint("code128", "AST-004521", scale=1, height=40)
    g.save("multi-04-qr-and-code128", g.pad(side_by_side(left, bars)), "AST-000111\nAST-004521")
    # One label read at once, the other only by a retry (light on dark; faint): both are reported.
    dark = g.invert(g.pad(g.qr_segno("AST-000555", scale=4), 8))
    g.save("multi-05-qr-and-inverted-qr", g.pad(side_by_side(left, g.pad(dark, 30), 80)), "AST-000111\nAST-000555")
    faint = g.contrast(g.pad(g.qr_segno("AST-000666", scale=3), 8), 100, 165)
    g.save("multi-06-code128-and-faint-qr", g.noise(g.pad(side_by_side(bars, faint, 80)), 6, 106), "AST-004521\nAST-000666")
    nested()


def nested():
    """A QR code printed inside another (a shelf label's code in the middle of the rack's, where
    the outer one's error correction H covers it), their texts one kanji apart: both are codes."""
    outer_text, inner_text = "棚卸資産-東-0042", "棚卸資産-西-0042"
    outer = g.qr_segno(outer_text, scale=8, encoding="utf-8", error="h")
    inner = g.pad(g.qr_segno(inner_text, scale=2, border=2, encoding="utf-8"), 6)
    x, y = (outer.size[0] - inner.size[0]) // 2, (outer.size[1] - inner.size[1]) // 2
    both = outer.copy()
    both.paste(inner, (x, y))
    g.save("multi-07-qr-inside-qr", g.pad(both), outer_text + "\n" + inner_text)
    g.save("multi-08-qr-inside-qr-photo", on_desk(turned(g.pad(both, 12), 15), 108, blur_radius=0.5), outer_text + "\n" + inner_text,
           "jpg", quality=90)


def main():
    for index, (sym, (make, text)) in enumerate(BASES.items()):
        damage(sym, make, text, 600 + 20 * index)
    easy_to_misread()
    texts()
    multi()
    print(f"wrote {len(g.written)} images")


if __name__ == "__main__":
    if sys.argv[1:] == ["nested"]:
        nested()
    else:
        main()
