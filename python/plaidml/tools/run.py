# ===- tools/run.py - plaidml-run: run a Tile program from Python ---------===#
#
# The Python package's plaidml-run: compiles a Tile-language (.tile) or
# Tile-IR (.mlir) file for a device through the compile cache and runs it
# on inputs from .npy files (--input NAME=FILE) or seeded random values
# (--random-inputs[=SEED]), printing the outputs (--print) or saving them
# (--output-dir DIR, NAME.npy), with timings (--repeat N). Input types of a
# .tile program come from the --input files or --bind NAME=2x3xf32. The C++
# plaidml-run of the build tree takes the same options and more (artifacts,
# --entry, --threads); docs/Python.md says which.
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import sys
import time

import numpy as np

import plaidml
import plaidml.exec
from plaidml import DType


def _random(shape, seed_rng):
    if shape.dtype.is_float:
        return seed_rng.uniform(-1, 1, shape.sizes).astype(shape.dtype.into_numpy())
    if shape.dtype == DType.BOOLEAN:
        return seed_rng.integers(0, 2, shape.sizes).astype(np.bool_)
    return seed_rng.integers(0, 10, shape.sizes).astype(shape.dtype.into_numpy())


def _type_of(array):
    dtype = DType.from_numpy(array.dtype)
    return 'x'.join([str(s) for s in array.shape] + [plaidml._core.dtype_name(dtype._c)])


def main(argv=None):
    parser = argparse.ArgumentParser(prog='plaidml-run', description='Run a Tile program.')
    parser.add_argument('file', nargs='?', help='a .tile or .mlir program')
    parser.add_argument('--device', default='', help='cpu, vulkan:N, opencl:N or reference')
    parser.add_argument('--input', action='append', default=[], metavar='NAME=FILE.npy')
    parser.add_argument('--bind', action='append', default=[], metavar='NAME=2x3xf32')
    parser.add_argument('--random-inputs', nargs='?', const=1, type=int, metavar='SEED')
    parser.add_argument('--entry', default='')
    parser.add_argument('--threads', type=int)
    parser.add_argument('--print', action='store_true', dest='print_outputs')
    parser.add_argument('--output-dir')
    parser.add_argument('--repeat', type=int, default=1)
    parser.add_argument('--list-devices', action='store_true')
    args = parser.parse_args(argv)

    if args.list_devices:
        for name, text in plaidml.exec.device_descriptions().items():
            print('{:<10} {}'.format(name, text))
        return 0
    if not args.file:
        parser.error('a program file is needed')
    try:
        with open(args.file) as f:
            source = f.read()
    except OSError as e:
        print('plaidml-run: error: {}'.format(e), file=sys.stderr)
        return 1
    given = {}
    for item in args.input:
        name, _, path = item.partition('=')
        if not path:
            parser.error('--input takes NAME=FILE.npy, not {!r}'.format(item))
        given[name] = np.load(path)
    bindings = {name: _type_of(array) for name, array in given.items()}
    for item in args.bind:
        name, _, type_ = item.partition('=')
        if not type_:
            parser.error('--bind takes NAME=2x3xf32, not {!r}'.format(item))
        bindings[name] = type_
    try:
        start = time.perf_counter()
        exe = plaidml.exec.compile_text(source, os.path.basename(args.file), device=args.device,
                                        threads=args.threads, bindings=bindings, entry=args.entry)
        compile_ms = (time.perf_counter() - start) * 1000
        rng = np.random.default_rng(args.random_inputs or 0)
        inputs = []
        for name, shape in exe.inputs:
            if name in given:
                inputs.append(given[name])
            elif args.random_inputs is not None:
                inputs.append(_random(shape, rng))
            else:
                print('plaidml-run: error: no value for input {!r} ({}); use --input {}=FILE.npy or '
                      '--random-inputs'.format(name, shape, name), file=sys.stderr)
                return 1
        times = []
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            outputs = exe.run(inputs)
            times.append((time.perf_counter() - start) * 1000)
    except plaidml.PlaidMLError as e:
        print('plaidml-run: error: {}'.format(e), file=sys.stderr)
        return 1
    print('{} on {}: compiled in {:.1f} ms, ran in {:.3f} ms{}'.format(
        args.file, exe.device, compile_ms, min(times),
        ' (best of {})'.format(len(times)) if len(times) > 1 else ''))
    for (name, shape), value in zip(exe.outputs, outputs):
        print('{}: {}'.format(name, shape))
        if args.print_outputs:
            print(np.array2string(value, threshold=64))
        if args.output_dir:
            os.makedirs(args.output_dir, exist_ok=True)
            np.save(os.path.join(args.output_dir, name + '.npy'), value)
    return 0


if __name__ == '__main__':
    sys.exit(main())
