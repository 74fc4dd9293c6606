#!/usr/bin/env bash
# Renders each kiosk screen at 1280x720 (and the scanning screen at 1024x768 and 1920x1080)
# into docs/, in headless Chromium, against a real kiosk over a sample database
# and the emulated camera.
#
#   scripts/kiosk-screenshots.sh            (builds audit-station first)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product audit-station >/dev/null
/usr/bin/python3 scripts/kiosk_screenshots.py --station .build/debug/audit-station --out docs
