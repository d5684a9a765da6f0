#!/usr/bin/env python3
"""The mutant list (tests/mutants.txt) for tests/mutate.sh.

  mutants.py check LIST SRC            every literal occurs exactly once in SRC and its
                                       "section:" tag names the section it sits in, else exit 2
  mutants.py ids LIST [--fast]         "ID<TAB>SECTION<TAB>KIND<TAB>UNITGROUP" per mutant
  mutants.py apply LIST SRC ID OUT     write SRC with mutant ID applied to OUT
  mutants.py selftest                  check's rules on a made-up source (run.sh's "mutants")

A mutant is a block of lines (blank lines separate blocks, '#' starts a comment line):
  id: hist-upper-edge
  section: 4 hist_               (the section of SRC the literal sits in: the number of the
                                  "/*== N prefixes : ..." banner above it and the prefix of
                                  the function it is in, or the banner's first prefix)
  why: percentiles reported at the bucket's upper edge
  fast: hist_percentile          (optional: in the fast subset, killed by this unit group)
  equivalent: the reason         (optional: not run and not counted)
  - a literal line of bench.c    (one or more: joined with newlines, matched exactly once)
  + its replacement line         (zero or more: joined with newlines)
The text after "- " / "+ " is taken verbatim (no escapes).
"""
import re
import sys


def parse(path):
    muts, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                cur = None
                continue
            if line.startswith("#"):
                continue
            if cur is None:
                cur = {"line": no, "find": [], "repl": [], "fast": "", "equivalent": ""}
                muts.append(cur)
            if line.startswith("- ") or line == "-":
                cur["find"].append(line[2:])
            elif line.startswith("+ ") or line == "+":
                cur["repl"].append(line[2:])
            elif ":" in line:
                k, v = line.split(":", 1)
                k = k.strip()
                if k not in ("id", "section", "why", "fast", "equivalent"):
                    sys.exit(f"mutants: {path}:{no}: unknown field '{k}'")
                cur[k] = v.strip()
            else:
                sys.exit(f"mutants: {path}:{no}: not 'field: value', '- literal' or '+ replacement'")
    seen = set()
    for m in muts:
        for k in ("id", "section", "why"):
            if not m.get(k):
                sys.exit(f"mutants: {path}:{m['line']}: the mutant has no '{k}:'")
        if not m["find"]:
            sys.exit(f"mutants: {path}:{m['line']}: mutant {m['id']} has no '- literal' line")
        if m["id"] in seen or "\t" in m["id"] or " " in m["id"]:
            sys.exit(f"mutants: {path}:{m['line']}: mutant id '{m['id']}' is repeated or has blanks")
        seen.add(m["id"])
        m["find"] = "\n".join(m["find"])
        m["repl"] = "\n".join(m["repl"])
        if m["find"] == m["repl"]:
            sys.exit(f"mutants: {path}:{m['line']}: mutant {m['id']} changes nothing")
    return muts


BANNER = re.compile(r"^/\*== (\d+) (.*?) ?:", re.M)
FUNC = re.compile(r"^[A-Za-z_][\w \*]*?\b([a-z][a-z0-9]*_)\w*\(", re.M)


def section_at(src, pos):
    """The tag ("N prefix_") of the section that holds src[pos]: the last banner above it;
    of its prefixes, the one the enclosing function carries, else the first."""
    ban = [m for m in BANNER.finditer(src, 0, pos + 1)]
    if not ban:
        return None
    num = ban[-1].group(1)
    pres = [p.strip() for p in ban[-1].group(2).split(",") if p.strip().endswith("_")]
    fns = [m for m in FUNC.finditer(src, ban[-1].end(), pos + 1)]
    fn = fns[-1].group(0) if fns else ""
    name = re.search(r"\b([a-z]\w*)\($", fn)
    for p in pres:
        if name and name.group(1).startswith(p):
            return f"{num} {p}"
    return f"{num} {pres[0]}" if pres else num


def stale(muts, src):
    """The complaints of check: a literal not found exactly once, a tag not its section's."""
    out = []
    for m in muts:
        n = src.count(m["find"])
        if n != 1:
            out.append((m, f"its literal occurs {n} times, not once"))
            continue
        want = section_at(src, src.find(m["find"]))
        if " ".join(m["section"].split()) != want:
            out.append((m, f"'section: {m['section']}', but its literal sits in section '{want}'"))
    return out


def selftest():
    import os
    import tempfile
    src = ("/*== 1 — : includes ==*/\nint x;\n"
           "/*== 4 clk_, hist_ : clock, histogram ==*/\n"
           "static u64 clk_now(void)\n{\n    return 1;\n}\n"
           "static int hist_pct(int p)\n{\n    return p + 2;\n}\n"
           "/*== 5 unit_ : sizes ==*/\nstatic int unit_k(void)\n{\n    return 3;\n}\n")
    cases = [("4 hist_", "return p + 2;", True), ("4 clk_", "return p + 2;", False),
             ("5 hist_", "return p + 2;", False), ("4 clk_", "return 1;", True),
             ("5 unit_", "return 3;", True), ("4 unit_", "return 3;", False),
             ("5 unit_", "return", False), ("1", "int x;", True)]
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for tag, lit, good in cases:
            p = os.path.join(d, "l.txt")
            with open(p, "w", encoding="utf-8") as f:
                f.write(f"id: m\nsection: {tag}\nwhy: w\n- {lit}\n+ x\n")
            got = not stale(parse(p), src)
            if got != good:
                bad += 1
                print(f"mutants: selftest: tag '{tag}' of '{lit}': check says "
                      f"{'current' if got else 'stale'}, wanted {'current' if good else 'stale'}")
    print(f"mutants: selftest: {len(cases) - bad} of {len(cases)} cases right")
    sys.exit(1 if bad else 0)


def main():
    if sys.argv[1:] == ["selftest"]:
        selftest()
    cmd, lst = sys.argv[1], sys.argv[2]
    muts = parse(lst)
    if cmd == "check":
        src = open(sys.argv[3], encoding="utf-8").read()
        bad = stale(muts, src)
        for m, why in bad:
            print(f"mutate: STALE mutant {m['id']} ({lst}:{m['line']}) in {sys.argv[3]}: {why} "
                  "(fix the literal, or the tag when a section moved):\n  "
                  + m["find"].replace("\n", "\n  "), file=sys.stderr)
        sys.exit(2 if bad else 0)
    if cmd == "ids":
        fast = "--fast" in sys.argv[3:]
        for m in muts:
            if fast and not m["fast"]:
                continue
            kind = "equivalent" if m["equivalent"] else "run"
            print(f"{m['id']}\t{m['section']}\t{kind}\t{m['fast'] or '-'}")
        return
    if cmd == "apply":
        src_path, mid, out = sys.argv[3], sys.argv[4], sys.argv[5]
        src = open(src_path, encoding="utf-8").read()
        m = next((m for m in muts if m["id"] == mid), None)
        if m is None:
            sys.exit(f"mutate: no mutant '{mid}' in {lst}")
        if src.count(m["find"]) != 1:
            sys.exit(f"mutate: STALE mutant {mid}: its literal does not occur exactly once")
        with open(out, "w", encoding="utf-8") as f:
            f.write(src.replace(m["find"], m["repl"], 1))
        return
    sys.exit(f"mutants: unknown command {cmd}")


if __name__ == "__main__":
    main()
