#!/usr/bin/env python3
"""Invariants every bench / sysbench result must satisfy, whatever the timings.

  BENCH ARGS... | tests/check_result.py [--tee] [--quiet] -- ARGS...
  tests/check_result.py --selftest

Reads a result (either persona; cpu, memory, threads, mutex, fileio, OLTP, ping, --histogram,
--report-interval lines, --percentile lists) on stdin and checks the relations between its
numbers, using the command line after `--` (the same ARGS the binary got) for what the run
was asked to do. Fails (exit 1, one line per broken invariant) on any violation, and when it
finds nothing it knows how to check. --tee copies the input to stdout first; on success it
prints "invariants: N hold". --selftest feeds hand-made wrong blocks and fails unless every
invariant catches its wrong block.

Rounding: a printed value with d decimals stands for an interval of +-0.5e-d; each relation is
checked over those intervals, plus SLACK (relative) for the timer differences between lines.
"""
import math
import re
import sys

SLACK = 0.002          # relative slack for rates derived from the printed total time
RATE_SIGMAS = 6        # --rate: achieved events within 6 sigma of a Poisson process (a false
                       # failure below 5e-9 a check at 100/s; 4.5 sigma was 5e-6)
HIST_TOL = 0.025       # a percentile within 2.5% of its histogram row (sysbench: 1.8% buckets)

SIZE_UNITS = {'': 1, 'b': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}


def size(v):
    m = re.fullmatch(r'(\d+)([bkmgtBKMGT]?)', v.strip())
    if not m:
        raise ValueError('bad size ' + v)
    return int(m.group(1)) * SIZE_UNITS[m.group(2).lower()]


def boolopt(v):
    return v in ('', 'on', 'true', 'yes', '1')


class Num:
    """A printed number: its value and half its last digit (the rounding interval)."""
    def __init__(self, s):
        s = s.strip()
        self.v = float(s)
        d = len(s.split('.')[1]) if '.' in s else 0
        self.e = 0.5 * 10 ** -d if d else 0.0

    @property
    def lo(self):
        return self.v - self.e

    @property
    def hi(self):
        return self.v + self.e


def parse_args(argv):
    o = {'threads': 1, 'events': None, 'time': 10.0, 'rate': 0.0, 'warmup': 0.0,
         'percentile': [95.0], 'interval': 0, 'test': None, 'cmd': None, 'file': {}, 'oltp': {},
         'mem': {}}
    positional = []
    alias = {'num-threads': 'threads', 'max-requests': 'events', 'max-time': 'time'}
    for a in argv:
        if a.startswith('--'):
            k, _, v = a[2:].partition('=')
            k = alias.get(k.replace('_', '-'), k.replace('_', '-'))
            if k == 'threads':
                o['threads'] = int(v)
            elif k == 'events':
                o['events'] = int(v)
            elif k == 'time':
                o['time'] = float(v)
            elif k == 'rate':
                o['rate'] = float(v)
            elif k == 'warmup-time':
                o['warmup'] = float(v)
            elif k == 'report-interval':
                o['interval'] = int(v)
            elif k == 'percentile':
                o['percentile'] = [float(x) for x in v.split(',') if x]
            elif k == 'test':
                o['test'] = v
            elif k.startswith('file-'):
                o['file'][k[5:]] = v
            elif k.startswith('memory-'):
                o['mem'][k[7:]] = v
            else:
                o['oltp'][k] = v
        elif not a.startswith('-'):
            positional.append(a)
    for p in positional:
        if p in ('run', 'prepare', 'cleanup', 'help', 'prewarm'):
            o['cmd'] = p
        elif o['test'] is None:
            o['test'] = p.rsplit('/', 1)[-1].replace('.lua', '')
    return o


class Checker:
    def __init__(self, text, opts):
        self.lines = text.splitlines()
        self.text = text
        self.o = opts
        self.fails = []
        self.held = 0

    def ok(self, cond, name, detail):
        if cond:
            self.held += 1
        else:
            self.fails.append('%s: %s' % (name, detail))

    def find(self, pattern, group=1):
        m = re.search(pattern, self.text, re.M)
        return m.group(group) if m else None

    def num(self, pattern):
        s = self.find(pattern)
        return Num(s) if s is not None else None

    def run(self):
        self.general()
        self.latency()
        self.fairness()
        self.cpu()
        self.memory()
        self.fileio()
        self.oltp()
        self.histogram()
        self.intervals()
        self.ping()
        if self.held == 0 and not self.fails:
            self.fails.append('nothing: no result block found to check')
        return self.fails

    # General statistics: events, time, --events, warmup, --rate
    def general(self):
        self.t = self.num(r'^\s+total time:\s+([\d.]+)s$')
        ev = self.find(r'^\s+total number of events:\s+(\d+)$')
        self.events = int(ev) if ev is not None else None
        if self.t is None or self.events is None:
            return
        o = self.o
        if o['test'] == 'memory':
            pass     # memory sets its own limit from --memory-total-size; --events is ignored
        elif o['events'] and o['time'] == 0 and o['test'] not in ('mutex',) and 'oltp_' not in (o['test'] or '') \
                and 'select_random' not in (o['test'] or ''):
            # --events=N bounded only by N: exactly N (warmup events excluded)
            self.ok(self.events == o['events'], 'events',
                    'total number of events %d, --events=%d' % (self.events, o['events']))
        elif o['events'] and o['test'] not in ('mutex', 'memory'):
            self.ok(self.events <= o['events'], 'events',
                    'total number of events %d exceeds --events=%d' % (self.events, o['events']))
        if o['test'] == 'mutex':
            self.ok(self.events == o['threads'], 'events',
                    'mutex: %d events, one per thread expected (%d)' % (self.events, o['threads']))
        if o['time'] and not o['events']:
            self.ok(self.t.v <= o['time'] + 1.0, 'time',
                    'total time %s exceeds --time=%g (+1 s)' % (self.t.v, o['time']))
            if o['test'] not in ('memory', 'mutex'):   # they end when their work is done
                self.ok(self.t.hi >= o['time'] * (1 - SLACK), 'time',
                        'total time %s ends before --time=%g' % (self.t.v, o['time']))
        if o['rate'] and o['time'] and not o['events'] and self.t.v > 0:
            # arrivals are a Poisson process: within RATE_SIGMAS standard deviations
            exp = o['rate'] * self.t.v
            self.ok(abs(self.events - exp) <= RATE_SIGMAS * math.sqrt(exp) + 2, 'rate',
                    'achieved %.2f events/s, --rate=%g' % (self.events / self.t.v, o['rate']))

    def rate_ok(self, name, count, rate):
        """rate (a Num) == count / total time within the printed precisions."""
        t = self.t
        if t is None or rate is None or t.hi <= 0:
            return
        lo = count / t.hi if t.hi > 0 else 0
        hi = count / t.lo if t.lo > 0 else float('inf')
        self.ok(rate.hi >= lo * (1 - SLACK) and rate.lo <= hi * (1 + SLACK), name,
                '%s printed, %s / %ss = %.2f' % (rate.v, count, t.v, count / t.v if t.v else 0))

    def latency(self):
        blk = re.search(r'^Latency \(ms\):\n((?:\s+.+:\s+(?:[\d.]+|disabled)\n?)+)', self.text, re.M)
        if not blk:
            return
        vals = {}
        pct = []
        for line in blk.group(1).splitlines():
            m = re.match(r'\s+(.+):\s+([\d.]+)$', line)
            if not m:
                continue
            k, v = m.group(1), Num(m.group(2))
            pm = re.fullmatch(r'([\d.]+)th percentile', k)
            if pm:
                pct.append((float(pm.group(1)), v))
            else:
                vals[k] = v
        mn, avg, mx, sm = vals.get('min'), vals.get('avg'), vals.get('max'), vals.get('sum')
        self.lat = vals
        self.pct = pct
        if None in (mn, avg, mx, sm):
            self.fails.append('latency: block lacks min/avg/max/sum')
            return
        self.ok(mn.lo <= avg.hi and avg.lo <= mx.hi, 'latency order',
                'min %s <= avg %s <= max %s' % (mn.v, avg.v, mx.v))
        want = [p for p in self.o['percentile'] if p > 0]
        self.ok([p for p, _ in pct] == want, 'percentile lines',
                'printed %s, --percentile %s' % ([p for p, _ in pct], want))
        for p, v in pct:
            self.ok(mn.lo <= v.hi and v.lo <= mx.hi, 'percentile range',
                    '%gth percentile %s outside [min %s, max %s]' % (p, v.v, mn.v, mx.v))
        for (p1, v1), (p2, v2) in zip(pct, pct[1:]):
            self.ok(v1.lo <= v2.hi, 'percentile order',
                    '%gth %s > %gth %s' % (p1, v1.v, p2, v2.v))
        if self.events:
            # sum / events == avg
            self.ok(sm.lo / self.events - 1e-9 <= avg.hi and avg.lo <= sm.hi / self.events + 1e-9,
                    'latency avg', 'sum %s / %d events != avg %s' % (sm.v, self.events, avg.v))
            self.ok(mx.lo <= sm.hi + 1e-9, 'latency sum', 'max %s > sum %s' % (mx.v, sm.v))
        if self.t is not None and self.o['threads']:
            # every thread's busy time fits in the run: sum <= threads x total time
            self.ok(sm.lo <= self.o['threads'] * self.t.hi * 1000 * (1 + SLACK) + 1, 'latency sum',
                    'sum %s ms > %d threads x %ss' % (sm.v, self.o['threads'], self.t.v))

    def fairness(self):
        ev = re.search(r'^\s+events \(avg/stddev\):\s+([\d.]+)/([\d.]+)$', self.text, re.M)
        ex = re.search(r'^\s+execution time \(avg/stddev\):\s+([\d.]+)/([\d.]+)$', self.text, re.M)
        n = self.o['threads']
        if ev and self.events is not None:
            a, sd = Num(ev.group(1)), Num(ev.group(2))
            self.ok(abs(a.v - self.events / n) <= a.e + 1e-9, 'fairness events',
                    'avg %s, %d events / %d threads = %.4f' % (a.v, self.events, n, self.events / n))
            # population stddev of n counts with mean a is at most a*sqrt(n-1)
            self.ok(sd.lo <= a.hi * math.sqrt(max(n - 1, 0)) + 1e-9, 'fairness events',
                    'stddev %s impossible for avg %s over %d threads' % (sd.v, a.v, n))
        if ex:
            a = Num(ex.group(1))
            sm = getattr(self, 'lat', {}).get('sum')
            if sm is not None:
                exp = sm.v / 1000 / n
                self.ok(abs(a.v - exp) <= a.e + sm.e / 1000 / n + 1e-4, 'fairness time',
                        'avg %s s, latency sum %s ms / %d threads = %.4f' % (a.v, sm.v, n, exp))
            if self.t is not None:
                self.ok(a.lo <= self.t.hi * (1 + SLACK), 'fairness time',
                        'avg execution time %s > total time %s' % (a.v, self.t.v))

    def cpu(self):
        eps = self.num(r'^\s+events per second:\s+([\d.]+)$')
        if eps is not None and self.events is not None:
            self.rate_ok('events/s', self.events, eps)

    def memory(self):
        m = re.search(r'^Total operations: (\d+) \(\s*([\d.]+) per second\)$', self.text, re.M)
        if not m:
            return
        ops, ps = int(m.group(1)), Num(m.group(2))
        self.ok(self.events is None or ops == self.events, 'memory ops',
                'Total operations %d, events %s' % (ops, self.events))
        self.rate_ok('memory ops/s', ops, ps)
        bs = size(self.o['mem'].get('block-size', '1K'))
        mib = re.search(r'^([\d.]+) MiB transferred \(([\d.]+) MiB/sec\)$', self.text, re.M)
        if mib:
            tr = Num(mib.group(1))
            exp = ops * bs / 2 ** 20
            self.ok(abs(tr.v - exp) <= tr.e + 1e-9, 'MiB transferred',
                    '%s printed, %d ops x %d B = %.2f MiB' % (tr.v, ops, bs, exp))
            self.rate_ok('MiB/sec', exp, Num(mib.group(2)))
        total = size(self.o['mem'].get('total-size', '100G'))
        n = self.o['threads']
        if self.o['time'] == 0:
            per = total // bs // n
            self.ok(ops == per * n, 'memory ops',
                    '%d ops, --memory-total-size / block / threads x threads = %d' % (ops, per * n))

    # fileio: the sysbench event sequence (spec/sysbench.md "Periodic fsync")
    def fileio_expect(self):
        f, o = self.f, self.o
        mode = f.get('test-mode')
        n = o['events']
        if not n or o['time'] != 0 or f.get('io-mode', 'sync') != 'sync' \
                or int(f.get('merged-requests', '0')) != 0:
            return None
        files = int(f.get('num', '128'))
        freq = int(f.get('fsync-freq', '100'))
        fall = boolopt(f.get('fsync-all', 'off'))
        fend = boolopt(f.get('fsync-end', 'on'))
        if o['threads'] != 1:
            # several threads share the events: exact only without periodic fsyncs in a mode
            # that only writes (every event a write; each thread fsyncs every file at the end)
            if mode not in ('seqwr', 'seqrewr', 'rndwr') or (freq and not fall):
                return None
            return 0, n, n if fall else files * o['threads'] if fend else 0, 0
        ratio = float(f.get('rw-ratio', '1.5'))
        reads = writes = fsyncs = ios = 0
        dirty = False
        ev = 0
        while ev < n:
            if not fall and freq and dirty and ios and ios % freq == 0:
                for _ in range(files):     # a burst of one fsync event per file
                    if ev >= n:
                        break
                    fsyncs += 1
                    ev += 1
                dirty = False
                if ev >= n:
                    break
            if mode in ('seqrd', 'rndrd'):
                op = 'r'
            elif mode in ('seqwr', 'seqrewr', 'rndwr'):
                op = 'w'
            elif mode == 'rndrw':
                op = 'r' if (reads + 1) / (writes + 1) < ratio else 'w'
            else:
                return None
            if op == 'r':
                reads += 1
            else:
                writes += 1
                dirty = True
                if fall:
                    fsyncs += 1
            ios += 1
            ev += 1
        events_fsyncs = 0 if fall else fsyncs
        if fend and not fall and mode not in ('seqrd', 'rndrd'):
            fsyncs += files * o['threads']
        return reads, writes, fsyncs, events_fsyncs

    def fileio(self):
        if 'File operations:' not in self.text:
            return
        self.f = self.o['file']
        rs = self.num(r'^\s+reads/s:\s+([\d.]+)$')
        ws = self.num(r'^\s+writes/s:\s+([\d.]+)$')
        fs = self.num(r'^\s+fsyncs/s:\s+([\d.]+)$')
        rmb = self.num(r'^\s+read, MiB/s:\s+([\d.]+)$')
        wmb = self.num(r'^\s+written, MiB/s:\s+([\d.]+)$')
        if None in (rs, ws, fs, rmb, wmb) or self.t is None:
            self.fails.append('fileio: File operations/Throughput block incomplete')
            return
        # the sysbench persona prints rates only: recover the counts (fsyncs include the
        # end-of-test ones, which are no events)
        counts = {op: int(round(r.v * self.t.v)) for op, r in (('read', rs), ('write', ws), ('fsync', fs))}
        fsync_events = None
        if 'Latency by operation' in self.text:
            # bench persona: exact counts of read, write and fsync events
            for op in ('read', 'write', 'fsync'):
                c = self.find(r'^    %s\s+(\d+) ops' % op)
                n = int(c) if c is not None else 0
                if op == 'fsync':
                    fsync_events = n
                    self.ok(n <= counts['fsync'], 'fsync events',
                            '%d fsync events > %d fsyncs' % (n, counts['fsync']))
                else:
                    self.rate_ok('%ss/s' % op, n, rs if op == 'read' else ws)
                    counts[op] = n
        bs = size(self.f.get('block-size', '16K'))
        merged = int(self.f.get('merged-requests', '0'))
        nfiles = int(self.f.get('num', '128'))
        if not merged and size(self.f.get('total-size', '2G')) // nfiles % bs == 0:
            for name, r, mb in (('read MiB/s', rs, rmb), ('written MiB/s', ws, wmb)):
                exp = r.v * bs / 2 ** 20
                self.ok(abs(mb.v - exp) <= mb.e + r.e * bs / 2 ** 20 + exp * SLACK, name,
                        '%s printed, %s ops/s x %d B = %.2f' % (mb.v, r.v, bs, exp))
        exp = self.fileio_expect()
        if exp is not None:
            er, ew, ef, efev = exp
            got = (counts['read'], counts['write'], counts['fsync'])
            if fsync_events is not None:   # bench persona: exact read and write counts
                self.ok(got[:2] == (er, ew), 'fileio counts',
                        'reads/writes %s, formula %s' % (got[:2], (er, ew)))
            # the rates against the formula's counts, within the printed precisions
            n = len(self.fails)
            for op, c, r in (('read', er, rs), ('write', ew, ws), ('fsync', ef, fs)):
                self.rate_ok('%ss/s' % op, c, r)
            if len(self.fails) > n:
                self.fails.append('fileio counts: reads/writes/fsyncs about %s, formula %s' % (got, (er, ew, ef)))
            if fsync_events is not None:
                self.ok(fsync_events == efev, 'fileio counts',
                        '%d fsync events, formula %d' % (fsync_events, efev))
            if self.events is not None:
                self.ok(self.events == er + ew + efev, 'fileio events',
                        '%d events, reads + writes + periodic fsyncs = %d' % (self.events, er + ew + efev))
        elif self.events is not None and self.o['file'].get('io-mode', 'sync') == 'sync':
            # reads + writes <= events (fsync events, merged requests aside)
            self.ok(counts['read'] + counts['write'] <= self.events + 1, 'fileio events',
                    'reads %d + writes %d > %d events' % (counts['read'], counts['write'], self.events))

    # OLTP: SQL statistics
    def oltp(self):
        q = {}
        for k in ('read', 'write', 'other', 'total'):
            v = self.find(r'^\s+%s:\s+(\d+)$' % k)
            if v is not None:
                q[k] = int(v)
        if len(q) < 4:
            return
        self.ok(q['read'] + q['write'] + q['other'] == q['total'], 'oltp queries',
                'read %d + write %d + other %d != total %d' % (q['read'], q['write'], q['other'], q['total']))
        tx = re.search(r'^\s+transactions:\s+(\d+)\s+\(([\d.]+) per sec\.\)$', self.text, re.M)
        qs = re.search(r'^\s+queries:\s+(\d+)\s+\(([\d.]+) per sec\.\)$', self.text, re.M)
        er = re.search(r'^\s+ignored errors:\s+(\d+)\s+\(([\d.]+) per sec\.\)$', self.text, re.M)
        rc = re.search(r'^\s+reconnects:\s+(\d+)\s+\(([\d.]+) per sec\.\)$', self.text, re.M)
        if not (tx and qs and er and rc):
            self.fails.append('oltp: SQL statistics block incomplete')
            return
        T = int(tx.group(1))
        self.ok(int(qs.group(1)) == q['total'], 'oltp queries',
                'queries %s != total %d' % (qs.group(1), q['total']))
        for name, m in (('tps', tx), ('qps', qs), ('errors/s', er), ('reconnects/s', rc)):
            self.rate_ok(name, int(m.group(1)), Num(m.group(2)))
        if self.events is not None:
            self.ok(self.events == T, 'oltp events', 'events %d != transactions %d' % (self.events, T))
        if self.o['events'] and self.o['time'] == 0:
            self.ok(T == self.o['events'], 'oltp events',
                    'transactions %d, --events=%d' % (T, self.o['events']))
        per = self.oltp_per_tx()
        if per is not None:
            pr, pwo = per
            errs = int(er.group(1))
            if errs == 0:
                self.ok(q['read'] == pr * T, 'oltp reads',
                        'read %d, %d per transaction x %d = %d' % (q['read'], pr, T, pr * T))
                self.ok(q['write'] + q['other'] == pwo * T, 'oltp writes',
                        'write %d + other %d, %d per transaction x %d = %d'
                        % (q['write'], q['other'], pwo, T, pwo * T))
                # BEGIN and COMMIT are always other; a write that changed no row is other too
                # (sysbench counts by affected rows), never the reverse
                trx = self.oltp_trx() * T
                self.ok(q['other'] >= trx and q['write'] <= pwo * T - trx, 'oltp other',
                        'write %d, other %d: BEGIN/COMMIT alone make %d other'
                        % (q['write'], q['other'], trx))
            else:
                self.ok(q['read'] >= pr * T, 'oltp reads',
                        'read %d < %d per transaction x %d' % (q['read'], pr, T))

    def oltp_trx(self):
        """BEGIN + COMMIT per transaction: 2 for the scripts that run transactions."""
        if boolopt(self.o['oltp'].get('skip-trx', 'off')) or \
                (self.o['test'] or '') not in ('oltp_read_only', 'oltp_read_write', 'oltp_write_only'):
            return 0
        return 2

    def oltp_per_tx(self):
        """(reads, writes + other) per transaction of the bundled scripts (defaults)."""
        t, a = self.o['test'] or '', self.o['oltp']

        def g(k, d):
            return int(a.get(k, d))
        trx = 0 if boolopt(a.get('skip-trx', 'off')) else 2
        ranges = g('simple-ranges', 1) + g('sum-ranges', 1) + g('order-ranges', 1) + g('distinct-ranges', 1)
        if not boolopt(a.get('range-selects', 'on')):
            ranges = 0
        if t == 'oltp_read_only':
            return g('point-selects', 10) + ranges, trx
        if t == 'oltp_read_write':
            return (g('point-selects', 10) + ranges,
                    trx + g('index-updates', 1) + g('non-index-updates', 1) + 2 * g('delete-inserts', 1))
        if t == 'oltp_write_only':
            return 0, trx + g('index-updates', 1) + g('non-index-updates', 1) + 2 * g('delete-inserts', 1)
        if t in ('oltp_point_select', 'select_random_points', 'select_random_ranges'):
            return 1, 0
        if t in ('oltp_update_index', 'oltp_update_non_index', 'oltp_insert', 'oltp_delete'):
            return 0, 1
        return None

    def histogram(self):
        m = re.search(r'^Latency histogram \(values are in milliseconds\)\n.*\n((?:\s+[\d.]+ \|.*\n)*)',
                      self.text, re.M)
        if not m:
            return
        rows = []
        for line in m.group(1).splitlines():
            r = re.match(r'\s+([\d.]+) \|\**\s+(\d+)$', line)
            if r:
                rows.append((float(r.group(1)), int(r.group(2))))
        total = sum(c for _, c in rows)
        if self.events is not None:
            self.ok(total == self.events, 'histogram count',
                    'rows add up to %d, %d events' % (total, self.events))
        self.ok(all(a[0] < b[0] for a, b in zip(rows, rows[1:])), 'histogram order',
                'values not ascending')
        for p, v in getattr(self, 'pct', []):
            rank = max(1, math.ceil(p / 100 * total))
            cum = 0
            for val, c in rows:
                cum += c
                if cum >= rank:
                    self.ok(abs(v.v - val) <= HIST_TOL * val + v.e, 'histogram percentile',
                            '%gth percentile %s, its histogram row %s' % (p, v.v, val))
                    break

    def intervals(self):
        lines = [l for l in self.lines if re.match(r'\[ \d+s \] (thds|reads|queue)', l)]
        if not lines:
            if self.o['interval'] and self.t is not None and self.t.v >= self.o['interval'] + 0.5 \
                    and 'Threads started' in self.text:
                self.fails.append('intervals: --report-interval=%d but no interval line in %ss'
                                  % (self.o['interval'], self.t.v))
            return
        times = []
        eps = []
        for l in lines:
            ts = int(re.match(r'\[ (\d+)s \]', l).group(1))
            if ' thds: ' in l or ' reads: ' in l:
                times.append(ts)
            lat = re.search(r'lat(?:ency)? \(ms,([\d.,%]+)\): ([\d.,]+)', l)
            if lat:
                vs = [Num(x) for x in lat.group(2).split(',')]
                ps = [float(x.rstrip('%')) for x in lat.group(1).split(',')]
                self.ok(len(vs) == len(ps), 'interval percentiles', l)
                self.ok(all(a.lo <= b.hi for a, b in zip(vs, vs[1:])), 'interval percentile order', l)
            m = re.search(r' tps: ([\d.]+) qps: ([\d.]+) \(r/w/o: ([\d.]+)/([\d.]+)/([\d.]+)\)', l)
            if m:
                q = Num(m.group(2))
                parts = [Num(m.group(i)) for i in (3, 4, 5)]
                self.ok(abs(sum(p.v for p in parts) - q.v) <= q.e + sum(p.e for p in parts) + 1e-9,
                        'interval qps', 'r/w/o do not add up to qps: ' + l)
            m = re.search(r' eps: ([\d.]+)', l)
            if m:
                eps.append(float(m.group(1)))
        iv = self.o['interval']
        if iv and times:
            self.ok(times == [iv * (i + 1) for i in range(len(times))], 'interval times',
                    'interval stamps %s, every %ds expected' % (times, iv))
        if self.o['rate'] and len(eps) >= 2:
            full = eps[:-1]      # the last interval may be partial
            mean = sum(full) / len(full)
            exp = self.o['rate'] * len(full) * (iv or 1)
            self.ok(abs(mean * len(full) * (iv or 1) - exp) <= RATE_SIGMAS * math.sqrt(exp) + 2, 'interval rate',
                    'mean eps %.2f, --rate=%g' % (mean, self.o['rate']))

    # bench ping: round-trip statistics
    def ping(self):
        for l in self.lines:
            m = re.search(r'(\d+) round trips, ms: min ([\d.]+) avg ([\d.]+) p50 ([\d.]+) p95 ([\d.]+) '
                          r'p99 ([\d.]+) max ([\d.]+)$', l)
            if not m:
                continue
            n = int(m.group(1))
            mn, avg, p50, p95, p99, mx = [Num(m.group(i)) for i in range(2, 8)]
            if 'count' in self.o['oltp']:
                self.ok(n == int(self.o['oltp']['count']), 'ping count', '%d round trips, --count=%s'
                        % (n, self.o['oltp']['count']))
            self.ok(mn.lo <= avg.hi <= mx.hi + 2 * mx.e and avg.lo <= mx.hi, 'ping order',
                    'min/avg/max: ' + l.strip())
            seq = [mn, p50, p95, p99, mx]
            self.ok(all(a.lo <= b.hi for a, b in zip(seq, seq[1:])), 'ping percentiles',
                    'min <= p50 <= p95 <= p99 <= max: ' + l.strip())
        c = self.find(r'^\s+connect: ([\d.]+) ms')
        if c is not None:
            self.ok(float(c) >= 0, 'ping connect', c)


GOOD_CPU = """General statistics:
    total time:                          0.2087s
    total number of events:              300

Latency (ms):
         min:                                    0.23
         avg:                                    1.29
         max:                                   24.35
         50th percentile:                        0.26
         95th percentile:                       10.06
         sum:                                  386.76

Threads fairness:
    events (avg/stddev):           100.0000/13.93
    execution time (avg/stddev):   0.1289/0.00
"""
CPU_ARGS = ['cpu', '--events=300', '--time=0', '--threads=3', '--percentile=50,95', 'run']
GOOD_EPS = "CPU speed:\n    events per second:  1437.46\n\n" + GOOD_CPU
GOOD_FIO = """File operations:
    reads/s:                      2800.07
    writes/s:                     1845.50
    fsyncs/s:                     254.55

Throughput:
    read, MiB/s:                  43.75
    written, MiB/s:               28.84

General statistics:
    total time:                          0.0314s
    total number of events:              150

Latency (ms):
         min:                                    0.00
         avg:                                    0.06
         max:                                    3.05
         95th percentile:                        0.05
         sum:                                    8.75

Threads fairness:
    events (avg/stddev):           150.0000/0.00
    execution time (avg/stddev):   0.0087/0.00
"""
FIO_ARGS = ['fileio', '--file-num=4', '--file-total-size=4M', '--file-test-mode=rndrw', '--events=150',
            '--time=0', 'run']
GOOD_OLTP = """SQL statistics:
    queries performed:
        read:                            1400
        write:                           400
        other:                           200
        total:                           2000
    transactions:                        100    (50.00 per sec.)
    queries:                             2000   (1000.00 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          2.0000s
    total number of events:              100

Latency (ms):
         min:                                    1.45
         avg:                                   20.00
         max:                                   28.63
         95th percentile:                       21.63
         sum:                                 2000.00

Threads fairness:
    events (avg/stddev):           100.0000/0.00
    execution time (avg/stddev):   2.0000/0.00
"""
OLTP_ARGS = ['oltp_read_write', '--events=100', '--time=0', 'run']
GOOD_MEM = """Total operations: 16384 (152265.88 per second)

16.00 MiB transferred (148.70 MiB/sec)


General statistics:
    total time:                          0.1076s
    total number of events:              16384

Latency (ms):
         min:                                    0.00
         avg:                                    0.00
         max:                                    0.00
         95th percentile:                        0.00
         sum:                                    0.91

Threads fairness:
    events (avg/stddev):           8192.0000/0.00
    execution time (avg/stddev):   0.0005/0.00
"""
MEM_ARGS = ['memory', '--memory-total-size=16M', '--time=0', '--threads=2', 'run']
GOOD_HIST = """Latency histogram (values are in milliseconds)
       value  ------------- distribution ------------- count
       0.260 |****************************************  50
      10.100 |*                                         46
      24.384 |*                                         4
 
""" + GOOD_CPU.replace('300', '100').replace('100.0000/13.93', '33.3333/13.93').replace(
    '386.76', '129.00').replace('0.1289/0.00', '0.0430/0.00')
HIST_ARGS = ['cpu', '--events=100', '--time=0', '--threads=3', '--percentile=50,95', 'run']
GOOD_IV = """[ 1s ] thds: 2 tps: 337.96 qps: 6847.13 (r/w/o: 4801.39/874.89/1170.85) lat (ms,95%): 12.03 err/s: 3.00 reconn/s: 0.00
[ 2s ] thds: 2 eps: 100.00 lat (ms,50%,99%): 0.10,0.20
[ 3s ] thds: 2 eps: 100.00 lat (ms,50%,99%): 0.10,0.20
"""
GOOD_PING = ("    COM_PING                    5 round trips, ms: min 0.061 avg 0.085 p50 0.080 p95 0.120 "
             "p99 0.120 max 0.121\n")


def selftest():
    """Every invariant must pass its good block and fail its hand-made wrong one."""
    cases = [  # (name, good text, args, (old, new) making it wrong, invariant expected to fire)
        ('min>avg', GOOD_CPU, CPU_ARGS, ('min:                                    0.23',
                                         'min:                                    1.30'), 'latency order'),
        ('max<avg', GOOD_CPU, CPU_ARGS, ('24.35', ' 1.00'), 'latency order'),
        ('p95<p50', GOOD_CPU, CPU_ARGS, ('10.06', ' 0.20'), 'percentile order'),
        ('p>max', GOOD_CPU, CPU_ARGS, ('10.06', '30.06'), 'percentile range'),
        ('pct missing', GOOD_CPU, CPU_ARGS + ['--percentile=50,95,99'], ('', ''), 'percentile lines'),
        ('sum!=avg*n', GOOD_CPU, CPU_ARGS, ('386.76', '586.76'), 'latency avg'),
        ('sum>threads*time', GOOD_CPU, CPU_ARGS + ['--threads=1'], ('', ''), 'latency sum'),
        ('events!=N', GOOD_CPU, CPU_ARGS, ('events:              300', 'events:              600'),
         'events'),
        ('warmup counted', GOOD_CPU, CPU_ARGS + ['--warmup-time=1', '--events=250'], ('', ''), 'events'),
        ('events/s wrong', GOOD_EPS, CPU_ARGS, ('1437.46', '2874.92'), 'events/s'),
        ('fair avg', GOOD_CPU, CPU_ARGS, ('100.0000/13.93', '101.0000/13.93'), 'fairness events'),
        ('fair stddev', GOOD_CPU, CPU_ARGS, ('100.0000/13.93', '100.0000/213.93'), 'fairness events'),
        ('fair time', GOOD_CPU, CPU_ARGS, ('0.1289/0.00', '0.2289/0.00'), 'fairness time'),
        ('fio fsyncs', GOOD_FIO, FIO_ARGS, ('254.55', '127.27'), 'fileio counts'),
        ('fio fsync-all', GOOD_FIO, FIO_ARGS + ['--file-fsync-all'], ('', ''), 'fileio counts'),
        ('fio end fsyncs per thread', GOOD_FIO.replace('2800.07', '0.00').replace('1845.50', '4777.07')
         .replace('254.55', '254.78').replace('43.75', '0.00').replace('28.84', '74.64')
         .replace('150.0000/0.00', '75.0000/0.00').replace('0.0087/0.00', '0.0044/0.00'),
         FIO_ARGS[:3] + ['--file-test-mode=rndwr', '--file-fsync-freq=0', '--threads=2', '--events=150',
                         '--time=0', 'run'], ('254.78', '127.39'), 'fileio counts'),
        ('fio reads', GOOD_FIO, FIO_ARGS, ('2800.07', '2900.07'), 'fileio counts'),
        ('fio MiB/s', GOOD_FIO, FIO_ARGS, ('43.75', '45.75'), 'read MiB/s'),
        ('fio events', GOOD_FIO, FIO_ARGS, ('events:              150', 'events:              146'),
         'fileio events'),
        ('oltp sum', GOOD_OLTP, OLTP_ARGS, ('other:                           200',
                                            'other:                           201'), 'oltp queries'),
        ('oltp other as write', GOOD_OLTP, OLTP_ARGS, ('write:                           400\n'
                                                       '        other:                           200',
                                                       'write:                           600\n'
                                                       '        other:                           0'),
         'oltp other'),
        ('oltp reads', GOOD_OLTP, OLTP_ARGS, ('1400', '1300'), 'oltp reads'),
        ('oltp tps', GOOD_OLTP, OLTP_ARGS, ('(50.00 per sec.)', '(55.00 per sec.)'), 'tps'),
        ('oltp events', GOOD_OLTP, OLTP_ARGS, ('number of events:              100',
                                               'number of events:              101'), 'oltp events'),
        ('mem MiB', GOOD_MEM, MEM_ARGS, ('16.00 MiB transferred', '32.00 MiB transferred'),
         'MiB transferred'),
        ('mem ops', GOOD_MEM, MEM_ARGS, ('Total operations: 16384', 'Total operations: 16380'),
         'memory ops'),
        ('hist count', GOOD_HIST, HIST_ARGS, ('  46\n', '  45\n'), 'histogram count'),
        ('hist pct', GOOD_HIST, HIST_ARGS, ('50th percentile:                        0.26',
                                           '50th percentile:                        0.36'),
         'histogram percentile'),
        ('iv qps', GOOD_IV, ['--report-interval=1'], ('6847.13', '6947.13'), 'interval qps'),
        ('iv lat order', GOOD_IV, ['--report-interval=1'], ('0.10,0.20\n[ 3s', '0.30,0.20\n[ 3s'),
         'interval percentile order'),
        ('iv times', GOOD_IV, ['--report-interval=1'], ('[ 3s ]', '[ 4s ]'), 'interval times'),
        ('iv rate', GOOD_IV, ['--report-interval=1', '--rate=200'], ('', ''), 'interval rate'),
        ('time short', GOOD_EPS, CPU_ARGS[:1] + ['--time=1', '--threads=3', '--percentile=50,95'], ('', ''),
         'time'),
        ('rate', GOOD_EPS, CPU_ARGS[:1] + ['--time=10', '--rate=3000'], ('', ''), 'rate'),
        ('ping order', GOOD_PING, ['ping'], ('p95 0.120', 'p95 0.070'), 'ping percentiles'),
        ('ping min>avg', GOOD_PING, ['ping'], ('min 0.061', 'min 0.091'), 'ping order'),
        ('empty', '', [], ('', ''), 'nothing'),
    ]
    bad = 0
    for name, text, args, (old, new), inv in cases:
        o = parse_args(args)
        good_args = [a for a in args if a not in ('--percentile=50,95,99', '--threads=1', '--warmup-time=1',
                                                  '--events=250', '--file-fsync-all', '--rate=200')]
        if text and old:
            g = Checker(text, parse_args(good_args)).run()
            if g:
                bad += 1
                print('selftest: FAIL %s: the good block fails: %s' % (name, g))
        wrong = text.replace(old, new, 1) if old else text
        if old and wrong == text:
            bad += 1
            print('selftest: FAIL %s: the substitution did not apply' % name)
        fails = Checker(wrong, o).run()
        if not any(f.startswith(inv + ':') for f in fails):
            bad += 1
            print('selftest: FAIL %s: invariant "%s" did not fire (got %s)' % (name, inv, fails))
    print('check_result selftest: %d passed, %d failed' % (len(cases) - bad, bad))
    return 1 if bad else 0


def main(argv):
    if argv[1:2] == ['--selftest']:
        return selftest()
    tee = '--tee' in argv[1:argv.index('--')] if '--' in argv else '--tee' in argv
    quiet = '--quiet' in argv[1:argv.index('--')] if '--' in argv else '--quiet' in argv
    args = argv[argv.index('--') + 1:] if '--' in argv else []
    if args and ('/' in args[0] or args[0] in ('bench', 'sysbench')) and not args[0].endswith('.lua'):
        args = args[1:]
    text = sys.stdin.read()
    if tee:
        sys.stdout.write(text)
    c = Checker(text, parse_args(args))
    fails = c.run()
    for f in fails:
        print('check_result: FAIL ' + f)
    if not fails and not quiet:
        print('invariants: %d hold' % c.held)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
