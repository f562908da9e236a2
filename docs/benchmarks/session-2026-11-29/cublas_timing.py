# The anchor's timing against gemm-ext's, both on torch.matmul (cuBLAS), the anchor's 12 shapes, randn:
#   synced: record, matmul, record, synchronize per call (anchors/gemm_anchor.py): the GPU waits idle
#           for each call's host-side dispatch, so that time falls between the two events;
#   queued: 20 calls queued back to back with an event pair around each, one synchronize at the end
#           (how GemmBenchmark times gemm-ext and its cuBLAS reference).
# Then the kernel each shape runs (torch.profiler), for the record.
import torch
from torch.profiler import profile, ProfilerActivity
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
def synced(fn, reps=20, warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2] * 1e3
def queued(fn, reps=20, warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for s, e in ev:
        s.record(); fn(); e.record()
    torch.cuda.synchronize()
    ts = sorted(s.elapsed_time(e) for s, e in ev); return ts[len(ts) // 2] * 1e3
SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (1024, 8192, 8192), (8192, 4096, 8192), (8192, 8192, 4096),
          (8192, 5504, 4096), (3840, 3840, 4096), (1536, 6144, 8192), (5120, 5120, 2048), (2048, 2048, 2048),
          (512, 8192, 8192), (128, 8192, 8192)]
print("round,timing,dtype,m,n,k,us,tflops")
kernels = {}
for r in (1, 2):
    for dt in (torch.bfloat16, torch.float16):
        for m, n, k in SHAPES:
            a = torch.randn(m, k, dtype=dt, device="cuda"); b = torch.randn(k, n, dtype=dt, device="cuda")
            c = torch.empty(m, n, dtype=dt, device="cuda")
            f = lambda: torch.matmul(a, b, out=c)
            for name, t in (("synced", synced), ("queued", queued)) if r == 1 else (("queued", queued), ("synced", synced)):
                us = t(f)
                print(f"{r},{name},{str(dt).split('.')[-1]},{m},{n},{k},{us:.1f},{2*m*n*k/(us*1e6):.1f}", flush=True)
            if r == 1:
                with profile(activities=[ProfilerActivity.CUDA]) as p:
                    f(); torch.cuda.synchronize()
                kernels[(str(dt).split('.')[-1], m, n, k)] = [e.name for e in p.events() if e.device_type.name == "CUDA"]
for key, names in kernels.items():
    print("# kernel", key, names)
