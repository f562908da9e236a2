#!/usr/bin/env python3
"""Runs PyTorch on finegrained-alloc's memory and checks the result.

    python3 torch_allocator.py /path/to/libfinegrained_alloc_cuda.so

Switches PyTorch's CUDA allocator to fg_malloc / fg_free (before anything else touches the
GPU: PyTorch allows the switch only then), allocates tensors, runs a matmul, compares it with a
float64 reference computed on the CPU, frees, and prints OK. Exits non-zero on any failure.
Also checks, through the library's own counters (fg_stats), that the tensors really came from it.
"""
import ctypes
import sys


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    lib_path = sys.argv[1]

    import torch

    if not torch.cuda.is_available():
        fail("torch.cuda.is_available() is False: no GPU, or a CPU-only PyTorch")

    allocator = torch.cuda.memory.CUDAPluggableAllocator(lib_path, "fg_malloc", "fg_free")
    torch.cuda.memory.change_current_allocator(allocator)

    # The same file loaded again gives the same library instance, so its counters are PyTorch's.
    lib = ctypes.CDLL(lib_path)
    lib.fg_stats.argtypes = [ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]
    lib.fg_stats.restype = None
    lib.fg_platform.restype = ctypes.c_char_p

    def live():
        b, n = ctypes.c_size_t(), ctypes.c_size_t()
        lib.fg_stats(ctypes.byref(b), ctypes.byref(n))
        return b.value, n.value

    torch.set_float32_matmul_precision("highest")  # no TF32: full float32, so the tolerance is tight
    m, k, n = 1024, 768, 512
    gen = torch.Generator().manual_seed(1234)
    a_cpu = torch.randn(m, k, generator=gen, dtype=torch.float64)
    b_cpu = torch.randn(k, n, generator=gen, dtype=torch.float64)

    bytes0, _ = live()
    a = a_cpu.to(device="cuda", dtype=torch.float32)
    b = b_cpu.to(device="cuda", dtype=torch.float32)
    c = a @ b
    torch.cuda.synchronize()
    bytes1, allocs1 = live()
    tensor_bytes = sum(t.numel() * t.element_size() for t in (a, b, c))
    if bytes1 - bytes0 < tensor_bytes:
        fail(f"fg_malloc holds {bytes1 - bytes0} new bytes, the tensors need {tensor_bytes}: "
             "PyTorch is not allocating through the library")

    ref = a_cpu @ b_cpu
    err = torch.linalg.norm(c.double().cpu() - ref) / torch.linalg.norm(ref)
    print(f"{lib.fg_platform().decode()} {torch.cuda.get_device_name()}: matmul {m}x{k}x{n} float32, "
          f"relative error {err.item():.3e}, {allocs1} live allocations ({bytes1} bytes)")
    if not err.item() < 1e-5:
        fail(f"relative error {err.item():.3e} is not below 1e-5")

    del a, b, c
    torch.cuda.synchronize()
    bytes2, _ = live()
    if bytes1 - bytes2 < tensor_bytes:
        fail(f"after freeing the tensors fg_free gave back {bytes1 - bytes2} bytes, expected >= {tensor_bytes}")
    print("OK")


if __name__ == "__main__":
    main()
