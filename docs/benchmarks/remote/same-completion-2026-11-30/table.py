#!/usr/bin/env python3
"""Tables of run.sh's series: per round, jshmem's overhead over that round's C and Java anchors in the case that
completes the same way, then the median over rounds. Bandwidth: time per operation over the anchor's (anchor GB/s /
jshmem GB/s - 1); latency: the difference in microseconds. The last column compares jshmem's blocking put with the
anchors' batch of puts (put_nbi_bw), the comparison of the earlier series. Usage: table.py DIR > table.md"""
import csv, glob, os, re, statistics, sys

d = sys.argv[1]
WHO = ("c", "java", "jshmem")

def load(who, kind):
    rounds = {}
    files = glob.glob(os.path.join(d, f"{who}-{kind}-r*.csv")) or glob.glob(os.path.join(d, f"{who}-bw-r*.csv"))
    for f in files:   # run-short.sh writes every case of a round into its -bw- file
        r = int(re.search(r"-r(\d+)\.csv$", f).group(1))
        with open(f) as fh:
            rows = {(row["benchmark"], int(row["size_bytes"])): float(row["median"])
                    for row in csv.DictReader(l for l in fh if not l.startswith("#"))}
        if rows:
            rounds[r] = rows
    return rounds

def size(n):
    return f"{n >> 20}M" if n >= 1 << 20 else f"{n >> 10}K" if n >= 1024 else str(n)

def med(v):
    return statistics.median(v) if v else float("nan")

for kind, benches, unit in (("bw", ("put_bw", "put_nbi_bw", "get_bw", "get_nbi_bw"), "GB/s"),
                            ("lat", ("put_latency", "get_latency"), "us")):
    data = {w: load(w, kind) for w in WHO}
    rounds = sorted(set.intersection(*(set(v) for v in data.values())))
    bw = kind == "bw"
    over = (lambda j, a: (a / j - 1) * 100) if bw else (lambda j, a: j - a)
    fmt = (lambda x: f"{x:+.0f}%") if bw else (lambda x: f"{x:+.2f}")
    print(f"\n### {'Bandwidth' if bw else 'Latency'} ({len(rounds)} rounds; {unit}, medians over rounds;"
          f" overhead {'in time per operation' if bw else 'in us'}, the median of the rounds' own, and its range)\n")
    extra = " | jshmem over the C anchor's batch (put_nbi_bw)" if bw else ""
    print(f"| benchmark | size | C anchor | Java anchor | jshmem | Java anchor over C | jshmem over C | range"
          f" | jshmem over Java | range{extra} |")
    print("|---" * (10 + (1 if bw else 0)) + "|")
    keys = sorted({k for r in rounds for k in data["jshmem"][r] if k[0] in benches and (not bw or k[1] >= 4096)},
                  key=lambda k: (benches.index(k[0]), k[1]))
    for k in keys:
        rs = [r for r in rounds if all(k in data[w][r] for w in WHO)]
        o = lambda w, a, b=k: [over(data[w][r][k], data[a][r][b]) for r in rs]
        rng = lambda v: f"{fmt(min(v))} to {fmt(max(v))}"
        line = (f"| {k[0]} | {size(k[1])} | {med([data['c'][r][k] for r in rs]):.3g}"
                f" | {med([data['java'][r][k] for r in rs]):.3g} | {med([data['jshmem'][r][k] for r in rs]):.3g}"
                f" | {fmt(med(o('java', 'c')))} | {fmt(med(o('jshmem', 'c')))} | {rng(o('jshmem', 'c'))}"
                f" | {fmt(med(o('jshmem', 'java')))} | {rng(o('jshmem', 'java'))}")
        if bw:
            line += f" | {fmt(med(o('jshmem', 'c', ('put_nbi_bw', k[1]))))}" if k[0] == "put_bw" else " | "
        print(line + " |")
