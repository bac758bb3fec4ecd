# plaidml-run for OpenCL, in the tests, until the runtime loads OpenCL
# artifacts: compiles a program with -plaidml-opencl-pipeline (or, for
# ABI-form input without Tile ops, -plaidml-opencl-lowering-pipeline), then
# runs the host function of the entry with opencl-kernel-runner: every
# gpu.binary's OpenCL C text goes to a .cl file, and the function's buffers
# (inputs arg0.., outputs result0.., as plaidml-run names them; memref.alloc
# temporaries; memref.global constants, written to .npy) and gpu.launch_func
# ops become the runner's --buffer/--input/--launch arguments, in order.
#
#   opencl-run.py --plaidml-opt P --runner R [--options "fp64=1"]
#                 [--work-dir D] FILE --entry NAME [--device opencl:N]
#                 [--input NAME=PATH.npy]... [--print] [--output-dir DIR]
#   opencl-run.py --make-shim OUT --plaidml-opt P --runner R [--options ...]
#                 [--work-dir D]
#
# --make-shim writes an executable OUT that runs this script with those
# options and its own arguments: a plaidml-run stand-in for scripts such as
# test/Integration/Models/check_models.py. Any host op other than constants,
# allocations, constants' get_global and launches is an error: this stands in
# for the runtime's launch ABI, it is not an interpreter.

import argparse
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np


def strings(line):
    """The MLIR string literals of `line`, decoded to bytes."""
    out = []
    i = 0
    while True:
        i = line.find('"', i)
        if i < 0:
            return out
        value = bytearray()
        i += 1
        while line[i] != '"':
            if line[i] == "\\":
                if line[i + 1] == "\\":
                    value.append(0x5C)
                    i += 2
                else:
                    value.append(int(line[i + 1 : i + 3], 16))
                    i += 3
            else:
                value.extend(line[i].encode("utf-8"))
                i += 1
        out.append(bytes(value))
        i += 1


def split_top(text):
    """Splits at the commas outside <...>, (...) and [...]."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def spec_of(shaped):
    """memref<2x3xi32> / tensor<2x3xsi32> -> 2x3xsi32."""
    inner = re.match(r"(?:memref|tensor)<(.*)>$", shaped.strip()).group(1)
    return inner.split(",")[0].strip()


NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
         "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def dense_to_array(dense, spec):
    """The value of dense<...> as a NumPy array of shape and type `spec`."""
    *dims, elem = spec.split("x")
    shape = [int(d) for d in dims]
    dtype = NUMPY[elem]
    body = dense.strip()
    if body.startswith('"0x'):
        return np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype).reshape(shape)
    tokens = re.findall(r"true|false|0x[0-9A-Fa-f]+|[-+0-9.eE]+", body)
    values = []
    for t in tokens:
        if t in ("true", "false"):
            values.append(t == "true")
        elif t.startswith("0x"):
            values.append(np.frombuffer(int(t, 16).to_bytes(np.dtype(dtype).itemsize,
                                                            "little"), dtype=dtype)[0])
        else:
            values.append(float(t) if elem.startswith("f") else int(t))
    array = np.array(values, dtype=dtype)
    if array.size == 1:
        return np.full(shape, array[0], dtype=dtype)
    return array.reshape(shape)


def compile_program(args, path, workdir):
    """The pipeline's output for `path`, compiled once per text and options."""
    text = open(path).read()
    if "gpu.binary" in text:
        return path
    key = hashlib.sha256((args.options + "\0" + text).encode()).hexdigest()[:16]
    out = os.path.join(workdir, f"program-{key}.mlir")
    if not os.path.exists(out):
        pipeline = ("plaidml-opencl-pipeline" if "tile." in text
                    else "plaidml-opencl-lowering-pipeline")
        tmp = out + f".{os.getpid()}"
        r = subprocess.run([args.plaidml_opt, path, f"-{pipeline}={args.options}",
                            "-o", tmp])
        if r.returncode != 0:
            sys.exit(r.returncode)
        os.replace(tmp, out)
    return out


def run(args, program, workdir):
    func = args.entry
    extra = ["--device", args.device.split(":")[1]]
    for i in args.input:
        extra += ["--input", i]
    lines = open(program).read().splitlines()

    kernels = {}
    globals_ = {}
    for line in lines:
        m = re.match(r"\s*gpu\.binary @(\w+)", line)
        if m:
            text = strings(line)[-1].rstrip(b"\0")
            path = os.path.join(workdir, m.group(1) + ".cl")
            with open(path, "wb") as f:
                f.write(text)
            kernels[m.group(1)] = path
        m = re.match(r'\s*memref\.global .*@(\S+) : (memref<[^>]*>) = dense<(.*)>', line)
        if m:
            globals_[m.group(1)] = (m.group(2), m.group(3))

    start = next((i for i, l in enumerate(lines)
                  if re.match(r"\s*func\.func @%s\(" % re.escape(func), l)), None)
    if start is None:
        sys.exit(f"opencl-run.py: no func.func @{func} in {program}")
    header = lines[start]
    params = split_top(re.match(r"\s*func\.func @\w+\((.*)\)", header).group(1).split(")")[0])
    inputs = re.search(r"plaidml\.inputs = \[(.*?)\]", header)
    outputs = re.search(r"plaidml\.outputs = \[(.*?)\]", header)
    inputs = split_top(inputs.group(1)) if inputs else []
    outputs = split_top(outputs.group(1)) if outputs else []

    given = {i.split("=")[0] for i in args.input}
    shown = []
    runner_args, names = [], {}
    for i, p in enumerate(params):
        ssa, ty = [s.strip() for s in p.split(":", 1)]
        if i < len(inputs):
            name, spec = f"arg{i}", spec_of(inputs[i])
        elif outputs and i - len(inputs) < len(outputs):
            name, spec = f"result{i - len(inputs)}", spec_of(outputs[i - len(inputs)])
        else:
            name, spec = ssa[1:], spec_of(ty)
        names[ssa] = name
        if name in given:
            continue
        if i < len(inputs):
            sys.exit(f"opencl-run.py: give --input {name}=PATH.npy")
        # Outputs, and every buffer of a function without plaidml.inputs
        # that the command line does not fill.
        runner_args += ["--buffer", f"{name}={spec}"]
        shown.append(name)

    consts = {}
    for line in lines[start + 1:]:
        s = line.strip()
        if s == "}":
            break
        m = re.match(r"(%[\w$.-]+) = arith\.constant (-?\d+) : index", s)
        if m:
            consts[m.group(1)] = m.group(2)
            continue
        if re.match(r"%[\w$.-]+ = arith\.constant ", s):
            continue  # left behind by outlining, unused
        m = re.match(r"(%\w+) = memref\.alloc\(\) : (memref<.*>)$", s)
        if m:
            names[m.group(1)] = m.group(1)[1:]
            runner_args += ["--buffer", f"{m.group(1)[1:]}={spec_of(m.group(2))}"]
            continue
        m = re.match(r"(%\w+) = memref\.get_global @(\S+) : (memref<.*>)$", s)
        if m:
            memref, dense = globals_[m.group(2)]
            name = "const_" + m.group(1)[1:]
            path = os.path.join(workdir, name + ".npy")
            np.save(path, dense_to_array(dense, spec_of(memref)))
            names[m.group(1)] = name
            runner_args += ["--input", f"{name}={path}"]
            continue
        m = re.match(r"gpu\.launch_func\s+@(\w+)::@(\w+) blocks in \((.*?)\) threads in "
                     r"\((.*?)\)\s+args\((.*)\)$", s)
        if m:
            grid = ",".join(consts[v.strip()] for v in m.group(3).split(","))
            block = ",".join(consts[v.strip()] for v in m.group(4).split(","))
            operands = [names[a.split(":")[0].strip()] for a in split_top(m.group(5))]
            runner_args += ["--launch", f"{kernels[m.group(1)]}:{m.group(2)}:{grid}:{block}:"
                     + ",".join(operands)]
            continue
        if s.startswith("memref.dealloc") or s == "return":
            continue
        sys.exit(f"opencl-run.py: cannot run host op: {s}")

    for name in shown:
        if args.print:
            runner_args += ["--print", name]
        if args.output_dir:
            os.makedirs(args.output_dir, exist_ok=True)
            runner_args += ["--output", f"{name}={os.path.join(args.output_dir, name)}.npy"]
    return subprocess.run([args.runner] + runner_args + extra).returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-opt", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--options", default="")
    parser.add_argument("--work-dir", default="")
    parser.add_argument("--make-shim", default="")
    parser.add_argument("file", nargs="?")
    parser.add_argument("--entry", default="")
    parser.add_argument("--device", default="opencl:0")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--print", action="store_true")
    parser.add_argument("--output-dir", default="")
    args = parser.parse_args()
    if args.make_shim:
        command = [sys.executable, os.path.abspath(__file__),
                   "--plaidml-opt", os.path.abspath(args.plaidml_opt),
                   "--runner", os.path.abspath(args.runner),
                   "--options", args.options]
        if args.work_dir:
            command += ["--work-dir", os.path.abspath(args.work_dir)]
        with open(args.make_shim, "w") as f:
            f.write("#!/bin/sh\nexec " + " ".join(map(shlex.quote, command)) + ' "$@"\n')
        os.chmod(args.make_shim, 0o755)
        return 0
    if not args.file or not args.entry:
        sys.exit("opencl-run.py: give FILE and --entry NAME")
    if args.work_dir:
        os.makedirs(args.work_dir, exist_ok=True)
        program = compile_program(args, args.file, args.work_dir)
        kernels = tempfile.mkdtemp(dir=args.work_dir)
        return run(args, program, kernels)
    with tempfile.TemporaryDirectory() as workdir:
        return run(args, compile_program(args, args.file, workdir), workdir)


if __name__ == "__main__":
    sys.exit(main())
