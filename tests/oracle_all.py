#!/usr/bin/env python3
"""An oracle for `bench all`'s settings and the OLTP ladder's knee (bench all and the `oltp`
one-liner), written from docs/cli.md alone (never from bench.c): it reads bench's JSON
documents and recomputes, from the facts and rungs in them, what the documented rules give.

  oracle_all.py FILE.json...     each a `bench all` or `bench oltp` document (or a test's
                                 document of the same shape); exit 1 on any difference

Rules (docs/cli.md, "bench all" SETTINGS and "oltp" knee):
- RAM: --server-ram, else MemTotal (mem_total_bytes), or the cgroup memory limit when lower; a
  server read on another host without --server-ram: no RAM setting at all.
- innodb_buffer_pool_size: 128 MiB under 1 GiB, 50% from 1 GiB to 4 GiB (both included), 75%
  above, rounded down to a multiple of 128 MiB, at least 128 MiB.
- max_connections: (RAM - buffer pool - key_buffer_size - innodb_log_buffer_size - 1 GiB) / a
  connection's buffers (sort + join + read + read_rnd + thread_stack + binlog_cache when the
  binary log is on + net_buffer_length + min(tmp_table_size, max_heap_table_size); the server's
  values, else MySQL 8.4's defaults), rounded down, within 10..100000.
- innodb_io_capacity: QD32 random-write IOPS x 0.5 to the nearest 100, within 200..20000;
  _max: min(2 x capacity, IOPS) rounded down to 100, at least 2000.
- redo: CPUs/2 GiB within 1..16 GiB.
- knee: a rung's throughput is events / total_time_s; the ladder flattens at the first rung
  (not the last) whose later rungs all stay under 1.10 x its throughput; the knee is the first
  rung reaching 95% of the best, none when that is the last rung; confirmed with two rungs
  past where it flattened.
"""
import json
import math
import sys

G, M = 1073741824.0, 1048576.0
# MySQL 8.4's defaults of a connection's buffers and the globals (docs/cli.md: 17.9 MiB)
DEFAULTS = {"sort_buffer_size": 262144, "join_buffer_size": 262144, "read_buffer_size": 131072,
            "read_rnd_buffer_size": 262144, "thread_stack": 1048576, "binlog_cache_size": 32768,
            "net_buffer_length": 16384, "tmp_table_size": 16777216,
            "max_heap_table_size": 16777216, "key_buffer_size": 8388608,
            "innodb_log_buffer_size": 16777216}

fails = []


def bad(doc, what):
    fails.append(f"{doc}: {what}")


def near(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def buffer_pool(ram):
    bp = 128 * M if ram < G else 0.5 * ram if ram <= 4 * G else 0.75 * ram
    return max(128 * M, math.floor(bp / (128 * M)) * 128 * M)


def conn_bytes(facts):
    v, server = {}, False
    for k, d in DEFAULTS.items():
        f = facts.get("db." + k)
        if isinstance(f, (int, float)) and not isinstance(f, bool) and f >= 0:
            v[k], server = float(f), True
        else:
            v[k] = float(d)
    binlog = facts.get("db.log_bin")
    per = (v["sort_buffer_size"] + v["join_buffer_size"] + v["read_buffer_size"] +
           v["read_rnd_buffer_size"] + v["thread_stack"] + v["net_buffer_length"] +
           min(v["tmp_table_size"], v["max_heap_table_size"]))
    if binlog is None or binlog not in (0, False, "OFF"):
        per += v["binlog_cache_size"]
    return per, v["key_buffer_size"] + v["innodb_log_buffer_size"], server


def settings_of(doc):
    return {s["facts"]["name"]: s["facts"] for s in doc.get("steps", [])
            if s.get("action") == "setting"}


def check_settings(name, doc):
    facts, opts, sets = doc["facts"], doc.get("options", {}), settings_of(doc)
    db_read = any(k.startswith("db.innodb_") for k in facts)
    remote = db_read and facts.get("db.server_local") is False
    sram, scpus = opts.get("server-ram") or 0, opts.get("server-cpus") or 0
    ram = 0.0
    if sram:
        ram = float(sram)
    elif not remote:
        ram = float(facts["mem_total_bytes"])
        lim = facts.get("cgroup_memory_limit_bytes")
        if isinstance(lim, (int, float)) and 0 < lim < ram:
            ram = float(lim)
    if ram <= 0:
        for s in ("innodb_buffer_pool_size", "max_connections"):
            if s in sets:
                bad(name, f"{s} given without the server host's RAM")
        return
    bp = buffer_pool(ram)
    if facts.get("rec.innodb_buffer_pool_size_bytes") != bp:
        bad(name, f"RAM {ram:.0f}: rec.innodb_buffer_pool_size_bytes "
                  f"{facts.get('rec.innodb_buffer_pool_size_bytes')}, the rule gives {bp:.0f}")
    want = f"{bp / M:.0f}M"
    got = sets.get("innodb_buffer_pool_size", {}).get("value")
    if got != want:
        bad(name, f"RAM {ram:.0f}: setting innodb_buffer_pool_size {got}, the rule gives {want}")
    per, glob, _ = conn_bytes(facts)
    conn = min(max(math.floor((ram - bp - glob - G) / per), 10), 100000)
    if facts.get("rec.max_connections") != conn or \
            sets.get("max_connections", {}).get("value") != str(conn):
        bad(name, f"RAM {ram:.0f}: max_connections {facts.get('rec.max_connections')} / "
                  f"{sets.get('max_connections', {}).get('value')}, the rule gives {conn}")
    if not near(facts.get("rec.per_connection_bytes"), per):
        bad(name, f"rec.per_connection_bytes {facts.get('rec.per_connection_bytes')}, "
                  f"the rule gives {per:.0f}")
    cpus = scpus or (0 if remote else facts.get("all.cpus", 0))
    if cpus:
        redo = min(max(cpus / 2, 1), 16)
        rc = sets.get("innodb_redo_log_capacity")
        if rc and rc["value"] not in (f"{redo:g}G", f"{redo * 1024:.0f}M"):
            bad(name, f"{cpus} CPUs: innodb_redo_log_capacity {rc['value']}, the rule gives "
                      f"{redo:g} GiB")
        lf = sets.get("innodb_log_file_size")
        files = facts.get("db.innodb_log_files_in_group") or 1
        if lf and lf["value"] != f"{redo * 1024 / files:.0f}M":
            bad(name, f"{cpus} CPUs: innodb_log_file_size {lf['value']}, the rule gives "
                      f"{redo * 1024 / files:.0f}M")
        if not rc and not lf:
            bad(name, f"{cpus} CPUs: no redo setting")
    iops = facts.get("disk.randwrite_qd32_iops")
    if "rec.innodb_io_capacity" in facts and iops is not None:
        cap = min(max(math.floor(iops * 0.5 / 100 + 0.5) * 100, 200), 20000)
        mx = math.floor(max(min(2 * cap, iops), 2000) / 100) * 100
        if (facts["rec.innodb_io_capacity"], facts.get("rec.innodb_io_capacity_max")) != (cap, mx):
            bad(name, f"IOPS {iops}: io_capacity {facts['rec.innodb_io_capacity']}/"
                      f"{facts.get('rec.innodb_io_capacity_max')}, the rule gives {cap}/{mx}")


def knee(tps):
    """(index of the knee or None, confirmed) by the documented rule."""
    n = len(tps)
    for k in range(n - 1):
        if all(tps[j] < 1.10 * tps[k] for j in range(k + 1, n)):
            best = max(tps)
            r = next(i for i in range(n) if tps[i] >= 0.95 * best)
            if r == n - 1:
                return None, False
            return r, n - 1 - k >= 2
    return None, False


def check_ladder(name, where, facts, steps, wl):
    rungs = [(i, s) for i, s in enumerate(steps) if s.get("workload") == wl and s.get("results")]
    if not rungs:
        return None
    tps = [s["results"]["events"] / s["results"]["total_time_s"] for _, s in rungs]
    thr = [s["results"]["threads"] for _, s in rungs]
    k, conf = knee(tps)
    got = {x: facts.get(f"{wl}_{x}") for x in ("knee_threads", "knee_tps", "knee_step",
                                                "knee_confirmed", "still_rising")}
    say = f"{where}{wl} ladder {list(zip(thr, [round(t, 2) for t in tps]))}"
    if k is None:
        if got["still_rising"] is not True or got["knee_threads"] is not None:
            bad(name, f"{say}: no knee by the rule, bench says knee {got}")
    else:
        want = {"knee_threads": thr[k], "knee_step": rungs[k][0], "knee_confirmed": conf,
                "still_rising": False}
        for x, v in want.items():
            if got[x] != v:
                bad(name, f"{say}: {wl}_{x} {got[x]}, the rule gives {v}")
        if not near(got["knee_tps"], tps[k]):
            bad(name, f"{say}: {wl}_knee_tps {got['knee_tps']}, the rule gives {tps[k]}")
    p = tps.index(max(tps))
    if facts.get(f"{wl}_peak_threads") != thr[p] or not near(facts.get(f"{wl}_peak_tps"), tps[p]):
        bad(name, f"{say}: peak {facts.get(f'{wl}_peak_threads')} threads "
                  f"{facts.get(f'{wl}_peak_tps')} tps, the rule gives {thr[p]}, {tps[p]}")
    if facts.get(f"{wl}_top_threads") != thr[-1]:
        bad(name, f"{say}: top {facts.get(f'{wl}_top_threads')}, the last rung is {thr[-1]}")
    if len(tps) > 1 and not near(facts.get(f"{wl}_last_gain_pct"), (tps[-1] / tps[-2] - 1) * 100):
        bad(name, f"{say}: last gain {facts.get(f'{wl}_last_gain_pct')}%, the rungs give "
                  f"{(tps[-1] / tps[-2] - 1) * 100}%")
    return (thr[k] if k is not None else None, tps[k] if k is not None else None, thr[-1],
            thr[p], tps[p])


def check_all_db(name, doc):
    """bench all: the ladder in its step "oltp", db.oltp_* and the client threads setting."""
    facts, sets = doc["facts"], settings_of(doc)
    lad = [s for s in doc.get("steps", []) if s.get("action") == "oltp"]
    ct = sets.get("client threads", {}).get("value")
    if not lad:
        if "db.oltp_knee_threads" in facts or "db.oltp_top_threads" in facts:
            bad(name, "db.oltp_* facts without the ladder's step")
        return
    st = lad[0]
    check_ladder(name, "bench all: ", st["facts"], st.get("steps", []), "oltp_point_select")
    r = check_ladder(name, "bench all: ", st["facts"], st.get("steps", []), "oltp_read_write")
    if r is None:
        return
    kt, ktps, top, pt, ptps = r
    if facts.get("db.oltp_knee_threads") != kt or not (kt is None or near(facts.get("db.oltp_knee_tps"), ktps)):
        bad(name, f"db.oltp_knee_threads {facts.get('db.oltp_knee_threads')} "
                  f"({facts.get('db.oltp_knee_tps')} tps), the ladder's knee {kt} ({ktps})")
    if facts.get("db.oltp_top_threads") != top or facts.get("db.oltp_peak_threads") != pt or \
            not near(facts.get("db.oltp_peak_tps"), ptps) or facts.get("db.oltp_still_rising") != (kt is None):
        bad(name, f"db.oltp top/peak/still_rising {facts.get('db.oltp_top_threads')}/"
                  f"{facts.get('db.oltp_peak_threads')}/{facts.get('db.oltp_still_rising')}, "
                  f"the ladder's {top}/{pt}/{kt is None}")
    want = str(kt) if kt is not None else f">= {top}"
    if ct != want:
        bad(name, f"client threads {ct}, the ladder gives {want}")


def main():
    checked = 0
    for path in sys.argv[1:]:
        docs = [json.loads(ln) for ln in open(path, encoding="utf-8") if ln.strip()]
        docs = [d for d in docs if d.get("type") == "result"]  # notes go before the result
        if len(docs) != 1:
            bad(path, f"{len(docs)} result documents, wanted 1")
            continue
        doc = docs[0]
        if doc.get("workload") == "all" or any(s.get("action") == "setting" for s in doc.get("steps", [])):
            check_settings(path, doc)
            check_all_db(path, doc)
        if doc.get("workload") == "oltp":
            for wl in ("oltp_point_select", "oltp_read_write"):
                check_ladder(path, "", doc["facts"], doc.get("steps", []), wl)
        checked += 1
    for f in fails:
        print(f"oracle_all: FAIL: {f}")
    print(f"oracle_all: {checked} documents, {len(fails)} differences")
    return 1 if fails or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
