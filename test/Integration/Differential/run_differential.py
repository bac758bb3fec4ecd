#!/usr/bin/env python3
# ===- run_differential.py - Compiled code vs the reference interpreter ---===#
#
# Generates random contractions (gen_contractions.py), runs every one on a
# device and on the reference interpreter with the same seeded random
# inputs, and compares the outputs: integers and booleans exactly, floats
# within a tolerance that allows for reassociated sums. Prints the seed and
# the failing program on a mismatch, and ends with "N passed, M failed".
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_contractions  # noqa: E402

# Relative tolerance per float type (sums may be reassociated).
RTOL = {np.float16: 2e-2, np.float32: 1e-4, np.float64: 1e-9}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def compare(ref, got):
    if ref.dtype != got.dtype or ref.shape != got.shape:
        return f"type mismatch: reference {ref.dtype}{ref.shape}, got {got.dtype}{got.shape}"
    if np.issubdtype(ref.dtype, np.floating):
        rtol = RTOL.get(ref.dtype.type, 1e-4)
        ok = np.isclose(ref, got, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        ok = ref == got
    if ok.all():
        return None
    bad = np.argwhere(~ok)[0]
    idx = tuple(int(i) for i in bad)
    return f"element {list(idx)}: reference {ref[idx]!r}, got {got[idx]!r}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--chunk", type=int, default=50,
                        help="functions per generated module (one compile each)")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--threads", type=int,
                        help="compile for the device with plaidml-run --threads N")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)

    passed = failed = 0
    for start in range(0, args.count, args.chunk):
        n = min(args.chunk, args.count - start)
        chunk_seed = args.seed * 100003 + start
        rng = gen_contractions.random.Random(chunk_seed)
        funcs = [gen_contractions.gen_function(rng, f"f{start + i}") for i in range(n)]
        module = os.path.join(args.work_dir, f"chunk{start}.mlir")
        with open(module, "w") as f:
            f.write(f"// chunk seed {chunk_seed}\n" + "\n".join(funcs))
        for i, text in enumerate(funcs):
            name = f"f{start + i}"
            outs = {}
            errors = []
            for device in ("reference", args.device):
                out = os.path.join(args.work_dir, device.replace(":", "_"), name)
                cmd = [args.plaidml_run, module, "--entry", name, "--device", device,
                       f"--random-inputs={start + i}", "--output-dir", out]
                if args.threads and device != "reference":
                    cmd += ["--threads", str(args.threads)]
                r = run(cmd)
                if r.returncode != 0:
                    errors.append(f"{device} failed: {r.stderr.strip()}")
                outs[device] = out
            if not errors:
                ref = np.load(os.path.join(outs["reference"], "result0.npy"))
                got = np.load(os.path.join(outs[args.device], "result0.npy"))
                mismatch = compare(ref, got)
                if mismatch:
                    errors.append(mismatch)
            if errors:
                failed += 1
                print(f"FAIL {name} (--seed {args.seed}, chunk seed {chunk_seed}, "
                      f"--random-inputs={start + i}): {'; '.join(errors)}")
                print(text)
            else:
                passed += 1
    threads = f", --threads {args.threads}" if args.threads else ""
    print(f"differential ({args.device}{threads} vs reference, seed {args.seed}):")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
