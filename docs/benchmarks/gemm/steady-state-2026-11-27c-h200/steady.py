# cuBLAS (torch.matmul) at steady state: per shape, 1500 back-to-back calls after 300 warm-ups,
# timed with CUDA events as one span; prints library,dtype,m,n,k,us,tflops.
import sys, torch
shapes = [tuple(int(x) for x in s.split('x')) for s in sys.argv[1].split(',')]
dt = torch.bfloat16
for m, n, k in shapes:
    a = torch.randn(m, k, device='cuda', dtype=dt); b = torch.randn(k, n, device='cuda', dtype=dt)
    for _ in range(300): c = a @ b
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(1500): c = a @ b
    e.record(); torch.cuda.synchronize()
    us = s.elapsed_time(e) * 1e3 / 1500
    print(f"cublas,bf16,{m},{n},{k},{us:.1f},{2*m*n*k/us/1e6:.1f}", flush=True)
