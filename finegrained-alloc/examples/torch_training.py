#!/usr/bin/env python3
"""Trains a transformer block with AdamW on finegrained-alloc's memory and on PyTorch's default
allocator, and compares them.

    python3 torch_training.py /path/to/libfinegrained_alloc_cuda.so [--steps N] [--csv FILE]

Each allocator runs in a process of its own (PyTorch lets a process choose its allocator only
before its first CUDA allocation), from the same seed and data. Checks, and exits non-zero
otherwise: the losses of every step are bit-identical between the two; on finegrained-alloc
the tensors really came from the library (fg_stats) and, once the model is gone,
fg_empty_cache gives every cached byte back (fg_cache_stats). Prints the median time per
step of each and their ratio (a benchmark figure: no pass/fail on it).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def train(lib_path, allocator, steps, warmup):
    """One process: trains and prints a JSON line with the losses and step times."""
    import ctypes

    import torch

    lib = None
    if allocator == "fg":
        torch.cuda.memory.change_current_allocator(
            torch.cuda.memory.CUDAPluggableAllocator(lib_path, "fg_malloc", "fg_free"))
        lib = ctypes.CDLL(lib_path)
        for name in ("fg_stats", "fg_cache_stats"):
            getattr(lib, name).argtypes = [ctypes.POINTER(ctypes.c_size_t)] * 2
            getattr(lib, name).restype = None

    def counters(name):
        a, b = ctypes.c_size_t(), ctypes.c_size_t()
        getattr(lib, name)(ctypes.byref(a), ctypes.byref(b))
        return a.value, b.value

    torch.use_deterministic_algorithms(True)
    torch.manual_seed(1234)
    batch, seq, d_model = 8, 512, 1024
    model = torch.nn.Sequential(
        torch.nn.TransformerEncoderLayer(d_model, nhead=16, dim_feedforward=4 * d_model, dropout=0.0,
                                         batch_first=True, norm_first=True),
        torch.nn.Linear(d_model, d_model)).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    gen = torch.Generator(device="cuda").manual_seed(99)
    x = torch.randn(batch, seq, d_model, device="cuda", generator=gen)
    target = torch.randn(batch, seq, d_model, device="cuda", generator=gen)

    losses, times = [], []
    held = 0
    for _ in range(steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
        losses.append(loss.item())
        if lib is not None:
            held = max(held, counters("fg_stats")[0])
    result = {"allocator": allocator, "losses": [v.hex() for v in losses],
              "step_ms": 1e3 * statistics.median(times[warmup:])}
    if lib is not None:
        params = sum(p.numel() * p.element_size() for p in model.parameters())
        del model, opt, x, target, loss
        torch.cuda.synchronize()
        cached_before, _ = counters("fg_cache_stats")
        lib.fg_empty_cache()
        cached_after, blocks_after = counters("fg_cache_stats")
        result.update(held_bytes=held, param_bytes=params, cached_before=cached_before,
                      cached_after=cached_after, cached_blocks_after=blocks_after)
    print(json.dumps(result))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lib")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--csv")
    ap.add_argument("--child", choices=["default", "fg"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        train(args.lib, args.child, args.steps, args.warmup)
        return
    env = dict(os.environ, CUBLAS_WORKSPACE_CONFIG=":4096:8")   # deterministic cuBLAS
    runs = {}
    # Interleaved: the second pair is the one reported; last, the library without its cache.
    for name, allocator, cache in (("default", "default", "1"), ("fg", "fg", "1"), ("default", "default", "1"),
                                   ("fg", "fg", "1"), ("fg_uncached", "fg", "0")):
        out = subprocess.run([sys.executable, __file__, args.lib, "--steps", str(args.steps), "--warmup",
                              str(args.warmup), "--child", allocator], env=dict(env, FG_ALLOC_CACHE=cache),
                             capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"the {name} run failed:\n{out.stderr}")
        runs.setdefault(name, []).append(json.loads(out.stdout.strip().splitlines()[-1]))
    default, fg, uncached = runs["default"][-1], runs["fg"][-1], runs["fg_uncached"][0]
    if uncached["losses"] != default["losses"]:
        fail("losses differ between the default allocator and finegrained-alloc without its cache")
    if default["losses"] != fg["losses"]:
        diff = [i for i, (a, b) in enumerate(zip(default["losses"], fg["losses"])) if a != b]
        fail(f"losses differ from step {diff[0]}: default {float.fromhex(default['losses'][diff[0]])}, "
             f"fg {float.fromhex(fg['losses'][diff[0]])}")
    if fg["held_bytes"] < fg["param_bytes"]:
        fail(f"fg_malloc held at most {fg['held_bytes']} bytes, less than the parameters' {fg['param_bytes']}: "
             "PyTorch was not allocating through the library")
    if uncached["cached_before"] != 0:
        fail(f"FG_ALLOC_CACHE=0 still cached {uncached['cached_before']} bytes")
    if fg["cached_before"] == 0 or fg["cached_after"] != 0 or fg["cached_blocks_after"] != 0:
        fail(f"cache before/after fg_empty_cache: {fg['cached_before']} / {fg['cached_after']} bytes")
    first, last = float.fromhex(fg["losses"][0]), float.fromhex(fg["losses"][-1])
    if not last < first:
        fail(f"the loss did not fall ({first} -> {last})")
    ratio = fg["step_ms"] / default["step_ms"]
    import torch
    print(f"transformer block + AdamW, {args.steps} steps on {torch.cuda.get_device_name()}: losses identical "
          f"({first:.6f} -> {last:.6f}); median step default allocator {default['step_ms']:.3f} ms, "
          f"finegrained-alloc {fg['step_ms']:.3f} ms ({ratio:.3f}x); "
          f"first pair {runs['default'][0]['step_ms']:.3f} / {runs['fg'][0]['step_ms']:.3f} ms; "
          f"without the cache (FG_ALLOC_CACHE=0) {uncached['step_ms']:.3f} ms")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("allocator,run,step_ms\n")
            for name in ("default", "fg", "fg_uncached"):
                for i, r in enumerate(runs[name]):
                    f.write(f"{name},{i},{r['step_ms']:.4f}\n")
    print("OK")


if __name__ == "__main__":
    main()
