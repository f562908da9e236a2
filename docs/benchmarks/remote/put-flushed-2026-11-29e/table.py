import csv,glob,sys,statistics as st,re
def load(f):
    d={}
    for row in csv.reader(l for l in open(f) if not l.startswith('#')):
        if row[0]=='library': continue
        if row[1] in('put_bw','get_bw'): d[(row[1],int(row[6]))]=float(row[10])
    return d
tag=sys.argv[1]; vs=sys.argv[2:]
rounds=sorted({int(re.search(r'-r(\d+)\.csv',f).group(1)) for f in glob.glob(f'/tmp/s17/{tag}-mpi-r*.csv')})
M={r:load(f'/tmp/s17/{tag}-mpi-r{r}.csv') for r in rounds}
V={v:{r:load(f'/tmp/s17/{tag}-{v}-r{r}.csv') for r in rounds} for v in vs}
for k in sorted(M[rounds[0]]):
    line=f"{k[0]} {k[1]//1024}K mpi {st.median(M[r][k] for r in rounds):.2f}"
    for v in vs:
        ov=[(M[r][k]/V[v][r][k]-1)*100 for r in rounds]
        line+=f" | {v} {st.median(V[v][r][k] for r in rounds):.2f} ov med {st.median(ov):+.0f}% [{' '.join('%+.0f'%o for o in ov)}]"
    print(line)
