#!/usr/bin/env python3
"""Documents benchmark: the signed PDF report of a large audit, and a batch of asset labels,
each through the real command line.

Builds nothing: pass the audit-station binary (a release build for the figures).
  - report: a CSV of N assets over 50 locations is imported into a fresh SQLite file, an audit
    of the country is started, the first S tags are scanned from standard input (every 97th at
    the wrong location, so the misplaced list is not empty), plus 100 unknown tags, the audit is
    ended, and `audit report --format pdf --output FILE` is timed. With S much smaller than N the
    missing list is nearly every asset: the heaviest PDF an audit of N assets can give.
  - labels: L assets in a fresh SQLite file, and `assets labels --country SG --symbology X
    --layout a4-3x8 --output FILE` timed for each symbology.
Peak memory is the timed process's own ru_maxrss (os.wait4). Pages come from pdfinfo.

  swift build -c release --product audit-station
  python3 Benchmarks/documents/run.py .build/release/audit-station --assets 1000000 --scans 10000 --labels 3000
--full times `audit report --full` (every missing asset listed, as before the short lists).
With --database FILE the report's database is kept there and, when the file is already there (an
ended audit made by an earlier run with the same --assets and --scans), reused without the import
and the scans: only the PDF is timed again. --skip-labels leaves the labels out.
"""
import argparse, os, subprocess, sys, tempfile, time


def timed(arguments, stdin=None):
    start = time.monotonic()
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stdin:
        process.stdin.write(stdin)
        process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - start
    error = process.stderr.read().decode(errors="replace")
    if status != 0:
        sys.exit(f"failed: {' '.join(arguments)}\n{error}")
    return elapsed, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def pages(pdf):
    for line in subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return -1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("station")
    parser.add_argument("--assets", type=int, default=1_000_000)
    parser.add_argument("--scans", type=int, default=10_000)
    parser.add_argument("--labels", type=int, default=3000)
    parser.add_argument("--skip-report", action="store_true")
    parser.add_argument("--full", action="store_true", help="time `audit report --full` (every missing asset listed) "
                        "instead of the default PDF (at most 500 missing a location)")
    parser.add_argument("--skip-labels", action="store_true")
    parser.add_argument("--database", help="the report's SQLite file: made (and kept) when missing, reused as it is "
                        "(an ended audit) when present, to time the PDF again without the import")
    options = parser.parse_args()
    station = os.path.abspath(options.station)
    folder = tempfile.mkdtemp(prefix="documents-benchmark-")
    print(f"folder: {folder}")

    if not options.skip_report:
        database = os.path.abspath(options.database) if options.database else os.path.join(folder, "report.sqlite")
        if options.database and os.path.exists(database):
            print(f"reusing {database}")
        else:
            prepare(station, database, folder, options)
        pdf = os.path.join(folder, "report.pdf")
        elapsed, rss, cpu = timed([station, "--database", database, "audit", "report", "--format", "pdf", "--output", pdf]
                                  + (["--full"] if options.full else []))
        size = os.path.getsize(pdf) / (1 << 20)
        print(f"PDF report{' (--full)' if options.full else ''} of {options.assets} assets ({options.assets - options.scans} missing): "
              f"{elapsed:.1f} s (cpu {cpu:.1f} s), peak {rss:.0f} MiB, {pages(pdf)} pages, {size:.1f} MiB")

    if not options.skip_labels:
        labels(station, folder, options)


def prepare(station, database, folder, options):
    csv = os.path.join(folder, "assets.csv")
    with open(csv, "w") as out:
        out.write("asset_tag,serial_num,name,model,status,country,location\n")
        for index in range(options.assets):
            out.write(f"SG-{index:07d},SN{(index * 7919) % 10_000_019:08d},Laptop Dell Latitude 7440 number {index},"
                      f"Latitude 7440,IN_STOCK,SG,Warehouse {index % 50:02d}\n")
    elapsed, rss, _ = timed([station, "--database", database, "assets", "import", csv])
    print(f"import of {options.assets} assets: {elapsed:.1f} s, {rss:.0f} MiB")
    subprocess.run([station, "--database", database, "audit", "start", "--country", "SG", "--user", "bench"],
                   check=True, stdout=subprocess.DEVNULL)
    # Scans grouped by location, so each run of `audit scan --location` is one location.
    by_location = {}
    for index in range(options.scans):
        location = index % 50 if index % 97 else (index + 1) % 50
        by_location.setdefault(location, []).append(f"SG-{index:07d}")
    start = time.monotonic()
    for location, tags in sorted(by_location.items()):
        lines = ("\n".join(tags) + "\n").encode()
        timed([station, "--database", database, "audit", "scan", "--user", "bench", "--location", f"Warehouse {location:02d}"], lines)
    timed([station, "--database", database, "audit", "scan", "--user", "bench"],
          ("\n".join(f"UNKNOWN-{n}" for n in range(100)) + "\n").encode())
    print(f"{options.scans} scans + 100 unknown: {time.monotonic() - start:.1f} s")
    subprocess.run([station, "--database", database, "audit", "end"], check=True, stdout=subprocess.DEVNULL)
    os.remove(csv)


def labels(station, folder, options):
    database = os.path.join(folder, "labels.sqlite")
    csv = os.path.join(folder, "labels.csv")
    with open(csv, "w") as out:
        out.write("asset_tag,name,country\n")
        for index in range(options.labels):
            out.write(f"SG-L{index:06d},Laptop Dell Latitude 7440 number {index},SG\n")
    timed([station, "--database", database, "assets", "import", csv])
    for symbology in ["qr", "datamatrix", "code128"]:
        pdf = os.path.join(folder, f"labels-{symbology}.pdf")
        elapsed, rss, cpu = timed([station, "--database", database, "assets", "labels", "--country", "SG", "--symbology", symbology,
                                   "--layout", "a4-3x8", "--output", pdf])
        print(f"{options.labels} {symbology} labels (a4-3x8): {elapsed:.2f} s (cpu {cpu:.2f} s), peak {rss:.0f} MiB, {pages(pdf)} pages")


if __name__ == "__main__":
    main()
