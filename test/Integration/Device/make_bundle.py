#!/usr/bin/env python3
"""Packs the integration suite as compiled artifacts for a machine without
the compiler (the H200 of the device tool, where MLIR is not installed).

Runs the integration checkers of this tree (Models/check_models.py,
TileLang/Cookbook/check_cookbook.py, Differential/run_differential.py) and
every entry of contraction.mlir and elementwise.mlir on DEVICE here, through
a recording stand-in for plaidml-run: each run on DEVICE is passed on to the
real plaidml-run (so the checkers still verify the results here), and the
artifact it compiled, its inputs, its flags and its outputs go into the
bundle. check_bundle.py then runs the artifacts with a runtime-only
plaidml-run on the other machine and compares the outputs.

Usage: make_bundle.py --plaidml-run PATH --device vulkan:0 --out DIR
                      [--differential-count N]
"""

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INTEGRATION = os.path.dirname(HERE)
SOURCE_ROOT = os.path.dirname(os.path.dirname(INTEGRATION))


def tile_signature(path):
    """Input and output names of the first function of a .tile file."""
    text = open(path).read()
    m = re.search(r"function\s*\w*\s*\((.*?)\)\s*->\s*\((.*?)\)", text, re.S)
    if not m:
        return None, None

    def names(part):
        depth, cur, out = 0, "", []
        for c in part + ",":
            if c in "[(":
                depth += 1
            elif c in "])":
                depth -= 1
            if c == "," and depth == 0:
                word = re.match(r"\s*(\w+)", cur)
                if word:
                    out.append(word.group(1))
                cur = ""
            else:
                cur += c
        return out

    return names(m.group(1)), names(m.group(2))


def record(argv):
    """The plaidml-run stand-in: argv[0] is the bundle directory."""
    bundle, real, device = argv[0], argv[1], argv[2]
    args = argv[3:]
    if device not in args:
        return subprocess.call([real] + args)
    program = args[0]
    cache = os.path.join(bundle, "cache",
                         hashlib.sha1(os.path.abspath(program).encode()).hexdigest())
    os.makedirs(cache, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    r = subprocess.run([real] + args, env=env, capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode != 0:
        return r.returncode
    artifacts = sorted(glob.glob(os.path.join(cache, "plaidml", "*.so")),
                       key=os.path.getmtime)
    if not artifacts:
        sys.stderr.write("make_bundle: no artifact was compiled\n")
        return 1
    digest = hashlib.sha1(open(artifacts[-1], "rb").read()).hexdigest()[:16]
    os.makedirs(os.path.join(bundle, "artifacts"), exist_ok=True)
    shutil.copy(artifacts[-1], os.path.join(bundle, "artifacts", digest + ".so"))

    inputs, outputs = None, None
    if program.endswith(".tile"):
        inputs, outputs = tile_signature(program)
    case = {"artifact": digest + ".so", "args": [], "inputs": {}, "expected": {}}
    n = len(glob.glob(os.path.join(bundle, "cases", "*.json")))
    case_dir = os.path.join(bundle, "cases", str(n))
    os.makedirs(case_dir, exist_ok=True)
    out_dir = None
    i = 1
    while i < len(args):
        a = args[i]
        if a in ("--device", "--output-dir", "--input", "--bind", "--entry"):
            value = args[i + 1]
            i += 2
        elif a.startswith("--"):
            if a.startswith("--random-inputs") or a == "--print":
                case["args"].append(a)
            i += 1
            continue
        else:
            i += 1
            continue
        if a == "--output-dir":
            out_dir = value
        elif a == "--entry":
            case["args"] += ["--entry", value]
        elif a == "--input":
            name, path = value.split("=", 1)
            if inputs is not None:
                name = f"arg{inputs.index(name)}"
            shutil.copy(path, os.path.join(case_dir, name + ".npy"))
            case["inputs"][name] = f"cases/{n}/{name}.npy"
    if out_dir is None:
        sys.stderr.write("make_bundle: a recorded run needs --output-dir\n")
        return 1
    for path in sorted(glob.glob(os.path.join(out_dir, "*.npy"))):
        name = os.path.basename(path)[:-4]
        if outputs is not None:
            name = f"result{outputs.index(name)}"
        shutil.copy(path, os.path.join(case_dir, "expected-" + name + ".npy"))
        case["expected"][name] = f"cases/{n}/expected-{name}.npy"
    case["source"] = os.path.relpath(os.path.abspath(program), SOURCE_ROOT)
    with open(os.path.join(bundle, "cases", f"{n}.json"), "w") as f:
        json.dump(case, f, indent=1)
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--record":
        return record(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--device", default="vulkan:0")
    parser.add_argument("--out", required=True)
    parser.add_argument("--differential-count", type=int, default=100)
    args = parser.parse_args()
    bundle = os.path.abspath(args.out)
    shutil.rmtree(bundle, ignore_errors=True)
    os.makedirs(os.path.join(bundle, "cases"))
    real = os.path.abspath(args.plaidml_run)
    recorder = os.path.join(bundle, "plaidml-run-recorder")
    with open(recorder, "w") as f:
        f.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} "
                f"--record {bundle} {real} {args.device} \"$@\"\n")
    os.chmod(recorder, 0o755)
    work = os.path.join(bundle, "work")
    status = 0

    for module in ("contraction.mlir", "elementwise.mlir"):
        path = os.path.join(INTEGRATION, module)
        for entry in sorted(set(re.findall(r"--entry (\w+)", open(path).read()))):
            out = os.path.join(work, module, entry)
            r = subprocess.run([recorder, path, "--entry", entry, "--device",
                                args.device, "--output-dir", out],
                               capture_output=True, text=True)
            print(f"{'PASS' if r.returncode == 0 else 'FAIL'} {module} {entry}")
            status |= r.returncode
    checkers = [
        [os.path.join(INTEGRATION, "Models", "check_models.py"),
         "--devices", args.device],
        [os.path.join(INTEGRATION, "TileLang", "Cookbook", "check_cookbook.py"),
         "--devices", args.device, "--doc",
         os.path.join(SOURCE_ROOT, "docs", "TileLanguage.md")],
        [os.path.join(INTEGRATION, "Differential", "run_differential.py"),
         "--device", args.device, "--seed", "1",
         "--count", str(args.differential_count)],
    ]
    for checker in checkers:
        name = os.path.basename(checker[0])
        r = subprocess.run([sys.executable] + checker +
                           ["--plaidml-run", recorder,
                            "--work-dir", os.path.join(work, name)],
                           capture_output=True, text=True)
        last = r.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"{name}: {last[0]}")
        status |= r.returncode
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(os.path.join(bundle, "cache"), ignore_errors=True)
    os.remove(recorder)
    shutil.copy(os.path.join(HERE, "check_bundle.py"), bundle)
    cases = len(glob.glob(os.path.join(bundle, "cases", "*.json")))
    print(f"bundle {bundle}: {cases} cases, "
          f"{len(os.listdir(os.path.join(bundle, 'artifacts')))} artifacts")
    return status


if __name__ == "__main__":
    sys.exit(main())
