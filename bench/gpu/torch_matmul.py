#!/usr/bin/env python3
"""PyTorch's 4096x4096x4096 f32 matrix product on the GPU, timed like
plaidml-run --repeat (execution only, inputs already on the device): median
of N products after warm-ups, with CUDA events. Prints one line per mode:
strict f32 (TF32 off, what PlaidML's kernels compute) and TF32."""

import argparse
import statistics

import torch


def time_matmul(n, repeat, warmup):
    a = torch.rand(n, n, device="cuda", dtype=torch.float32) * 2 - 1
    b = torch.rand(n, n, device="cuda", dtype=torch.float32) * 2 - 1
    for _ in range(warmup):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return min(times), statistics.median(times), max(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    n = args.size
    flops = 2.0 * n * n * n
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    for label, tf32 in (("f32", False), ("tf32", True)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        lo, med, hi = time_matmul(n, args.repeat, args.warmup)
        print(f"torch {label} {n}^3: min {lo:.3f} ms, median {med:.3f} ms, "
              f"max {hi:.3f} ms over {args.repeat} runs "
              f"({flops / med / 1e9:.1f} TFLOP/s at the median)")


if __name__ == "__main__":
    main()
