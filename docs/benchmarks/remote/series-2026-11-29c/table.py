"""The series' table: per benchmark and size, the anchor's median in each round and each build's (before, after),
with each build's overhead per round (bandwidth: time per operation over the same round's anchor; latency: the
difference) and the median of the five. Usage: python3 table.py (in this folder), writes table.md."""
import csv, statistics

def rows(path):
    with open(path) as f:
        return {(r['benchmark'], int(r['size_bytes'])): float(r['median'])
                for r in csv.DictReader(line for line in f if not line.startswith('#'))}

rounds = range(1, 6)
mpi = [rows(f'mpi-r{r}.csv') for r in rounds]
builds = {v: [{**rows(f'{v}-bw-r{r}.csv'), **rows(f'{v}-lat-r{r}.csv')} for r in rounds] for v in ('before', 'after')}
out = ['| benchmark | size | MPI (5 rounds) | before | overhead, median | after | overhead, median |',
       '|---|---|---|---|---|---|---|']
for key in sorted(builds['after'][0]):
    if key not in mpi[0]:
        continue
    bw = key[0].endswith('_bw')
    fmt = (lambda v: f'{v:+.0f}%') if bw else (lambda v: f'{v:+.2f} us')
    cells = [key[0], f'{key[1] // 1024}K' if key[1] >= 1024 else str(key[1]), ' / '.join(f'{m[key]:.2f}' for m in mpi)]
    for v in ('before', 'after'):
        js = builds[v]
        over = [(m[key] / j[key] - 1) * 100 if bw else j[key] - m[key] for m, j in zip(mpi, js)]
        cells += [' / '.join(f'{j[key]:.2f}' for j in js), f"{' / '.join(fmt(o) for o in over)}; **{fmt(statistics.median(over))}**"]
    out.append('| ' + ' | '.join(cells) + ' |')
open('table.md', 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
