#!/usr/bin/env python3
"""A/B runs of kernel variants on the GPU machine (bench/gpu/README.md):
artifacts of one case of cases.py that differ only in the compiler used
(or its options), run alternately in rounds so that the machine's drift
falls on every variant alike, every result checked against the NumPy
reference, PyTorch timed before and after.

  ab.py --dir build-h200/bench --case matmul_4096x4096x4096_f16 \\
      --variants main,db --rounds 3 --repeat 20

reads DIR/CASE.VARIANT.vulkan.so for each variant (prepare.py's
CASE.vulkan.so, renamed) and prints each run and a summary (median per
variant). Exits 1 if any result is wrong or any run failed.
"""

import argparse
import os
import statistics
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import run  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default=HERE)
    parser.add_argument("--plaidml-run", default="")
    parser.add_argument("--case", required=True)
    parser.add_argument("--variants", required=True, help="comma-separated")
    parser.add_argument("--api", default="vulkan")
    parser.add_argument("--device", default="vulkan:0")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", default="full")
    parser.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()

    plaidml_run = args.plaidml_run or os.path.join(args.dir, "plaidml-run")
    case = cases.by_name(args.scale)[args.case]
    arrays = run.make_inputs(case, args.seed)
    want = case.reference(*arrays)
    variants = [v for v in args.variants.split(",") if v]
    times = {v: [] for v in variants}
    failures = 0
    torch_ms = []

    def torch_time():
        if args.no_torch:
            return
        try:
            import torch
            if not torch.cuda.is_available():
                return
        except ImportError:
            return
        ms = run.time_torch(case, arrays, args.repeat, args.warmup)[0]
        torch_ms.append(ms)
        print(f"     {case.name} torch: {ms:.3f} ms", flush=True)

    torch_time()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, a in enumerate(arrays):
            paths.append(os.path.join(tmp, f"arg{i}.npy"))
            np.save(paths[-1], a)
        for r in range(args.rounds):
            for v in variants:
                artifact = os.path.join(args.dir, f"{case.name}.{v}.{args.api}.so")
                ms, result = run.run_plaidml(plaidml_run, artifact, args.device, paths,
                                             os.path.join(tmp, v), args.repeat,
                                             args.warmup)
                if ms is None:
                    print(f"FAIL {v}: {' '.join(result)}", flush=True)
                    failures += 1
                    continue
                error = run.check(case, result, want)
                if error:
                    print(f"FAIL {v} round {r}: wrong result: {error} "
                          f"({ms:.3f} ms)", flush=True)
                    failures += 1
                    continue
                times[v].append(ms)
                print(f"ok   {v} round {r}: {ms:.3f} ms", flush=True)
    torch_time()

    print()
    ref = statistics.median(torch_ms) if torch_ms else None
    print(f"| variant | {case.title} runs (ms) | median | vs PyTorch |")
    print("|---|---|---|---|")
    for v in variants:
        t = times[v]
        med = statistics.median(t) if t else None
        cells = ", ".join(f"{x:.3f}" for x in t) or "failed"
        ratio = f"{ref / med:.3f}×" if med and ref else "—"
        print(f"| {v} | {cells} | {med:.3f} |  {ratio} |" if med else
              f"| {v} | {cells} | — | — |")
    if torch_ms:
        print(f"PyTorch: {', '.join(f'{x:.3f}' for x in torch_ms)} ms")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
