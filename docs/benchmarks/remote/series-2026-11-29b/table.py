"""The series' table: per benchmark and size, the anchor's and jshmem's medians in each round, and jshmem's
overhead per round (bandwidth: time per operation over the same round's anchor; latency: the difference), then
the median of the five overheads. Usage: python3 table.py (in this folder)."""
import csv, statistics

def rows(path):
    with open(path) as f:
        return {(r['benchmark'], int(r['size_bytes'])): float(r['median'])
                for r in csv.DictReader(line for line in f if not line.startswith('#'))}

rounds = range(1, 6)
mpi = [rows(f'mpi-r{r}.csv') for r in rounds]
js = [{**rows(f'jshmem-bw-r{r}.csv'), **rows(f'jshmem-lat-r{r}.csv')} for r in rounds]
print('| benchmark | size | MPI (5 rounds) | jshmem (5 rounds) | overhead per round | median overhead |')
print('|---|---|---|---|---|---|')
for key in sorted(js[0], key=lambda k: (k[0], k[1])):
    if key not in mpi[0]:
        continue
    bw = key[0].endswith('_bw')
    over = [(m[key] / j[key] - 1) * 100 if bw else j[key] - m[key] for m, j in zip(mpi, js)]
    unit = '%' if bw else ' us'
    fmt = (lambda v: f'{v:+.0f}%') if bw else (lambda v: f'{v:+.2f} us')
    size = f'{key[1] // 1024}K' if key[1] >= 1024 else str(key[1])
    print(f"| {key[0]} | {size} | {' / '.join(f'{m[key]:.2f}' for m in mpi)} | {' / '.join(f'{j[key]:.2f}' for j in js)}"
          f" | {' / '.join(fmt(v) for v in over)} | {fmt(statistics.median(over))} |")
