#!/usr/bin/env python3
# ===- run.py - Whole networks: plaidbench against onnxruntime --------------===#
#
# One command for the whole-network numbers of docs/Performance.md:
#   bench/networks/run.py --build build
# builds MobileNetV2, ResNet-50 (224x224, batch 1) and a transformer encoder
# block as ONNX models with seeded weights (test/Onnx/networks.py, the
# models of the onnx-* ctests), checks PlaidML's outputs on cpu against
# onnxruntime's (plaidml-run, max |error| <= 1e-4 of the output's scale),
# times each model with plaidbench (cpu) and with onnxruntime (the pip
# package of the project's .venv) at 1 and 2 threads, and prints a markdown
# table of median latencies, their ratios and plaidbench's compile times
# (cold, and from the cache). `--rounds N` alternates onnxruntime and
# plaidbench N times per model and thread count and reports the medians of
# the rounds and the median of the per-round ratios: on a shared, noisy
# host one sequential pair decides nothing. Run it with the project's
# virtual environment (.venv/bin/python3; it has onnx and onnxruntime).
#
# ===----------------------------------------------------------------------===#
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "Onnx"))
import networks  # noqa: E402


def time_onnxruntime(path, inputs, threads, examples, warmup):
    sess, _ = networks.run_onnxruntime(path, inputs, threads)
    for _ in range(warmup):
        sess.run(None, inputs)
    times = []
    for _ in range(examples):
        start = time.perf_counter()
        sess.run(None, inputs)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def run_plaidbench(tool, path, threads, examples, warmup, results):
    args = [tool, "--device", "cpu", "--threads", str(threads), "--examples",
            str(examples), "--warmup", str(warmup), "--results", results,
            path]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), p.stderr.strip()))
    name = os.path.splitext(os.path.basename(path))[0]
    with open(os.path.join(results, "%s-cpu-b1-t%d.json" % (name, threads))) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(
        description="Whole networks: plaidbench against onnxruntime.")
    ap.add_argument("--build", default="build", help="the build directory")
    ap.add_argument("--work", help="where models and results go "
                    "(default BUILD/bench/networks)")
    ap.add_argument("--models", default="mobilenet_v2,resnet50,transformer")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--examples", type=int, default=30,
                    help="timed runs per model and thread count")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1,
                    help="alternate onnxruntime and PlaidML this many times; "
                    "the ratio is the median of the rounds' ratios")
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("run.py: --rounds must be at least 1")

    tools = os.path.join(args.build, "bin")
    plaidbench = os.path.join(tools, "plaidbench")
    plaidml_run = os.path.join(tools, "plaidml-run")
    for tool in (plaidbench, plaidml_run):
        if not os.access(tool, os.X_OK):
            sys.exit("run.py: no %s (build the project first: ninja -C %s)"
                     % (tool, args.build))
    work = args.work or os.path.join(args.build, "bench", "networks")
    results = os.path.join(work, "results")
    os.makedirs(results, exist_ok=True)
    threads = [int(t) for t in args.threads.split(",")]

    rows, failed = [], False
    for name in args.models.split(","):
        model = networks.build(name)
        path = os.path.join(work, name + ".onnx")
        # Rewritten only when it changed: the compile cache trusts a file's
        # stat record only when the file is older than 2 s, so a model
        # written just now is hashed on every open, which a cached compile
        # time would then measure.
        data = model.SerializeToString()
        old = None
        if os.path.exists(path):
            with open(path, "rb") as f:
                old = f.read()
        if old != data:
            with open(path, "wb") as f:
                f.write(data)
        inputs = networks.example_inputs(model)
        _, expected = networks.run_onnxruntime(path, inputs)
        ok, message = networks.check(plaidml_run, path, inputs, expected,
                                     os.path.join(work, name), "cpu")
        print("%s: %s" % (name, message), file=sys.stderr)
        failed |= not ok
        row = {"model": name, "check": "ok" if ok else "FAIL", "t": {}}
        for t in threads:
            pml, ort, ratios = [], [], []
            for _ in range(args.rounds):
                ort_ms = time_onnxruntime(path, inputs, t, args.examples,
                                          args.warmup)
                bench = run_plaidbench(plaidbench, path, t, args.examples,
                                       args.warmup, results)
                pml.append(bench["latency_ms"]["median"])
                ort.append(ort_ms)
                ratios.append(pml[-1] / ort_ms)
                if "compile" not in row:
                    row["compile"] = bench["compile_ms"]
                print("%s, %d thread(s): plaidml %.2f ms, onnxruntime %.2f ms"
                      % (name, t, pml[-1], ort_ms), file=sys.stderr)
            row["t"][t] = (statistics.median(pml), statistics.median(ort),
                           statistics.median(ratios))
        rows.append(row)

    head = "| model |"
    rule = "|---|"
    for t in threads:
        head += " PlaidML %dT (ms) | onnxruntime %dT (ms) | ratio %dT |" % (
            t, t, t)
        rule += "---:|---:|---:|"
    if len(threads) > 1:
        head += " PlaidML %dT speed-up |" % threads[-1]
        rule += "---:|"
    head += " compile cold (ms) | compile cached (ms) | vs onnxruntime |"
    rule += "---:|---:|:---:|"
    rounds = ("" if args.rounds == 1 else
              "; %d alternating rounds: medians of the rounds, ratio = "
              "median of the rounds' ratios" % args.rounds)
    lines = ["Measured %s UTC on %s; median of %d runs after %d warm-up runs, "
             "batch 1; ratio = PlaidML / onnxruntime%s." % (
                 datetime.datetime.now(datetime.timezone.utc).strftime(
                     "%Y-%m-%d %H:%M"), os.uname().nodename, args.examples,
                 args.warmup, rounds), "", head, rule]
    for r in rows:
        line = "| %s |" % r["model"]
        for t in threads:
            p, o, ratio = r["t"][t]
            line += " %.2f | %.2f | %.2f |" % (p, o, ratio)
        if len(threads) > 1:
            line += " %.2fx |" % (r["t"][threads[0]][0] /
                                  r["t"][threads[-1]][0])
        line += " %.0f | %.1f | %s |" % (r["compile"]["cold"],
                                         r["compile"]["cached"], r["check"])
        lines.append(line)
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(work, "networks.md"), "w") as f:
        f.write(table + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
