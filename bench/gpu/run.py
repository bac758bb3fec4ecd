#!/usr/bin/env python3
"""Runs the GPU benchmark that prepare.py packed (bench/gpu/README.md), on the
machine with the GPU: for every case, seeded random inputs (NumPy), the
artifacts run by the runtime-only plaidml-run (`--repeat N --warmup W`:
median wall time of a run's kernels, inputs already on the device) on Vulkan
and OpenCL, each result checked against the NumPy reference (float64), and
the same operation timed in PyTorch on CUDA (cuBLAS/cuDNN, CUDA events,
TF32 off for f32, f16 tensors for f16). Prints a markdown table: median
times, TFLOP/s or GB/s and the ratio PlaidML / PyTorch. Exits 1 if a result
is wrong or a run failed.

  python3 run.py --dir build-h200/bench [--plaidml-run build-h200/bench/plaidml-run]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import numpy as np  # noqa: E402


def make_inputs(case, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for shape, dtype in case.inputs:
        a = rng.uniform(-1.0, 1.0, size=shape).astype(cases.DTYPES[dtype][1])
        arrays.append(a)
    return arrays


def find_opencl_gpu(plaidml_run):
    """The first OpenCL device that is a GPU (PoCL, a CPU device, is
    opencl:0 on the H200 machine)."""
    r = subprocess.run([plaidml_run, "--list-devices"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        m = re.match(r"(opencl:\d+)\s+.*\((gpu|GPU)", line)
        if m:
            return m.group(1)
    return None


def run_plaidml(plaidml_run, artifact, device, input_paths, out_dir, repeat, warmup):
    cmd = [plaidml_run, artifact, "--device", device, "--output-dir", out_dir,
           "--repeat", str(repeat), "--warmup", str(warmup)]
    for i, path in enumerate(input_paths):
        cmd += ["--input", f"arg{i}={path}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:]
    m = re.search(r"median ([0-9.]+) ms", r.stdout)
    if not m:
        return None, ["no timing in plaidml-run's output"]
    result = np.load(os.path.join(out_dir, "result0.npy"))
    return float(m.group(1)), result


def check(case, got, want):
    if got.shape != tuple(case.output[0]):
        return f"shape {got.shape}, expected {tuple(case.output[0])}"
    g = got.astype(np.float64)
    # Relative to the result's scale: sums of many products of [-1, 1)
    # values cancel, so an elementwise relative check would be meaningless.
    scale = max(float(np.abs(want).max()), 1e-30)
    err = float(np.abs(g - want).max()) / scale
    if not np.isfinite(g).all() or err > case.rtol:
        return f"max error {err:.2e} of the largest magnitude (allowed {case.rtol:.0e})"
    return None


def time_torch(case, arrays, repeat, warmup):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    tensors = [torch.from_numpy(a).cuda() for a in arrays]
    fn = case.torch_op(*tensors)
    extra = None
    if case.name.startswith("relu_bias"):
        extra = cases._torch_add(*tensors)
    res = []
    for f in [fn] + ([extra] if extra else []):
        for _ in range(warmup):
            f()
        torch.cuda.synchronize()
        times = []
        for _ in range(repeat):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            f()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        res.append(statistics.median(times))
    del tensors
    torch.cuda.empty_cache()
    return res


def fmt_ms(ms):
    return "—" if ms is None else (f"{ms:.3f} ms" if ms < 10 else f"{ms:.1f} ms")


def fmt_rate(case, ms):
    if ms is None:
        return ""
    r = cases.rate(case, ms)
    if case.unit == "TFLOP/s":
        return f" ({r:.1f} {case.unit})" if r >= 1 else f" ({r:.2f} {case.unit})"
    return f" ({r:.0f} {case.unit})"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default=HERE, help="the folder prepare.py wrote")
    parser.add_argument("--plaidml-run", default="")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vulkan-device", default="vulkan:0")
    parser.add_argument("--opencl-device", default="",
                        help="default: the first OpenCL GPU")
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated case names")
    args = parser.parse_args()

    plaidml_run = args.plaidml_run or os.path.join(args.dir, "plaidml-run")
    manifest = json.load(open(os.path.join(args.dir, "manifest.json")))
    known = cases.by_name(manifest["scale"])
    opencl = args.opencl_device or find_opencl_gpu(plaidml_run)
    devices = {"vulkan": args.vulkan_device, "opencl": opencl}
    have_torch = not args.no_torch
    if have_torch:
        try:
            import torch
            have_torch = torch.cuda.is_available()
            print(f"torch {torch.__version__} on "
                  f"{torch.cuda.get_device_name() if have_torch else 'no GPU'}")
        except ImportError:
            have_torch = False
    print(f"plaidml-run {plaidml_run}: vulkan {devices['vulkan']}, opencl {opencl}, "
          f"--repeat {args.repeat} --warmup {args.warmup}", flush=True)

    rows, failures = [], 0
    only = set(args.only.split(",")) if args.only else None
    for entry in manifest["cases"]:
        if only and entry["name"] not in only:
            continue
        case = known[entry["name"]]
        arrays = make_inputs(case, args.seed)
        want = case.reference(*arrays)
        times = {}
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, a in enumerate(arrays):
                paths.append(os.path.join(tmp, f"arg{i}.npy"))
                np.save(paths[-1], a)
            for api, artifact in entry.get("artifacts", {}).items():
                device = devices.get(api)
                if not device:
                    print(f"{case.name} {api}: no device", flush=True)
                    continue
                ms, result = run_plaidml(plaidml_run, os.path.join(args.dir, artifact),
                                         device, paths, os.path.join(tmp, api),
                                         args.repeat, args.warmup)
                if ms is None:
                    print(f"FAIL {case.name} {api}: {' '.join(result)}", flush=True)
                    failures += 1
                    continue
                error = check(case, result, want)
                if error:
                    print(f"FAIL {case.name} {api}: wrong result: {error}", flush=True)
                    failures += 1
                    times[api] = None
                    continue
                times[api] = ms
                print(f"ok   {case.name} {api}: {ms:.3f} ms", flush=True)
        torch_ms = add_ms = None
        if have_torch:
            got = time_torch(case, arrays, args.repeat, args.warmup)
            torch_ms = got[0]
            add_ms = got[1] if len(got) > 1 else None
            print(f"     {case.name} torch: {torch_ms:.3f} ms", flush=True)
        rows.append((case, times.get("vulkan"), times.get("opencl"), torch_ms, add_ms))

    print()
    print("| case | PlaidML Vulkan | PlaidML OpenCL | PyTorch | Vulkan / PyTorch | OpenCL / PyTorch |")
    print("|---|---|---|---|---|---|")
    for case, vk, cl, pt, add in rows:
        def ratio(ms):
            return f"{pt / ms:.3f}×" if ms and pt else "—"
        torch_cell = fmt_ms(pt) + fmt_rate(case, pt)
        if add:
            # The copy-bandwidth yardstick: x + b moves the same bytes.
            torch_cell += f"; `x + b` alone {fmt_ms(add)}{fmt_rate(case, add)}"
        print(f"| {case.title} | {fmt_ms(vk)}{fmt_rate(case, vk)} | "
              f"{fmt_ms(cl)}{fmt_rate(case, cl)} | {torch_cell} | {ratio(vk)} | {ratio(cl)} |")
    print()
    print(f"{failures} failed" if failures else "every PlaidML result matched its reference")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
