#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md names a file that exists and, for a
Markdown file, a heading anchor it has (GitHub's slugs). Exits 1 and lists the broken ones."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def slug(heading):
    heading = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(path):
    found, seen, fence = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        match = None if fence else re.match(r"#{1,6} (.*)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def main():
    docs = sorted("docs/" + name for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
    broken, checked = [], 0
    for name in ["README.md"] + docs:
        text = re.sub(r"```.*?```", "", open(os.path.join(ROOT, name), encoding="utf-8").read(), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue
            checked += 1
            path, _, fragment = link.partition("#")
            target = os.path.normpath(os.path.join(ROOT, os.path.dirname(name), path)) if path else os.path.join(ROOT, name)
            if not os.path.exists(target):
                broken.append(f"{name}: no file {link}")
            elif fragment and target.endswith(".md") and fragment not in anchors(target):
                broken.append(f"{name}: no heading #{fragment} in {link}")
    print("\n".join(broken + [f"{checked} links checked, {len(broken)} broken"]))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
