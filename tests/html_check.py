#!/usr/bin/env python3
"""Check `bench all --html` as headless Chromium rendered it (tests/all.sh).

usage: html_check.py [--pos POS.html] [--host NAME] [--version V] SOURCE.html DOM.html SHOT.png
                     CHARTS SECTION...

SOURCE: the file bench wrote; DOM: `chromium --dump-dom` of it; SHOT: `chromium --screenshot`
of it; CHARTS: how many charts (<svg>) the page must have; SECTION: the <h2> titles it must
have. Checks, each printed as "html: FAIL: ..." when it does not hold:
  - the source loads nothing from elsewhere: no http(s): URL, no <script>, <link>, <img>,
    <iframe>, <object>, src=, url(...) or @import;
  - the DOM Chromium built: the title, every section, CHARTS <svg> elements, each with drawn
    elements of non-zero geometry (a polyline over >= 2 distinct points, or a rect, or a circle
    of non-zero size) and at least one data mark;
  - the screenshot (PNG decoded here with zlib): one chart area (the charts' #fafafa
    background) per <svg>, each holding pixels of the data colour (#36c), so none is blank;
  - the header (the element id="header" of the DOM): the host NAME, a date and time with its
    UTC offset (YYYY-MM-DD HH:MM:SS +hhmm), "bench V" and a verdict;
  - with --pos: POS is the DOM Chromium dumped of a copy of SOURCE with a measuring script
    added by the test (the page itself has none), which wrote each id'd element's rendered
    top as data-top: the header, the summary and the verdicts come before every section of
    raw facts (host, cpu, memory, scheduler, disk, database).
Exit 0 when all hold, 1 otherwise. Python's standard library only.
"""
import re
import struct
import sys
import zlib
from html.parser import HTMLParser

fails = []


def bad(msg):
    fails.append(msg)
    print("html: FAIL: " + msg)


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.title = ""
        self.tops = {}  # id -> data-top (the --pos copy)
        self.header = ""
        self.in_header = 0
        self.h2 = []
        self.svgs = []  # each: list of (tag, attrs)
        self.stack = []
        self.in_svg = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") and a.get("data-top") is not None:
            try:
                self.tops[a["id"]] = float(a["data-top"])
            except ValueError:
                pass
        if tag == "header" and a.get("id") == "header":
            self.in_header = 1
        elif self.in_header:
            self.in_header += 1
        self.stack.append(tag)
        if tag == "svg":
            self.in_svg = []
            self.svgs.append(self.in_svg)
        elif self.in_svg is not None:
            self.in_svg.append((tag, a))

    def handle_startendtag(self, tag, attrs):
        if self.in_svg is not None:
            self.in_svg.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if self.in_header:
            self.in_header -= 1
        if tag == "svg":
            self.in_svg = None
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if self.in_header:
            self.header += data
        if not self.stack:
            return
        if self.stack[-1] == "title" and self.in_svg is None and "svg" not in self.stack:
            self.title += data
        elif self.stack[-1] == "h2":
            self.h2.append(data.strip())


def num(a, k):
    try:
        return float(a.get(k, "0"))
    except ValueError:
        return 0.0


def drawn(tag, a):
    """A data mark with non-zero geometry: (is a mark, has geometry)."""
    if tag == "polyline":
        pts = re.findall(r"(-?[0-9.]+),(-?[0-9.]+)", a.get("points", ""))
        xs = {float(x) for x, _ in pts}
        ys = {float(y) for _, y in pts}
        return True, len(set(pts)) >= 2 and (max(xs) - min(xs) > 0 or max(ys) - min(ys) > 0)
    if tag == "rect" and a.get("class") == "b":
        return True, num(a, "width") > 0 and num(a, "height") > 0
    if tag == "circle":
        return True, num(a, "r") > 0
    return False, False


def png_rgb(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                raise ValueError("PNG kind %d/%d/%d not handled" % (depth, ctype, inter))
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, p = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((x + y) & 255 for x, y in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def chart_boxes(w, h, bpp, rows):
    """Areas of the charts' background (#fafafa), charts being stacked one under another: rows
    holding a run of >= 8 such pixels (the gap between two bars of a 7-rung ladder is 14 px at
    0.5 device pixels per CSS pixel: a run of 20 split a flat ladder's chart in two), the span from the first such run to the last, rows
    within 3 of each other merged; [(x0, x1, y0, y1)] of those >= 30 rows tall."""
    boxes, cur, gap = [], None, 0
    bg = bytes((250, 250, 250))
    for y in range(h):
        line = rows[y]
        lo = hi = None
        x = 0
        while x < w:
            if line[x * bpp:x * bpp + 3] == bg:
                s = x
                while x < w and line[x * bpp:x * bpp + 3] == bg:
                    x += 1
                if x - s >= 8:
                    lo = s if lo is None else lo
                    hi = x
            else:
                x += 1
        if lo is not None:
            if cur is None:
                cur = [lo, hi, y, y]
            else:
                cur = [min(cur[0], lo), max(cur[1], hi), cur[2], y]
            gap = 0
        elif cur is not None:
            gap += 1
            if gap > 3:
                boxes.append(tuple(cur))
                cur, gap = None, 0
    if cur is not None:
        boxes.append(tuple(cur))
    return [b for b in boxes if b[3] - b[2] >= 30]


def main():
    args, opt = sys.argv[1:], {}
    while args and args[0] in ("--pos", "--host", "--version") and len(args) > 1:
        opt[args[0]] = args[1]
        args = args[2:]
    if len(args) < 4:
        print(__doc__)
        return 2
    src, dom_path, shot, charts = args[0], args[1], args[2], int(args[3])
    sections = args[4:]
    text = open(src, encoding="utf-8").read()
    for pat, what in [(r"https?:", "an http(s): URL"), (r"<script", "a <script>"),
                      (r"<link", "a <link>"), (r"<img", "an <img>"), (r"<iframe", "an <iframe>"),
                      (r"<object", "an <object>"), (r"\bsrc\s*=", "a src="),
                      (r"url\(", "a url(...)"), (r"@import", "an @import"),
                      (r"@font-face", "a web font")]:
        if re.search(pat, text, re.I):
            bad("the page loads something from elsewhere: " + what)
    d = Dom()
    d.feed(open(dom_path, encoding="utf-8").read())
    if d.title.strip() != "bench all report":
        bad("title %r, want 'bench all report'" % d.title.strip())
    for s in sections:
        if s not in d.h2:
            bad("section %s missing from the DOM (sections: %s)" % (s, ", ".join(d.h2)))
    hd = " ".join(d.header.split())
    if not hd:
        bad("no header (id=header) in the DOM")
    else:
        if "--host" in opt and opt["--host"] not in hd:
            bad("the header does not name the host %r: %r" % (opt["--host"], hd))
        if not re.search(r"\b\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\b", hd):
            bad("the header has no date and time with its UTC offset: %r" % hd)
        if "--version" in opt and "bench " + opt["--version"] not in hd:
            bad("the header does not name bench %s: %r" % (opt["--version"], hd))
        if not re.search(r"\b(PASS|WARN|FAIL)\b", hd):
            bad("the header has no verdict: %r" % hd)
    if "--pos" in opt:
        p = Dom()
        p.feed(open(opt["--pos"], encoding="utf-8").read())
        t = p.tops
        lead = [k for k in ("header", "summary", "verdicts") if k in t]
        raw = [k for k in ("host", "cpu", "memory", "scheduler", "disk", "database") if k in t]
        if len(lead) < 3 or len(raw) < 5:
            bad("positions: header, summary, verdicts and the fact sections not all measured "
                "(%s)" % ", ".join("%s=%g" % kv for kv in sorted(t.items())))
        elif not (t["header"] < t["summary"] < t["verdicts"]):
            bad("positions: header %g, summary %g, verdicts %g: not in that order"
                % (t["header"], t["summary"], t["verdicts"]))
        else:
            first = min(raw, key=lambda k: t[k])
            if t["verdicts"] >= t[first]:
                bad("positions: the verdicts (y=%g) come after the raw facts of %s (y=%g)"
                    % (t["verdicts"], first, t[first]))
    if len(d.svgs) != charts:
        bad("%d charts (<svg>) in the DOM, want %d" % (len(d.svgs), charts))
    for i, els in enumerate(d.svgs):
        marks = [drawn(t, a) for t, a in els]
        if not any(m for m, _ in marks):
            bad("chart %d draws no data mark" % (i + 1))
        elif not all(g for m, g in marks if m):
            bad("chart %d has a data mark of zero size" % (i + 1))
    try:
        w, h, bpp, rows = png_rgb(shot)
    except (OSError, ValueError, zlib.error) as e:
        bad("screenshot %s: %s" % (shot, e))
        return 1
    boxes = chart_boxes(w, h, bpp, rows)
    if len(boxes) != len(d.svgs):
        bad("%d chart areas in the %dx%d screenshot, want %d" % (len(boxes), w, h, len(d.svgs)))
    for i, (x0, x1, y0, y1) in enumerate(sorted(boxes, key=lambda b: b[2])):
        ink = 0
        for y in range(y0, y1 + 1):
            line = rows[y]
            for x in range(x0, x1):
                r, g, b = line[x * bpp], line[x * bpp + 1], line[x * bpp + 2]
                if b - r > 80:  # the data colour #36c, blended at any edge
                    ink += 1
        if ink < 20:
            bad("chart area %d (%d,%d)-(%d,%d) is blank: %d data pixels" % (i + 1, x0, y0, x1,
                                                                            y1, ink))
    print("html: %s: %d sections, %d charts, %d chart areas in a %dx%d screenshot; %d failed"
          % (src, len(d.h2), len(d.svgs), len(boxes), w, h, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
