#!/usr/bin/env python3
# ===- run_differential.py - Compiled code vs the reference interpreter ---===#
#
# Generates random contractions (gen_contractions.py), runs every one on a
# device and on the reference interpreter with the same seeded random
# inputs, and compares the outputs: integers and booleans exactly, floats
# within a tolerance that allows for reassociated sums. With --edge-count,
# also element-semantics edge cases (pow, mod, max, min, shifts), where
# infinities, NaN and the sign of zero must match exactly. Prints the seed and
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


def compare(ref, got, exact_zeros=False):
    if ref.dtype != got.dtype or ref.shape != got.shape:
        return f"type mismatch: reference {ref.dtype}{ref.shape}, got {got.dtype}{got.shape}"
    if np.issubdtype(ref.dtype, np.floating):
        rtol = RTOL.get(ref.dtype.type, 1e-4)
        ok = np.isclose(ref, got, rtol=rtol, atol=rtol, equal_nan=True)
        if exact_zeros:
            # Infinities, NaN and the sign of zero must match exactly.
            ok &= np.isinf(ref) == np.isinf(got)
            ok &= (ref != 0) | (np.signbit(ref) == np.signbit(got))
            ok &= (ref != 0) | (got == 0)
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
    parser.add_argument("--edge-count", type=int, default=0,
                        help="also this many edge-case functions "
                             "(gen_edge_function), compared exactly")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)

    passed = failed = 0
    # Contractions first, then the edge cases, in chunks of one module each.
    jobs = [(start, min(args.chunk, args.count - start), "f",
             gen_contractions.gen_function)
            for start in range(0, args.count, args.chunk)]
    # Vulkan's GLSL.std.450 has no f64 transcendentals (a documented limit:
    # the compiler refuses f64 pow there), so its edge cases use f32 pow.
    f64_pow = not args.device.startswith("vulkan")
    edge = lambda rng, name: gen_contractions.gen_edge_function(
        rng, name, f64_pow=f64_pow)
    jobs += [(start, min(args.chunk, args.edge_count - start), "e", edge)
             for start in range(0, args.edge_count, args.chunk)]
    for start, n, prefix, gen in jobs:
        chunk_seed = args.seed * 100003 + start + (7 if prefix == "e" else 0)
        rng = gen_contractions.random.Random(chunk_seed)
        funcs = [gen(rng, f"{prefix}{start + i}") for i in range(n)]
        module = os.path.join(args.work_dir, f"chunk-{prefix}{start}.mlir")
        with open(module, "w") as f:
            f.write(f"// chunk seed {chunk_seed}\n" + "\n".join(funcs))
        for i, text in enumerate(funcs):
            name = f"{prefix}{start + i}"
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
                mismatch = compare(ref, got, exact_zeros=prefix == "e")
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
