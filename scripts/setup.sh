#!/usr/bin/env bash
# Installs everything AuditStation needs on Debian 12: the C libraries it links
# (SQLite, zbar, zxing-cpp, libv4l2, libpng, libjpeg-turbo, libwebp, libheif, and cairo, pango and libzint for the PDF
# reports and asset labels), poppler-utils (pdftotext, pdfinfo, pdftoppm) for the tests that read them back, the reference tools the benchmarks
# compare against (zbarimg, pyzbar, zxing-cpp for Python), the generators for SampleImages/,
# headless Chromium with its WebDriver for the kiosk's browser tests and screenshots, and
# schemathesis for the API schema check (scripts/schemathesis.sh), and PostgreSQL, whose
# initdb and pg_ctl the tests use to run a private cluster for the server's PostgreSQL back end.
# Debian's Noto fonts give asset names their glyphs on the kiosk, the office and in the PDFs:
# fonts-noto-cjk for Chinese, Japanese and Korean, fonts-noto-core for Tamil, Thai and the other
# scripts DejaVu lacks (without them such names show as empty boxes).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    pkg-config libsqlite3-dev sqlite3 \
    libzbar-dev zbar-tools \
    libv4l-dev v4l-utils \
    libpng-dev libturbojpeg0-dev libwebp-dev libheif-dev libzxing-dev \
    zint qrencode \
    libcairo2-dev libpango1.0-dev libzint-dev \
    chromium chromium-driver python3-selenium fonts-dejavu-core fonts-noto-core fonts-noto-cjk poppler-utils \
    postgresql \
    python3-pip >/dev/null
python3 -m pip install -q --disable-pip-version-check pyzbar zxing-cpp segno python-barcode Pillow numpy schemathesis 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check --break-system-packages pyzbar zxing-cpp segno python-barcode Pillow numpy schemathesis
# A build that ran before these packages were here planned its C targets with the include
# folders pkg-config could not give then (cairo-pdf.h not found), and SwiftPM keeps that plan
# and the manifest's answer. Dropping both makes the next build ask again; compiled objects stay.
rm -f "$(dirname "$0")/../.build"/*.yaml
cache="${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}"
if [ -n "$cache" ]; then rm -rf "$cache/org.swift.swiftpm/manifests"; fi
echo "AuditStation dependencies installed."
