"""Tabulates a call's GemmMain CSVs: per case (run kind, shape, dtype) each variant's TFLOP/s in run order, and the
range of cuBLAS timed alike (ref_tflops_per_pe) over the same runs. Usage: python3 summarize.py callN"""
import collections, csv, glob, sys

rows = collections.defaultdict(lambda: collections.defaultdict(list))
ref = collections.defaultdict(list)
variants = []
for f in sorted(glob.glob(sys.argv[1] + '/*.csv'), key=lambda f: f.rsplit('-', 1)[-1]):
    v, name = f.split('/')[-1][:-4].split('-', 1)
    kind = name.rsplit('-', 1)[0]
    if v not in variants:
        variants.append(v)
    for r in csv.DictReader(open(f)):
        key = (kind if not kind.startswith('B') else (kind.split('-') + ['auto'])[1], f"{r['m']}x{r['n']}x{r['k']}", r['dtype'])
        rows[key][v].append(float(r['tflops_per_pe']))
        ref[key].append(float(r['ref_tflops_per_pe']))
for key in sorted(rows):
    cells = '  '.join(f"{v}: {'/'.join(f'{x:.0f}' for x in rows[key][v])}" for v in variants if rows[key][v])
    print(f"{key[0]:11} {key[1]:15} {key[2]:5} {cells}   cuBLAS alike {min(ref[key]):.0f}-{max(ref[key]):.0f}")
