#!/usr/bin/env python3
"""Whole networks and a training step on a GPU machine without the compiler
(bench/gpu/README.md). Two commands:

  networks.py prepare --compiler-build build --runtime-build /tmp/plaidml-runtime \\
                      --out build-h200/networks
      Here: MobileNetV2 and ResNet-50 of the op library (plaidml-net
      --print-ir: the image and every weight are inputs) at batch 1 and 32,
      and the digits CNN's training step (examples/train_digits.py: forward,
      cross-entropy, gradients, Adam, batch 32), compiled for vulkan:0 and
      opencl:0 with portable host code, plus the runtime-only plaidml-run.

  networks.py run --dir build-h200/networks [--opencl-device opencl:1]
      There: every artifact run by plaidml-run (`--random-inputs --repeat N
      --warmup W`: median time of one run, inputs already on the device),
      beside PyTorch on CUDA (torchvision's mobilenet_v2 and resnet50 in eval
      mode, TF32 off, CUDA events; the same digits CNN trained with Adam on
      scikit-learn's digits, time per epoch). Prints a markdown table.

Timing only: the networks' weights are random here, so their outputs are not
checked (test/Networks and test/Onnx check the same programs against the
reference interpreter and onnxruntime on every device in CI).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NETWORKS = ["mobilenet_v2", "resnet50"]
BATCHES = [1, 32]
APIS = {"vulkan": "vulkan:0", "opencl": "opencl:0"}
TRAIN_BATCH = 32
TRAIN_IMAGES = 1438  # train_digits.py's training split of the 1797 digits


def dump_train_step(compiler_build, path):
    """Writes the Tile IR of train_digits.py's Adam train step."""
    code = (
        "import sys, numpy as np\n"
        f"sys.path.insert(0, {os.path.join(ROOT, 'examples')!r})\n"
        "import train_digits as t\n"
        "p = t.init_params(np.random.default_rng(0))\n"
        "names = list(p)\n"
        f"prog = t.build_train_step(names, {{n: list(p[n].shape) for n in names}}, {TRAIN_BATCH},"
        " 'xent', 'adam', 0.003)\n"
        f"open({path!r}, 'w').write(str(prog))\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(compiler_build, "python"))
    python = os.path.join(ROOT, ".venv", "bin", "python3")
    subprocess.run([python if os.access(python, os.X_OK) else sys.executable, "-c", code],
                   check=True, env=env)


def prepare(args):
    os.makedirs(args.out, exist_ok=True)
    bindir = os.path.join(args.compiler_build, "bin")
    programs = []
    for net in NETWORKS:
        for batch in BATCHES:
            name = f"{net}-b{batch}"
            src = os.path.join(args.out, name + ".mlir")
            with open(src, "w") as f:
                subprocess.run([os.path.join(bindir, "plaidml-net"), net, "--batch", str(batch),
                                "--print-ir"], check=True, stdout=f)
            programs.append({"name": name, "kind": "network", "net": net, "batch": batch,
                             "src": src})
    src = os.path.join(args.out, "train_digits-b32.mlir")
    dump_train_step(args.compiler_build, src)
    programs.append({"name": "train_digits-b32", "kind": "train", "batch": TRAIN_BATCH,
                     "src": src})
    manifest = {"programs": []}
    for p in programs:
        entry = {k: v for k, v in p.items() if k != "src"}
        entry["artifacts"] = {}
        for api, device in APIS.items():
            dst = os.path.join(args.out, f"{p['name']}-{api}.plaidml")
            start = time.time()
            r = subprocess.run([os.path.join(bindir, "plaidml-compile"), p["src"], "--device",
                                device, "--cpu", "x86-64", "-o", dst],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"networks.py: compiling {p['name']} for {device} failed:\n{r.stderr}")
            print(f"compiled {p['name']} for {device} in {time.time() - start:.1f} s", flush=True)
            entry["artifacts"][api] = os.path.basename(dst)
        os.remove(p["src"])
        manifest["programs"].append(entry)
    runner = os.path.join(args.runtime_build, "bin", "plaidml-run")
    if not os.access(runner, os.X_OK):
        sys.exit(f"networks.py: no runtime-only plaidml-run at {runner} (docs/VulkanRuntime.md)")
    shutil.copy2(runner, os.path.join(args.out, "plaidml-run"))
    shutil.copy2(os.path.abspath(__file__), os.path.join(args.out, "networks.py"))
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {args.out}")


def run_plaidml(runner, artifact, device, repeat, warmup):
    r = subprocess.run([runner, artifact, "--device", device, "--random-inputs",
                        "--repeat", str(repeat), "--warmup", str(warmup)],
                       capture_output=True, text=True)
    m = re.search(r"median ([0-9.]+) ms", r.stdout)
    if r.returncode != 0 or not m:
        msg = (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:]
        return None, msg[0] if msg else f"exit {r.returncode}"
    return float(m.group(1)), None


def cuda_median(fn, repeat, warmup):
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def torch_network(net, batch, repeat, warmup):
    import torch
    import torchvision
    model = getattr(torchvision.models, net)(weights=None).cuda().eval()
    x = torch.randn(batch, 3, 224, 224, device="cuda")
    with torch.no_grad():
        ms = cuda_median(lambda: model(x), repeat, warmup)
    del model, x
    torch.cuda.empty_cache()
    return ms


def torch_digits_epoch(epochs=3):
    """The digits CNN of train_digits.py (NCHW here), Adam, batch 32:
    median wall time of an epoch on the GPU and the last epoch's accuracy."""
    import numpy as np
    import torch
    from sklearn.datasets import load_digits
    d = load_digits()
    rng = np.random.default_rng(0)
    order = rng.permutation(len(d.target))
    x = (d.images[order] / 16.0).astype(np.float32)[:, None]
    y = d.target[order]
    xt, yt = torch.tensor(x[:TRAIN_IMAGES]).cuda(), torch.tensor(y[:TRAIN_IMAGES]).cuda()
    xv, yv = torch.tensor(x[TRAIN_IMAGES:]).cuda(), torch.tensor(y[TRAIN_IMAGES:]).cuda()
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1),
                          nn.ReLU(), nn.MaxPool2d(2), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=0.003)
    loss_fn = nn.CrossEntropyLoss()
    times = []
    for _ in range(epochs):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for i in range(0, TRAIN_IMAGES - TRAIN_BATCH + 1, TRAIN_BATCH):
            opt.zero_grad()
            loss = loss_fn(model(xt[i:i + TRAIN_BATCH]), yt[i:i + TRAIN_BATCH])
            loss.backward()
            opt.step()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    with torch.no_grad():
        acc = float((model(xv).argmax(1) == yv).float().mean())
    return statistics.median(times), acc


def fmt(ms):
    return "—" if ms is None else (f"{ms:.3f} ms" if ms < 10 else f"{ms:.1f} ms")


def run(args):
    manifest = json.load(open(os.path.join(args.dir, "manifest.json")))
    runner = args.plaidml_run or os.path.join(args.dir, "plaidml-run")
    devices = {"vulkan": args.vulkan_device, "opencl": args.opencl_device}
    have_torch = not args.no_torch
    if have_torch:
        try:
            import torch
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
            have_torch = torch.cuda.is_available()
        except ImportError:
            have_torch = False
    rows, failed = [], False
    steps = TRAIN_IMAGES // TRAIN_BATCH
    only = [n for n in args.only.split(",") if n]
    for p in manifest["programs"]:
        if only and p["name"] not in only:
            continue
        times = {}
        for api, artifact in p["artifacts"].items():
            ms, err = run_plaidml(runner, os.path.join(args.dir, artifact), devices[api],
                                  args.repeat, args.warmup)
            if err:
                print(f"{p['name']} on {devices[api]}: {err}", flush=True)
                failed = True
            times[api] = ms
        peer, extra = None, ""
        if have_torch:
            if p["kind"] == "network":
                peer = torch_network(p["net"], p["batch"], args.repeat, args.warmup)
            else:
                epoch, acc = torch_digits_epoch()
                peer = epoch / steps
                extra = f"PyTorch epoch {epoch:.0f} ms ({steps} steps), test accuracy {acc:.3f}"
        ratio = "" if peer is None or times.get("vulkan") is None else \
            f"{peer / times['vulkan']:.3f}x"
        rows.append([p["name"], fmt(times.get("vulkan")), fmt(times.get("opencl")), fmt(peer),
                     ratio, extra])
        print(f"{p['name']}: vulkan {fmt(times.get('vulkan'))}, opencl {fmt(times.get('opencl'))},"
              f" torch {fmt(peer)} {extra}", flush=True)
    print()
    print("| program | PlaidML Vulkan | PlaidML OpenCL | PyTorch (CUDA) | ratio (Vulkan) | |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(f"\ntrain_digits-b32 is one training step (forward, loss, backward, Adam) of batch "
          f"{TRAIN_BATCH}; an epoch is {steps} steps.")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--compiler-build", default=os.path.join(ROOT, "build"))
    p.add_argument("--runtime-build", required=True)
    p.add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", default=HERE)
    r.add_argument("--plaidml-run", default="")
    r.add_argument("--repeat", type=int, default=10)
    r.add_argument("--warmup", type=int, default=2)
    r.add_argument("--vulkan-device", default="vulkan:0")
    r.add_argument("--opencl-device", default="opencl:1")
    r.add_argument("--no-torch", action="store_true")
    r.add_argument("--only", default="", help="comma-separated program names")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
