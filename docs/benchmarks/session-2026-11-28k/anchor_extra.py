# cuBLAS (torch.matmul) on extra shapes, timed as ../anchors/gemm_anchor.py times its 12: median of 20 runs
# (CUDA events; REPS of them) after 5 warm-ups, row-major, fp32 accumulation. Shapes: argv[1], MxNxK,MxNxK,...;
# DTYPES: bf16,fp16 (default both).
import sys, torch
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
import os
def bench(fn, reps=int(os.environ.get("REPS", "20")), warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2] * 1e3
shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[1].split(",")]
print("library,dtype,m,n,k,us,tflops")
for dt in [t for t, name in ((torch.bfloat16, "bf16"), (torch.float16, "fp16")) if name in os.environ.get("DTYPES", "bf16,fp16")]:
    for m, n, k in shapes:
        a = torch.randn(m, k, dtype=dt, device="cuda"); b = torch.randn(k, n, dtype=dt, device="cuda")
        c = torch.empty(m, n, dtype=dt, device="cuda")
        us = bench(lambda: torch.matmul(a, b, out=c))
        print(f"cublas,{str(dt).split('.')[-1]},{m},{n},{k},{us:.1f},{2*m*n*k/(us*1e6):.1f}", flush=True)
