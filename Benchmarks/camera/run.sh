#!/usr/bin/env bash
# Camera benchmark: the scan loop through the emulated V4L2 device (Tests/FakeCamera) at
# 30 fps and 1280x720, with the release build of camera-probe.
#
#   Benchmarks/camera/run.sh [SECONDS]        (default 30 s per run)
#
# Prints, for GREY and MJPG cameras: frames decoded per second, frames dropped (replaced
# before decoding, and lost by the driver), capture -> accepted-code latency p50/p99 (the
# time from the driver's frame timestamp to the code leaving the de-duplication filter;
# storing the scan comes after and is not included), and the CPU use of the process with
# no code in view (the emulator's producer thread runs in the same process and is included).
# Latency to a *stored* outcome, through `audit-station audit scan --device`, is measured by
# Benchmarks/camera/stored_latency.py --station PATH/audit-station.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER_RUN="${1:-30}"
SCRATCH="${SCRATCH:-.build-camera-bench}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

swift build -c release --scratch-path "$SCRATCH" --product camera-probe >/dev/null
PROBE="$SCRATCH/release/camera-probe"
cc -O2 -shared -fPIC -o "$WORK/libfakev4l2.so" Tests/FakeCamera/*.c -ldl -lpthread -lturbojpeg

# 60 different tags, each in view for 3 frames (0.1 s), with 3 empty frames between.
python3 Tests/FakeCamera/make_frame.py --width 1280 --height 720 --out "$WORK/empty.pgm"
: > "$WORK/tags.txt"
for i in $(seq -w 0 59); do
    python3 Tests/FakeCamera/make_frame.py --width 1280 --height 720 --seed "$i" --qr "BENCH-$i" --out "$WORK/tag$i.pgm"
    printf '%s *3\n%s *3\n' "$WORK/tag$i.pgm" "$WORK/empty.pgm" >> "$WORK/tags.txt"
done
printf '%s *30\n' "$WORK/empty.pgm" > "$WORK/empty.txt"

run() {  # format playlist output
    LD_PRELOAD="$WORK/libfakev4l2.so" FAKEV4L2_DEVICE=/dev/video77 FAKEV4L2_FORMAT="$1" FAKEV4L2_FPS=30 \
    FAKEV4L2_WIDTH=1280 FAKEV4L2_HEIGHT=720 FAKEV4L2_FRAMES="$2" FAKEV4L2_AT_END=loop \
        "$PROBE" --config '{"device": "/dev/video77", "goneAfterSeconds": 0.05}' --seconds "$SECONDS_PER_RUN" > "$3"
}

for format in GREY MJPG; do
    run "$format" "$WORK/tags.txt" "$WORK/tags-$format.jsonl"
    run "$format" "$WORK/empty.txt" "$WORK/empty-$format.jsonl"
done

python3 - "$WORK" "$SECONDS_PER_RUN" <<'PY'
import json, sys, statistics
work, seconds = sys.argv[1], sys.argv[2]
def load(path):
    codes, stats = [], {}
    for line in open(path):
        o = json.loads(line)
        if "code" in o: codes.append(o)
        if "stats" in o: stats = o["stats"]
    return codes, stats
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")
print(f"camera benchmark: emulated V4L2 camera, 1280x720 at 30 fps, {seconds} s per run, release build")
for fmt in ("GREY", "MJPG"):
    codes, s = load(f"{work}/tags-{fmt}.jsonl")
    _, e = load(f"{work}/empty-{fmt}.jsonl")
    lat = [c["latency_ms"] for c in codes]
    wall = s["wallSeconds"]
    print(f"\n[{fmt}] tags coming and going (60 tags, 0.1 s each)")
    print(f"  frames captured {s['framesCaptured']}, decoded {s['framesDecoded']} ({s['framesDecoded']/wall:.1f}/s)")
    print(f"  frames dropped: replaced before decoding {s['framesDroppedStale']}, lost by the driver {s['framesDroppedByDriver']}")
    print(f"  mean decode time {1000*s['decodeSeconds']/max(1,s['framesDecoded']):.2f} ms/frame")
    print(f"  codes accepted {len(codes)}; capture->accepted latency p50 {pct(lat,50):.1f} ms, p99 {pct(lat,99):.1f} ms, max {max(lat) if lat else float('nan'):.1f} ms")
    print(f"[{fmt}] no code in view")
    print(f"  frames decoded {e['framesDecoded']} ({e['framesDecoded']/e['wallSeconds']:.1f}/s), dropped {e['framesDroppedStale']}+{e['framesDroppedByDriver']}")
    print(f"  CPU {100*e['cpuSeconds']/e['wallSeconds']:.1f}% of one core (process total: capture, libv4l2 conversion, decode, emulator)")
    print(f"  mean decode time {1000*e['decodeSeconds']/max(1,e['framesDecoded']):.2f} ms/frame")
PY
