"""A latency series of run-latency.sh: per benchmark and size, the medians over twelve rounds of the anchor and of each
build, each build's overhead over the same round's anchor (median), and the median of after - before per round.
Usage: python3 latency_table.py FOLDER (latency or latency-alternated), writes FOLDER/table.md."""
import csv, os, statistics, sys

def rows(path):
    with open(path) as f:
        return {(r['benchmark'], int(r['size_bytes'])): float(r['median'])
                for r in csv.DictReader(line for line in f if not line.startswith('#'))}

os.chdir(sys.argv[1])
rounds = range(1, 13)
mpi = [rows(f'mpi-r{r}.csv') for r in rounds]
builds = {v: [rows(f'{v}-lat-r{r}.csv') for r in rounds] for v in ('before', 'after')}
out = ['| benchmark | size | MPI | before | over MPI | after | over MPI | after - before, per round | rounds after < before |',
       '|---|---|---|---|---|---|---|---|---|']
for key in sorted(builds['after'][0]):
    if key not in mpi[0]:
        continue
    cells = [key[0], str(key[1]), f"{statistics.median(m[key] for m in mpi):.2f}"]
    for v in ('before', 'after'):
        js = builds[v]
        cells += [f"{statistics.median(j[key] for j in js):.2f}",
                  f"{statistics.median(j[key] - m[key] for m, j in zip(mpi, js)):+.2f}"]
    d = [a[key] - b[key] for a, b in zip(builds['after'], builds['before'])]
    cells += [f"{statistics.median(d):+.2f}", f"{sum(x < 0 for x in d)} / 12"]
    out.append('| ' + ' | '.join(cells) + ' |')
open('table.md', 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
