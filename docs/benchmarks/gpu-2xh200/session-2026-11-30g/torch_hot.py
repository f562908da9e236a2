# The all-scatter anchor of ../shared/anchors/torch_anchor.py (fp16 8192^3: each rank's mm A @ B_shard, then the
# all-gather of the column blocks), timed two ways: as torch_anchor.py's bench() does (5 calls, then 20 timed, each
# synchronised), and as gemm-ext's tp step times its fused forms (100 calls back to back first, then the same 20).
import os, torch, torch.distributed as dist
rank = int(os.environ["LOCAL_RANK"]); ws = int(os.environ["WORLD_SIZE"]); torch.cuda.set_device(rank)
dist.init_process_group("nccl")
def bench(fn, burst=0, reps=20, warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize(); dist.barrier(); torch.cuda.synchronize()
    for _ in range(burst): fn()
    ts = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
M = N = K = 8192; dt = torch.float16
A = torch.randn(M, K, dtype=dt, device="cuda"); B = torch.randn(K, N // ws, dtype=dt, device="cuda")
parts = torch.empty(ws, M, N // ws, dtype=dt, device="cuda")
def seq():
    c = A @ B; dist.all_gather_into_tensor(parts, c); return parts
for label, burst in (("as torch_anchor.py", 0), ("after 100 back to back", 100)):
    t = bench(seq, burst); t_mm = bench(lambda: A @ B, burst)
    if rank == 0: print(f"all_scatter-style M{M} N{N} K{K} fp16, {label}: mm+AG {t*1e3:.0f}us (mm alone {t_mm*1e3:.0f}us)", flush=True)
dist.destroy_process_group()
