#!/usr/bin/env python3
# ===- conformance.py - The ONNX node-test conformance suite ---------------===#
#
# Generates the ONNX backend node tests (gen_node_tests.py), runs those of
# every op the importer supports with plaidml-onnx-test on cpu (all of them)
# and on the GPU devices given (--subset-device: the first test of each op),
# in batches of many tests per process, and
#   * writes a markdown report (--report): pass / fail / error / unsupported
#     per op and in total, the required ops of issue 17 first;
#   * checks the results (--check): every test that fails or errors must be
#     listed in known-failures.txt with its device, and every listed one
#     must still fail there, so the list stays true.
# Tests of ops the importer does not know are counted as unsupported
# without running.
#
# ===----------------------------------------------------------------------===#
import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict

from devices import present_devices

HERE = os.path.dirname(os.path.abspath(__file__))

# The ops issue 17 requires (torchvision's classification and detection
# networks).
REQUIRED = """Conv ConvTranspose BatchNormalization Relu Clip LeakyRelu Sigmoid
HardSigmoid HardSwish Tanh Erf Gelu Softmax LogSoftmax MaxPool AveragePool
GlobalAveragePool Gemm MatMul Add Sub Mul Div Pow Sqrt Exp Log Neg Abs Reshape
Flatten Transpose Concat Split Slice Gather Squeeze Unsqueeze Pad Resize
ReduceMean ReduceSum ReduceMax LayerNormalization Constant ConstantOfShape
Shape Identity Dropout Cast Where Equal Less Greater Expand Tile Range ArgMax
Min Max""".split()


def run_batches(tool, tests, root, devices, jobs_env):
    results = []
    batch = 40
    for i in range(0, len(tests), batch):
        chunk = tests[i:i + batch]
        cmd = [tool] + sum([["--device", d] for d in devices], []) + \
              [os.path.join(root, t) for t in chunk]
        p = subprocess.run(cmd, capture_output=True, text=True, env=jobs_env)
        seen = set()
        for line in p.stdout.splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            results.append(r)
            seen.add(r["test"])
        if p.returncode != 0 or len(seen) < len(chunk):
            # A crash: the tests after the last reported one did not run.
            why = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
            rest = [t for t in chunk if t not in seen]
            if rest:
                crashed = rest[0]
                for d in devices:
                    results.append({"test": crashed, "device": d,
                                    "status": "error",
                                    "message": "crash: " + why})
                results += run_batches(tool, rest[1:], root, devices, jobs_env)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True, help="plaidml-onnx-test")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--work", required=True, help="directory for the tests")
    ap.add_argument("--device", action="append", default=[])
    ap.add_argument("--subset-device", action="append", default=[])
    ap.add_argument("--report")
    ap.add_argument("--results", help="write every result as JSON lines")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--filter", default="", help="only tests containing this")
    ap.add_argument("--run-tool", help="plaidml-run, to check that the "
                    "subset devices are there (skipped when they are not, "
                    "unless PLAIDML_REQUIRE_VULKAN / _OPENCL is 1)")
    args = ap.parse_args()
    start = time.time()

    root = os.path.join(args.work, "node")
    index_path = os.path.join(root, "index.json")
    if not os.path.exists(index_path):
        subprocess.run([args.python, os.path.join(HERE, "gen_node_tests.py"),
                        root], check=True)
    with open(index_path) as f:
        index = json.load(f)
    supported = set(subprocess.run([args.tool, "--list-ops"], check=True,
                                   capture_output=True,
                                   text=True).stdout.split())

    if args.run_tool:
        present = present_devices(args.run_tool, args.subset_device,
                                  "conformance")
        if present is None:
            return 1
        args.subset_device = present

    runnable, results = [], []
    for name, e in sorted(index.items()):
        if args.filter and args.filter not in name:
            continue
        if "skip" in e:
            for d in args.device + args.subset_device:
                results.append({"test": name, "device": d,
                                "status": "unsupported",
                                "message": e["skip"]})
        elif not set(e["ops"]) <= supported:
            missing = sorted(set(e["ops"]) - supported)
            for d in args.device + args.subset_device:
                results.append({"test": name, "device": d,
                                "status": "unsupported",
                                "message": "op " + ", ".join(missing),
                                "notrun": True})
        else:
            runnable.append(name)
    env = dict(os.environ)
    if args.device:
        results += run_batches(args.tool, runnable, root, args.device, env)
    if args.subset_device:
        # The first test of each op, leaving out element types the GPU
        # targets do not take (f64, bf16) and booleans.
        firsts, seen = [], set()
        gpu_types = ("bfloat16", "BFLOAT16", "double", "DOUBLE", "bool")
        for name in runnable:
            op = index[name]["op"]
            # 9 BOOL, 11 DOUBLE, 16 BFLOAT16 (ONNX's TensorProto types).
            if any(t in name for t in gpu_types) or \
                    set(index[name].get("types", [])) & {9, 11, 16}:
                continue
            if op not in seen and not index[name]["expanded"]:
                seen.add(op)
                firsts.append(name)
        results += run_batches(args.tool, firsts, root, args.subset_device,
                               env)
    elapsed = time.time() - start

    if args.results:
        with open(args.results, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    if args.report:
        write_report(args.report, index, results, args.device,
                     args.subset_device, elapsed, args.work)

    counts = defaultdict(int)
    for r in results:
        counts[r["status"]] += 1
    print("conformance: %s in %.0f s" % (
        ", ".join("%s %d" % kv for kv in sorted(counts.items())), elapsed))
    if not args.check:
        return 0
    known = set()
    with open(os.path.join(HERE, "known-failures.txt")) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                known.add(tuple(line.split()[:2]))
    bad = []
    failing = set()
    for r in results:
        if r["status"] in ("fail", "error"):
            failing.add((r["device"], r["test"]))
            if (r["device"], r["test"]) not in known:
                bad.append("%s %s: %s: %s" % (r["device"], r["test"],
                                              r["status"], r["message"]))
    ran = {(r["device"], r["test"]) for r in results}
    for k in sorted(known):
        if k in ran and k not in failing:
            bad.append("%s %s: listed in known-failures.txt but passes now"
                       % k)
    for b in bad:
        print("conformance: " + b)
    return 1 if bad else 0


def write_report(path, index, results, devices, subset, elapsed, work):
    per_op = defaultdict(lambda: defaultdict(int))
    for r in results:
        if r["device"] != (devices or subset)[0]:
            continue
        op = index[r["test"]]["op"]
        per_op[op][r["status"]] += 1
    lines = []
    total = defaultdict(int)
    for st in per_op.values():
        for k, v in st.items():
            total[k] += v
    lines.append("# ONNX conformance: the backend node tests\n")
    lines.append(
        "Generated by `test/Onnx/conformance.py` (ctest `onnx-conformance`) "
        "from the node tests of the pip `onnx` package pinned in "
        "`scripts/requirements.txt`; do not edit. docs/Onnx.md explains the "
        "suite and the importer's limits.\n")
    lines.append(
        "Device `%s`: every node test (tests of ops the importer does not "
        "map are counted as unsupported without running)%s.\n" % (
            (devices or subset)[0],
            "; %s run the first test of each supported op" % (
                ", ".join("`%s`" % d for d in subset)) if subset else ""))
    lines.append("**Total: %d tests: %d pass, %d fail, %d error, %d "
                 "unsupported.**\n" % (
                     sum(total.values()), total["pass"], total["fail"],
                     total["error"], total["unsupported"]))
    for d in subset:
        st = defaultdict(int)
        for r in results:
            if r["device"] == d and not r.get("notrun") and \
                    r["status"] != "unsupported":
                st[r["status"]] += 1
        lines.append("Device `%s` (the first test of each supported op, "
                     "without f64, bf16 and booleans): %d pass, %d fail, %d "
                     "error.\n" % (d, st["pass"], st["fail"], st["error"]))
    req = defaultdict(int)
    for op in REQUIRED:
        for k, v in per_op.get(op, {}).items():
            req[k] += v
    lines.append("Required ops (issue 17): %d tests: %d pass, %d fail, %d "
                 "error, %d unsupported.\n" % (
                     sum(req.values()), req["pass"], req["fail"],
                     req["error"], req["unsupported"]))
    for title, ops in (("Required ops", REQUIRED),
                       ("Other ops", sorted(set(per_op) - set(REQUIRED)))):
        lines.append("## %s\n" % title)
        lines.append("| op | tests | pass | fail | error | unsupported |")
        lines.append("|---|---|---|---|---|---|")
        for op in ops:
            st = per_op.get(op, {})
            lines.append("| %s | %d | %d | %d | %d | %d |" % (
                op, sum(st.values()), st.get("pass", 0), st.get("fail", 0),
                st.get("error", 0), st.get("unsupported", 0)))
        lines.append("")
    lines.append("## Tests that do not pass (required ops)\n")
    lines.append("| test | device | status | why |")
    lines.append("|---|---|---|---|")
    for r in sorted(results, key=lambda r: (r["test"], r["device"])):
        if r["status"] == "pass" or index[r["test"]]["op"] not in REQUIRED:
            continue
        # Paths relative to the work directory, so the report does not
        # change with the build tree it ran in.
        msg = r.get("message", "").replace(os.path.join(
            os.path.abspath(work), ""), "")
        msg = msg.replace("|", "\\|").replace("\n", " ")
        if len(msg) > 160:
            msg = msg[:157] + "..."
        lines.append("| %s | %s | %s | %s |" % (r["test"], r["device"],
                                                r["status"], msg))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
