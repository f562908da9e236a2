# Per run of a call: the SM clock (min / median) and the clock event reasons nvidia-smi saw while the GPUs drew more
# than 250 W (busy). Usage: python3 smi-summary.py callN   (reads callN/smi.csv.gz and callN/marks.txt)
import csv, datetime, gzip, statistics, sys
d = sys.argv[1]
rows = []
for r in list(csv.reader(gzip.open(f"{d}/smi.csv.gz", "rt")))[1:]:
    try:
        t = datetime.datetime.strptime(r[0].strip(), "%Y/%m/%d %H:%M:%S.%f")
        rows.append((t, int(r[1]), int(r[2].split()[0]), float(r[3].split()[0]), r[5].strip()))
    except (ValueError, IndexError):
        pass
day = rows[0][0].date()
runs = {}
for m in (line.split() for line in open(f"{d}/marks.txt")):
    t = datetime.datetime.combine(day, datetime.datetime.strptime(m[0][:15], "%H:%M:%S.%f").time())
    runs.setdefault(m[2], {})[m[1]] = t
print("| run | GPU 0: samples, SM MHz min / median, reasons | GPU 1 |\n|---|---|---|")
for name, se in runs.items():
    cells = []
    for g in (0, 1):
        s = [r for r in rows if r[1] == g and se["start"] <= r[0] <= se["end"] and r[3] > 250]
        cells.append(f"{len(s)}, {min(r[2] for r in s)} / {int(statistics.median(r[2] for r in s))}, "
                     + " ".join(sorted({r[4][-2:] for r in s})) if s else "idle below 250 W")
    print(f"| {name} | {cells[0]} | {cells[1]} |")
