# One cuBLAS (torch.matmul) GEMM per shape, for Nsight Compute: 5 calls per shape, bf16, randn.
import sys, torch
for s in sys.argv[1:]:
    m, n, k = map(int, s.split("x"))
    a = torch.randn(m, k, dtype=torch.bfloat16, device="cuda"); b = torch.randn(k, n, dtype=torch.bfloat16, device="cuda")
    c = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
    for _ in range(5): torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
