#!/usr/bin/env python3
"""Prepares the GPU benchmark here, for a GPU machine without the compiler
(bench/gpu/README.md): writes every case of cases.py as a Tile program,
compiles it for vulkan:0 and opencl:0 with plaidml-compile (host code for
the portable x86-64 baseline, so that the artifacts load on another
machine), builds the runtime-only plaidml-run (PLAIDML_ENABLE_COMPILER=OFF)
and copies run.py and cases.py beside the artifacts. The output folder is
what travels: `run.py` there runs everything.

  prepare.py --compiler-build build --out build-h200/bench
  prepare.py --compiler-build build --out /tmp/bench-small --scale small --check

--check then runs run.py here on vulkan:0 and opencl:0 against the NumPy
references (no PyTorch), which is how the harness itself is tested.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import cases  # noqa: E402

DEVICES = {"vulkan": "vulkan:0", "opencl": "opencl:0"}


def compile_case(compiler, case, out, api, device, features=""):
    src = os.path.join(out, case.name + ".mlir")
    dst = os.path.join(out, f"{case.name}.{api}.so")
    cmd = [compiler, src, "--device", device, "--cpu", "x86-64", "-o", dst]
    if features:
        cmd.append("--device-features=" + features)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"{' '.join(cmd)} failed:\n{r.stderr.strip()}"
    return None


def build_runtime(build_dir):
    """The runtime-only build: plaidml-run without MLIR, for machines
    where MLIR is not installed."""
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.check_call(
            ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
             "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=clang++-22",
             "-DCMAKE_C_COMPILER=clang-22", "-DPLAIDML_ENABLE_COMPILER=OFF"])
    subprocess.check_call(["ninja", "-C", build_dir, "plaidml-run"])
    return os.path.join(build_dir, "bin", "plaidml-run")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compiler-build", default=os.path.join(ROOT, "build"),
                        help="the build folder with bin/plaidml-compile")
    parser.add_argument("--out", required=True, help="the folder to carry")
    parser.add_argument("--scale", choices=["full", "small"], default="full")
    parser.add_argument("--apis", default="vulkan,opencl")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--vulkan-target", default=DEVICES["vulkan"],
                        help="the device the Vulkan artifacts are compiled for "
                             "(default vulkan:0, this machine's; a device this "
                             "machine lacks, e.g. vulkan:9, has every feature "
                             "the runtime checks, cooperative matrices "
                             "included: use it for a GPU machine)")
    parser.add_argument("--opencl-target", default=DEVICES["opencl"],
                        help="the device the OpenCL artifacts are compiled for "
                             "(default opencl:0, this machine's)")
    parser.add_argument("--opencl-features", default="",
                        help="for an --opencl-target this machine lacks: its "
                             "features (plaidml-compile --device-features); "
                             "NVIDIA's OpenCL: cl_khr_fp64,nv-ptx-wmma (and "
                             "nv-ptx-cp-async on compute capability 8.0+)")
    parser.add_argument("--runtime-build", default="",
                        help="build the runtime-only plaidml-run in this folder "
                             "(default: OUT/runtime); 'none' to skip")
    parser.add_argument("--check", action="store_true",
                        help="then run run.py here (vulkan:0, opencl:0, NumPy "
                             "references, no PyTorch)")
    args = parser.parse_args()

    compiler = os.path.join(args.compiler_build, "bin", "plaidml-compile")
    if not os.access(compiler, os.X_OK):
        sys.exit(f"prepare.py: no plaidml-compile at {compiler}")
    os.makedirs(args.out, exist_ok=True)
    apis = [a for a in args.apis.split(",") if a]
    for a in apis:
        if a not in DEVICES:
            sys.exit(f"prepare.py: unknown API '{a}' (vulkan, opencl)")
    selected = cases.all_cases(args.scale)
    if args.only:
        names = set(args.only.split(","))
        selected = [c for c in selected if c.name in names]

    failures = []
    manifest = {"scale": args.scale, "cases": []}
    for case in selected:
        with open(os.path.join(args.out, case.name + ".mlir"), "w") as f:
            f.write(case.mlir)
        entry = case.manifest()
        entry["artifacts"] = {}
        for api in apis:
            device = args.vulkan_target if api == "vulkan" else args.opencl_target
            features = args.opencl_features if api == "opencl" else ""
            error = compile_case(compiler, case, args.out, api, device, features)
            if error:
                failures.append(error)
                print(f"prepare: {case.name} {api}: FAILED", flush=True)
            else:
                entry["artifacts"][api] = f"{case.name}.{api}.so"
                print(f"prepare: {case.name} {api}: ok", flush=True)
        manifest["cases"].append(entry)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for script in ("run.py", "cases.py"):
        shutil.copy(os.path.join(HERE, script), os.path.join(args.out, script))

    plaidml_run = os.path.join(args.compiler_build, "bin", "plaidml-run")
    if args.runtime_build != "none":
        runtime = args.runtime_build or os.path.join(args.out, "runtime")
        plaidml_run = build_runtime(runtime)
        shutil.copy(plaidml_run, os.path.join(args.out, "plaidml-run"))

    for error in failures:
        print(error, file=sys.stderr)
    if failures:
        return 1
    if args.check:
        cmd = [sys.executable, os.path.join(args.out, "run.py"), "--dir", args.out,
               "--plaidml-run", plaidml_run, "--no-torch", "--repeat", "1",
               "--warmup", "0", "--opencl-device", "opencl:0"]
        return subprocess.call(cmd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
