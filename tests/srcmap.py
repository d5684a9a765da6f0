#!/usr/bin/env python3
"""The shape of bench.c, checked (make test: the suite source, tests/run.sh):

  srcmap.py order  bench.c           no call into a later section (the file reads bottom-up)
  srcmap.py header bench.c bench.h   every function called from another section than its own
                                     is declared in bench.h, and everything bench.h declares
                                     is defined in bench.c (bench.h is the whole map)
  add -v for the list. Exit 1 when a check fails.

A section is a "/*== N prefix" banner; a function belongs to the section its definition sits
in; a call is its name followed by "(" inside another function's body (comments and strings
blanked first).
"""
import re, sys


def blank(text):
    """comments, strings and character literals to spaces; newlines kept"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


SIG = re.compile(r"^(?:static\s+|BENCH_API\s+|extern\s+)?(?:inline\s+)?(?:_Noreturn\s+)?"
                 r"[A-Za-z_][\w\s\*,]*?\b([a-z_][a-z0-9_]*)\s*\(")


def parse(path):
    """(defs: name -> (section, line), bodies: [(name, section, first, last)], code lines)"""
    src = open(path, encoding="utf-8").read()
    lines, code = src.split("\n"), blank(src).split("\n")
    sec_at, sec = [], 0
    for t in lines:
        m = re.match(r"/\*== (\d+) ", t)
        if m:
            sec = int(m.group(1))
        sec_at.append(sec)
    defs, bodies, i = {}, [], 0
    while i < len(code):
        t = code[i]
        m = SIG.match(t)
        if m and not t.startswith(("typedef", "#", " ", "\t", "}")):
            j = i
            while j < len(code) and not code[j].startswith("{") and not code[j].rstrip().endswith(";"):
                j += 1
            if j < len(code) and code[j].startswith("{"):
                k = j + 1
                while k < len(code) and not code[k].startswith("}"):
                    k += 1
                defs.setdefault(m.group(1), (sec_at[i], i + 1))
                bodies.append((m.group(1), sec_at[i], j, k))
                i = k + 1
                continue
        i += 1
    return defs, bodies, code


def calls(defs, bodies, code):
    """[(line, caller, caller's section, callee, callee's section)] across sections"""
    out = []
    for name, s, a, b in bodies:
        for ln in range(a, b + 1):
            for m in re.finditer(r"\b([a-z_][a-z0-9_]*)\s*\(", code[ln]):
                c = m.group(1)
                if c in defs and c != name and defs[c][0] != s:
                    out.append((ln + 1, name, s, c, defs[c][0]))
    return out


def main():
    verbose = "-v" in sys.argv
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) < 2 or args[0] not in ("order", "header"):
        sys.exit(__doc__)
    defs, bodies, code = parse(args[1])
    cross = calls(defs, bodies, code)
    if args[0] == "order":
        bad = [c for c in cross if c[4] > c[2]]
        print("srcmap: %d functions, %d call sites into a later section" % (len(defs), len(bad)))
        if verbose:
            for ln, name, s, c, cs in bad:
                print("  bench.c:%d: %s (%d) -> %s (%d)" % (ln, name, s, c, cs))
        return 1 if bad else 0
    hdr = blank(open(args[2], encoding="utf-8").read())
    declared = set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*(?:B_\w+(?:\([^)]*\))?\s*)*;", hdr))
    declared = {d for d in declared if d in defs or re.search(r"BENCH_API[^;]*\b%s\s*\(" % d, hdr)}
    need = sorted({c[3] for c in cross})
    missing = [n for n in need if n not in declared]
    stale = sorted(d for d in declared if d not in defs)
    print("srcmap: %d functions called across sections, %d declared in %s, %d missing, %d stale"
          % (len(need), len([n for n in need if n in declared]), args[2], len(missing), len(stale)))
    if verbose:
        for n in missing:
            print("  missing: %s (section %d)" % (n, defs[n][0]))
        for n in stale:
            print("  stale: %s (declared, not defined in bench.c)" % n)
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
