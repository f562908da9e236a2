#!/usr/bin/env python3
"""Tables of run.sh's series: per round, each build's overhead over that round's C and Java anchors, then the
median over rounds. Bandwidth: time per operation over the anchor's (anchor GB/s / jshmem GB/s - 1); latency: the
difference in microseconds. Usage: table.py DIR > table.md"""
import csv, glob, os, re, statistics, sys

d = sys.argv[1]

def load(who, kind):
    rounds = {}
    for f in glob.glob(os.path.join(d, f"{who}-{kind}-r*.csv")):
        r = int(re.search(r"-r(\d+)\.csv$", f).group(1))
        rows = {}
        with open(f) as fh:
            for row in csv.DictReader(l for l in fh if not l.startswith("#")):
                rows[(row["benchmark"], int(row["size_bytes"]))] = float(row["median"])
        rounds[r] = rows
    return rounds

def size(n):
    return f"{n >> 20}M" if n >= 1 << 20 else f"{n >> 10}K" if n >= 1024 else str(n)

def med(v):
    return statistics.median(v) if v else float("nan")

for kind, benches, unit in (("bw", ("put_bw", "get_bw"), "GB/s"), ("lat", ("put_latency", "get_latency"), "us")):
    data = {w: load(w, kind) for w in ("c", "java", "base", "new")}
    rounds = sorted(set.intersection(*(set(v) for v in data.values())))
    bw = kind == "bw"
    over = (lambda j, a: (a / j - 1) * 100) if bw else (lambda j, a: j - a)
    fmt = (lambda x: f"{x:+.0f}%") if bw else (lambda x: f"{x:+.2f}")
    print(f"\n### {'Bandwidth' if bw else 'Latency'} ({len(rounds)} rounds; {unit}, medians over rounds;"
          f" overhead {'in time per operation' if bw else 'in us'}, the median of the rounds' own)\n")
    print("| benchmark | size | C anchor | Java anchor | Java anchor over C | base | new | base over C | new over C"
          " | base over Java | new over Java | rounds new faster |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    keys = sorted({k for r in rounds for k in data["new"][r]}, key=lambda k: (benches.index(k[0]), k[1]))
    for k in keys:
        if k[0] not in benches or (bw and k[1] < 4096):
            continue
        v = {w: [data[w][r][k] for r in rounds if k in data[w][r]] for w in data}
        o = lambda w, a: med([over(data[w][r][k], data[a][r][k]) for r in rounds])
        jvm = med([over(data["java"][r][k], data["c"][r][k]) for r in rounds])
        better = sum(1 for r in rounds if (data["new"][r][k] > data["base"][r][k]) == bw)
        print(f"| {k[0]} | {size(k[1])} | {med(v['c']):.3g} | {med(v['java']):.3g} | {fmt(jvm)} | {med(v['base']):.3g}"
              f" | {med(v['new']):.3g} | {fmt(o('base', 'c'))} | {fmt(o('new', 'c'))} | {fmt(o('base', 'java'))}"
              f" | {fmt(o('new', 'java'))} | {better} / {len(rounds)} |")
