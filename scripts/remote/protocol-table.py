#!/usr/bin/env python3
"""Table of scripts/remote/protocol-bench.sh's CSVs: per benchmark and size, the median over the rounds
of each source's median, and each jshmem protocol's overhead over the MPI it rides on (time per
operation: +x%; latency: +x us).  protocol-table.py OUTDIR"""
import csv, glob, statistics, sys, pathlib

d = pathlib.Path(sys.argv[1])
cols = [('mpi', 'round*-mpi.csv'), ('jshmem-rma', 'round*-rma-*.csv'),
        ('mpi-2sided', 'round*-mpi-2sided.csv'), ('jshmem-messages', 'round*-messages-*.csv')]
vals, units = {}, {}
for name, pattern in cols:
    for f in sorted(d.glob(pattern)):
        if name == 'mpi' and '2sided' in f.name:
            continue
        rows = [l for l in open(f) if not l.startswith('#')]
        for r in csv.DictReader(rows):
            key = (r['benchmark'], int(r['size_bytes']))
            vals.setdefault((name,) + key, []).append(float(r['median']))
            units[key] = r['unit']

def fmt(size):
    return f'{size >> 20}M' if size >= 1 << 20 else f'{size >> 10}K' if size >= 1 << 10 else str(size)

def over(j, m, unit):
    if j is None or m is None:
        return ''
    return f'{m / j * 100 - 100:+.0f}%' if unit == 'GB/s' else f'{j - m:+.2f} us'

print('| benchmark | size | MPI one-sided | jshmem rma | overhead | MPI two-sided | jshmem messages | overhead |')
print('|---|---|---|---|---|---|---|---|')
for key in sorted(units, key=lambda k: (['put_bw', 'get_bw', 'put_latency', 'get_latency'].index(k[0]), k[1])):
    unit = units[key]
    med = {n: statistics.median(vals[(n,) + key]) if (n,) + key in vals else None for n, _ in cols}
    if med['jshmem-rma'] is None and med['jshmem-messages'] is None:
        continue
    cell = lambda v: '' if v is None else f'{v:.3f} {unit}' if unit == 'GB/s' else f'{v:.2f} us'
    print(f"| {key[0]} | {fmt(key[1])} | {cell(med['mpi'])} | {cell(med['jshmem-rma'])} | "
          f"{over(med['jshmem-rma'], med['mpi'], unit)} | {cell(med['mpi-2sided'])} | {cell(med['jshmem-messages'])} | "
          f"{over(med['jshmem-messages'], med['mpi-2sided'], unit)} |")
