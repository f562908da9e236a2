# cuBLAS (torch.matmul) on the anchor's 12 shapes with two kinds of data: torch.randn (what
# anchors/gemm_anchor.py times) and uniform values in [-1, 1) (what gemm-ext's benchmark and tests
# multiply, TestMatrices). A GEMM at the GPU's power limit runs at the clock its power allows, and the
# power depends on the bits the tensor cores see. Same timing as gemm_anchor.py (median of 20 after 5
# warm-ups, CUDA events); both kinds in one process, alternated, two rounds.
import torch
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
def bench(fn, reps=20, warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2] * 1e3
SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (1024, 8192, 8192), (8192, 4096, 8192), (8192, 8192, 4096),
          (8192, 5504, 4096), (3840, 3840, 4096), (1536, 6144, 8192), (5120, 5120, 2048), (2048, 2048, 2048),
          (512, 8192, 8192), (128, 8192, 8192)]
print("round,data,dtype,m,n,k,us,tflops")
for r in (1, 2):
    for dt in (torch.bfloat16, torch.float16):
        for m, n, k in SHAPES:
            for data in ("randn", "uniform"):
                gen = (lambda *s: torch.randn(*s, dtype=dt, device="cuda")) if data == "randn" else \
                      (lambda *s: (torch.rand(*s, device="cuda") * 2 - 1).to(dt))
                a = gen(m, k); b = gen(k, n); c = torch.empty(m, n, dtype=dt, device="cuda")
                us = bench(lambda: torch.matmul(a, b, out=c))
                print(f"{r},{data},{str(dt).split('.')[-1]},{m},{n},{k},{us:.1f},{2*m*n*k/(us*1e6):.1f}", flush=True)
