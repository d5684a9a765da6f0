#!/usr/bin/env python3
"""Mask the timing-dependent numbers of a sysbench result, field by field, keeping widths.

  tests/mask_timing.py [--stddev] < OUTPUT > MASKED
  tests/mask_timing.py [--stddev] FILE...      (writes FILE.m for each)

Only the fields whose value depends on timing are masked (rates, times, latencies, interval
lines; with --stddev, the events stddev of a multi-thread run); counts, sizes, MiB
transferred, the events average and every message stay exact. A masked number keeps its
field: the spaces before it and its digits become spaces ending in one 9, so a right-aligned
field keeps its end column, and its decimals become 9s, so the precision is compared
("%8.2f" -> "    9.99"). A left-aligned number ("%.2f", "%4.2f": its width is the value's)
becomes 9 and its decimals 9s, the padding before it kept. The banner's build note becomes (X).
"""
import re
import sys

NUM = r'(\s*)(\d+)(\.\d+)?'


def canon(m):
    """spaces + digits (+ decimals) -> the same width, one 9, decimals as 9s"""
    sp, whole, frac = m.group(1), m.group(2), m.group(3) or ''
    if not sp:   # not right-aligned in a field: its width is the value's
        return '9' + re.sub(r'\d', '9', frac)
    return ' ' * (len(sp) + len(whole) - 1) + '9' + re.sub(r'\d', '9', frac)


def free(m):
    """a left-aligned number ("%.2f", "%4.2f"): its width is the value's; the spaces before
    it stay (they are the label's padding); its decimals become 9s"""
    return '9' + re.sub(r'\d', '9', m.group(2) or '')


def mask_after(line, start, field):
    """mask every number from column start on: right-aligned fields keep their width"""
    if field:
        return line[:start] + re.sub(NUM, canon, line[start:])
    return line[:start] + re.sub(r'(\d+)(\.\d+)?', free, line[start:])


# (line pattern, right-aligned field?): sysbench's formats
TIMING = [
    (r'^\s+events per second:', True),                    # %8.2f
    (r'^\s+total time:', False),                           # %.4fs
    (r'^\s+(min|avg|max|sum|[\d.]+th percentile):', True),  # %39.2f, %27.2f
    (r'^\s+execution time \(avg/stddev\):', False),        # %.4f/%3.2f
    (r'^\s+(reads|writes|fsyncs)/s:', False),              # %4.2f
    (r'^\s+(read|written), MiB/s:', False),                # %4.2f
    (r'^Total operations: \d+', False),                     # (%.2f per second)
    (r'^[\d.]+ MiB transferred', False),                    # (%.2f MiB/sec)
    (r'^\s+(transactions|queries|ignored errors|reconnects):\s+\d+', False),
    (r'^\d+ bytes written in', False),                      # fileio prepare: %.2f, %.2f
    (r'^\s+[\d.]+ \|', True),                                # histogram rows: %12.3f |bar count
]


def mask(line, stddev):
    m = re.match(r'^(sysbench 1\.0\.20) \(.*\)$', line)
    if m:
        return m.group(1) + ' (X)'
    m = re.match(r'^\[ \d+s \] (thds: \d+)?', line)
    if m:   # interval lines: every value (not the percentile labels), width-free
        return line[:m.end()] + re.sub(r'(?<=[ /:,])\d+(\.\d+)?(?![\d.]*%)',
                                       lambda x: '9' + re.sub(r'\d', '9', x.group(1) or ''), line[m.end():])
    if line.startswith('DEBUG: ') and re.search(r' (min|avg|max|total time taken by event execution): ', line):
        # --debug's per-thread times: each "%.4fs"
        return re.sub(r'\d+\.(\d+)s', lambda x: '9.' + '9' * len(x.group(1)) + 's', line)
    for pat, field in TIMING:
        m = re.match(pat, line)
        if m:
            if pat == r'^\s+[\d.]+ \|':     # the bar's length follows the count
                bar = line.index('|')
                return re.sub(NUM, canon, line[:bar]) + '|' + re.sub(NUM, canon, line[bar + 1:].replace('*', ' '))
            return mask_after(line, m.end(), field)
    m = re.match(r'^(\s+events \(avg/stddev\):\s+[\d.]+/)', line)
    if m and stddev:
        return mask_after(line, m.end(), False)
    return line


def main():
    stddev = '--stddev' in sys.argv[1:]
    files = [a for a in sys.argv[1:] if a != '--stddev']
    if not files:       # a filter
        sys.stdout.write('\n'.join(mask(l, stddev) for l in sys.stdin.read().split('\n')))
    for f in files:     # FILE -> FILE.m (one process for many files: python starts slowly)
        with open(f, errors='surrogateescape') as i, open(f + '.m', 'w', errors='surrogateescape') as o:
            o.write('\n'.join(mask(l, stddev) for l in i.read().split('\n')))
    return 0


if __name__ == '__main__':
    sys.exit(main())
