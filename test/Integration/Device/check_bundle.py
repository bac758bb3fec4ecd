#!/usr/bin/env python3
"""Runs a bundle made by make_bundle.py with a (runtime-only) plaidml-run and
compares every output with the one recorded where the bundle was made:
integers and booleans exactly, floats within a few units in the last place
of their type (f16: rtol 2e-3; f32: rtol 1e-4, atol 1e-5; f64: rtol 1e-9):
GPU math functions are approximations, and drivers may fuse a multiply and
an add (Vulkan allows it), so f16 results can differ by one ulp. NaN equals
NaN.

Usage: check_bundle.py --plaidml-run PATH --device vulkan:0 [--bundle DIR]
Prints one FAIL line per mismatching case and "N passed, M failed".
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def compare(expected, got):
    if expected.shape != got.shape:
        return f"shape {got.shape}, expected {expected.shape}"
    if expected.dtype != got.dtype:
        return f"type {got.dtype}, expected {expected.dtype}"
    if np.issubdtype(expected.dtype, np.floating):
        rtol, atol = {np.dtype(np.float16): (2e-3, 1e-3),
                      np.dtype(np.float64): (1e-9, 1e-12)}.get(
                          expected.dtype, (1e-4, 1e-5))
        e, g = expected.astype(np.float64), got.astype(np.float64)
        ok = np.isclose(g, e, rtol=rtol, atol=atol) | (np.isnan(e) & np.isnan(g))
    else:
        ok = expected == got
    if ok.all():
        return None
    idx = tuple(int(v) for v in np.argwhere(~ok)[0])
    return (f"{int((~ok).sum())} of {ok.size} differ; first at {list(idx)}: "
            f"expected {expected[idx]!r}, got {got[idx]!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--device", default="vulkan:0")
    parser.add_argument("--bundle", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    passed = failed = 0
    cases = sorted(glob.glob(os.path.join(args.bundle, "cases", "*.json")),
                   key=lambda p: int(os.path.basename(p)[:-5]))
    with tempfile.TemporaryDirectory() as tmp:
        for path in cases:
            case = json.load(open(path))
            out = os.path.join(tmp, os.path.basename(path)[:-5])
            cmd = [args.plaidml_run, os.path.join(args.bundle, "artifacts", case["artifact"]),
                   "--device", args.device, "--output-dir", out] + \
                [a for a in case["args"] if a != "--print"]
            for name, file in case["inputs"].items():
                cmd += ["--input", f"{name}={os.path.join(args.bundle, file)}"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            problems = []
            if r.returncode != 0:
                problems.append(r.stderr.strip())
            else:
                for name, file in case["expected"].items():
                    got = os.path.join(out, name + ".npy")
                    if not os.path.exists(got):
                        problems.append(f"{name}: missing")
                        continue
                    why = compare(np.load(os.path.join(args.bundle, file)), np.load(got))
                    if why:
                        problems.append(f"{name}: {why}")
            label = f"{case['source']} {' '.join(case['args'])}".strip()
            if problems:
                failed += 1
                print(f"FAIL {label}: {'; '.join(problems)}")
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
