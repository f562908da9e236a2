# Medians over the rounds of each library, benchmark and size; overhead against the anchor of the same protocol.
import csv,glob,statistics,sys,collections
d=sys.argv[1]  # the folder of the round*-*.csv files
vals=collections.defaultdict(list)
for f in sorted(glob.glob(d+'/round*-*.csv')):
    tag=f.split('/')[-1].split('-',1)[1].rsplit('.',1)[0]  # e.g. mpi-2sided, messages-new-bw
    kind=tag.replace('-bw','').replace('-lat','')
    for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
        vals[(kind,r['benchmark'],int(r['size_bytes']))].append(float(r['median']))
def med(k): 
    v=vals.get(k); return statistics.median(v) if v else None
def fmt(b): return f"{b//(1<<20)}M" if b>=1<<20 else (f"{b//1024}K" if b>=1024 else str(b))
for proto,anchor in (('messages','mpi-2sided'),('rma','mpi')):
    print(f"\n| {proto}: benchmark | size | MPI ({anchor}) | jshmem before | jshmem now | overhead before | overhead now |")
    print("|---|---|---|---|---|---|---|")
    for bench in ('put_bw','get_bw','put_latency','get_latency'):
        sizes=sorted({k[2] for k in vals if k[1]==bench and k[0]==anchor})
        for s in sizes:
            a=med((anchor,bench,s)); o=med((proto+'-old',bench,s)); n=med((proto+'-new',bench,s))
            if a is None or o is None or n is None: continue
            if bench.endswith('bw'):
                u='GB/s'; ov=lambda j: f"{(a/j-1)*100:+.0f}%"
                print(f"| {bench} | {fmt(s)} | {a:.3f} | {o:.3f} | {n:.3f} | {ov(o)} | {ov(n)} |")
            else:
                print(f"| {bench} | {fmt(s)} | {a:.2f} us | {o:.2f} us | {n:.2f} us | {o-a:+.2f} us | {n-a:+.2f} us |")
