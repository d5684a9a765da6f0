#!/usr/bin/env python3
"""Line and branch coverage of bench.c per section, from gcov's JSON (gcov -j -b).

  coverage.py SRC FILE.gcov.json.gz...

Counts of every object that compiled SRC (the bench binary, the unit tests) are merged by
line; a branch is taken if any object took it. Sections are the "/*== N prefix" headers.
Prints a table per section, the total, and the largest uncovered regions (runs of
instrumented lines never executed, uninstrumented lines between them allowed).
"""
import gzip, json, os, re, sys

src = sys.argv[1]
lines, branches, funcs = {}, {}, {}
for path in sys.argv[2:]:
    with gzip.open(path, "rt") as f:
        data = json.load(f)
    for fl in data["files"]:
        if os.path.basename(fl["file"]) != os.path.basename(src):
            continue
        for ln in fl["lines"]:
            n = ln["line_number"]
            lines[n] = lines.get(n, 0) + ln["count"]
            funcs.setdefault(n, ln.get("function_name", ""))
            br = branches.setdefault(n, [])
            for i, b in enumerate(ln["branches"]):
                if i >= len(br):
                    br.append(0)
                br[i] += b["count"]

text = open(src, encoding="utf-8").read().split("\n")
sections = []  # (first line, name)
for i, t in enumerate(text, 1):
    m = re.match(r"/\*== (\d+) (.*?) ?=*\*/$", t)
    if m:
        sections.append((i, m.group(1) + " " + m.group(2).rstrip(" =")))
if not sections:
    sys.exit("coverage: no '/*== N' section headers in " + src)


def section_of(n):
    name = "0 (before the sections)"
    for first, s in sections:
        if n >= first:
            name = s
    return name


rows = {s: [0, 0, 0, 0] for _, s in sections}
for n, c in lines.items():
    r = rows.setdefault(section_of(n), [0, 0, 0, 0])
    r[0] += 1
    r[1] += c > 0
    for b in branches.get(n, []):
        r[2] += 1
        r[3] += b > 0


def pct(a, b):
    return f"{100.0 * a / b:5.1f}%" if b else "    - "


print(f"{'section':<58} {'lines':>13} {'':>6} {'branches':>13} {'':>6}")
tot = [0, 0, 0, 0]
for _, s in sections:
    r = rows[s]
    tot = [x + y for x, y in zip(tot, r)]
    print(f"{s[:58]:<58} {r[1]:>6}/{r[0]:<6} {pct(r[1], r[0])} {r[3]:>6}/{r[2]:<6} {pct(r[3], r[2])}")
print(f"{'bench.c':<58} {tot[1]:>6}/{tot[0]:<6} {pct(tot[1], tot[0])} {tot[3]:>6}/{tot[2]:<6} {pct(tot[3], tot[2])}")

# uncovered regions: consecutive instrumented lines with count 0
regions, cur = [], None
for n in sorted(lines):
    if lines[n] == 0:
        if cur and all(k not in lines or lines[k] == 0 for k in range(cur[1] + 1, n)):
            cur[1] = n
            cur[2] += 1
        else:
            cur = [n, n, 1]
            regions.append(cur)
    else:
        cur = None
regions.sort(key=lambda r: -r[2])
print("\nlargest uncovered regions (instrumented lines never run):")
for a, b, k in regions[: int(os.environ.get("COV_REGIONS", "15"))]:
    print(f"  bench.c:{a}-{b}  {k:>3} lines  {funcs.get(a, '')}  [{section_of(a)}]")
