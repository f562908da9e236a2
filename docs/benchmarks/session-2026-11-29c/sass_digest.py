"""Digest of an Nsight Compute SASS page (ncu -i REP --page source --csv --print-source sass): the warp-stall samples'
share per instruction (top 40, by index in the listing) and per run of instructions with the same execution count.
Usage: python3 sass_digest.py ncu-sass.csv"""
import collections, csv, sys

rows = list(csv.reader(open(sys.argv[1])))
hdr, data = rows[1], rows[2:]
s_i, src_i, ex_i = (hdr.index(h) for h in ("Warp Stall Sampling (All Samples)", "Source", "Instructions Executed"))
samples = [int(r[s_i] or 0) for r in data]
total = sum(samples)
print(f"{total} samples over {len(data)} instructions")
for k in sorted(range(len(data)), key=lambda k: -samples[k])[:40]:
    print(f"{k:6d} {samples[k]:6d} {100 * samples[k] / total:5.1f}%  executed {data[k][ex_i]:>7}  {data[k][src_i].strip()}")
by_count = collections.Counter()
for r, s in zip(data, samples):
    by_count[r[ex_i]] += s
print("samples by execution count (per-stage code, per-tile code, the producer's loop ...):")
for count, s in by_count.most_common(10):
    print(f"  executed {count:>7}: {100 * s / total:5.1f}%")
