#!/usr/bin/env python3
"""Runs every entry of a program on two devices with the same seeded
random inputs (plaidml-run --random-inputs) and compares the outputs with
NumPy: prints `PASS entry` or `FAIL entry: why` per entry and exits 1 if
any failed. Used to check generated CPU code against the reference
interpreter on shapes that exercise every code path."""

import argparse
import pathlib
import subprocess
import sys

import numpy as np


def run(plaidml_run, program, entry, device, seed, out_dir, extra):
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [plaidml_run, str(program), "--device", device, "--entry", entry,
           f"--random-inputs={seed}", "--output-dir", str(out_dir)] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return {p.stem: np.load(p) for p in sorted(out_dir.glob("*.npy"))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--program", required=True, type=pathlib.Path)
    parser.add_argument("--work-dir", required=True, type=pathlib.Path)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--expected-device", default="reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--extra", action="append", default=[],
                        help="an extra plaidml-run argument for --device")
    parser.add_argument("entries", nargs="+")
    args = parser.parse_args()

    failed = False
    for entry in args.entries:
        try:
            got = run(args.plaidml_run, args.program, entry, args.device,
                      args.seed, args.work_dir / entry / "got", args.extra)
            want = run(args.plaidml_run, args.program, entry,
                       args.expected_device, args.seed,
                       args.work_dir / entry / "want", [])
        except RuntimeError as e:
            print(f"FAIL {entry}: {e}")
            failed = True
            continue
        problems = []
        for name, w in want.items():
            g = got.get(name)
            if g is None or g.shape != w.shape or g.dtype != w.dtype:
                problems.append(f"{name}: shape/type differ")
                continue
            close = np.isclose(g.astype(np.float64), w.astype(np.float64),
                               rtol=args.rtol, atol=args.rtol, equal_nan=True)
            if not close.all():
                bad = np.argwhere(~close)[0]
                problems.append(f"{name}: {int((~close).sum())} of {close.size}"
                                f" differ, first at {tuple(bad)}: "
                                f"{g[tuple(bad)]} vs {w[tuple(bad)]}")
        if problems:
            failed = True
            print(f"FAIL {entry}: " + "; ".join(problems))
        else:
            print(f"PASS {entry}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
