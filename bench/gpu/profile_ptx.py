#!/usr/bin/env python3
"""Launch one kernel of the PTX that NVIDIA's OpenCL built from PlaidML's
OpenCL C, through CUDA (CuPy), so that Nsight Compute can profile it: ncu
profiles CUDA launches, not OpenCL ones, and the PTX is the same code the
OpenCL driver runs.

On the GPU machine (bench/gpu/README.md, `profile_ptx.py`):

  PLAIDML_OPENCL_DUMP=/tmp/dump plaidml-run CASE.opencl.so --device opencl:1 ...
  ncu --clock-control none --set full python3 profile_ptx.py \\
      --ptx /tmp/dump/opencl-0.bin --grid 32,32,1 --block 256,1,1 \\
      --bytes 33554432,33554432,67108864

Every pointer parameter gets a buffer of the next `--bytes` size, filled
with f16 values in [0, 1) (finite whatever type the kernel reads), every
integer parameter the next `--scalars` value. The grid and block are the
ones plaidml-run launches with (the OpenCL C's reqd_work_group_size is the
block; the grid is the output's tiles). Prints the kernel's time (CUDA events, median of
--repeat launches after --warmup).
"""

import argparse
import re
import statistics
import sys


def parse_entry(ptx, name):
    """The named (or first) kernel entry's parameter types."""
    for match in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S):
        if name and match.group(1) != name:
            continue
        params = []
        for decl in match.group(2).split(","):
            decl = decl.strip()
            if not decl:
                continue
            kind = re.search(r"\.param\s+\.(\w+)", decl)
            if not kind:
                sys.exit(f"profile_ptx: cannot read parameter '{decl}'")
            params.append((kind.group(1), ".ptr" in decl))
        return match.group(1), params
    sys.exit(f"profile_ptx: no kernel '{name}' in the PTX" if name else
             "profile_ptx: the PTX has no .entry")


def triple(text):
    values = [int(v) for v in text.split(",")]
    if len(values) != 3 or min(values) < 1:
        raise argparse.ArgumentTypeError(f"want X,Y,Z, got '{text}'")
    return tuple(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptx", required=True)
    parser.add_argument("--kernel", default="")
    parser.add_argument("--grid", type=triple, required=True)
    parser.add_argument("--block", type=triple, required=True)
    parser.add_argument("--bytes", default="", help="comma-separated, one per pointer")
    parser.add_argument("--scalars", default="", help="comma-separated, one per integer")
    parser.add_argument("--write-ptx", default="",
                        help="also write the PTX as launched (for ptxas -v, cuobjdump)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args()

    import cupy as cp
    import numpy as np

    with open(args.ptx, "rb") as f:
        ptx = f.read().rstrip(b"\0").decode("ascii", "replace")
    # NVIDIA's OpenCL passes the work offsets (added to get_group_id and
    # get_global_id) in %envreg registers, which a CUDA launch leaves
    # undefined: read them as 0.
    ptx, offsets = re.subn(r"mov\.b32\s+(%r\d+),\s*%envreg\d+;", r"mov.b32 \1, 0;", ptx)
    name, params = parse_entry(ptx, args.kernel)
    sizes = [int(v) for v in args.bytes.split(",") if v]
    scalars = [int(v) for v in args.scalars.split(",") if v]
    module = cp.cuda.function.Module()
    module.load(ptx.encode() + b"\0")
    kernel = module.get_function(name)

    values = []
    rng = np.random.default_rng(1)
    for kind, is_ptr in params:
        if is_ptr:
            if not sizes:
                sys.exit(f"profile_ptx: {name} has more pointers than --bytes sizes")
            n = sizes.pop(0)
            host = rng.random(n // 2, dtype=np.float32).astype(np.float16)
            values.append(cp.asarray(host))
        else:
            if not scalars:
                sys.exit(f"profile_ptx: {name} has more integer parameters than --scalars")
            v = scalars.pop(0)
            values.append(np.int64(v) if kind in ("u64", "s64", "b64") else np.int32(v))
    print(f"profile_ptx: {name}, {len(params)} parameters, {offsets} work "
          f"offsets read as 0, grid {args.grid}, block {args.block}")
    if args.write_ptx:
        with open(args.write_ptx, "w") as f:
            f.write(ptx)
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(args.warmup):
        kernel(args.grid, args.block, tuple(values))
    times = []
    for _ in range(args.repeat):
        start.record()
        kernel(args.grid, args.block, tuple(values))
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    print(f"profile_ptx: {name} median {statistics.median(times):.4f} ms "
          f"(runs {', '.join(f'{t:.4f}' for t in times)})")


if __name__ == "__main__":
    main()
