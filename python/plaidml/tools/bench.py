# ===- tools/bench.py - plaidbench: time the built-in networks ------------===#
#
# plaidbench over the networks of lib/Networks (MobileNet v1/v2, ResNet-50,
# VGG-16, Inception-v3; the C API's networks.h), with the options of the C++
# plaidbench of the build tree (tools/plaidbench) that apply to them:
# builds the network with seeded weights, compiles it for a device through
# the compile cache, runs --examples images after --warmup runs and prints
# the compile time, the time per run and per image, and with --results DIR
# a JSON file of the same keys as the C++ tool's; --check[=DEVICE] compares
# the probabilities with DEVICE's (default: the reference interpreter).
# `plaidbench mobilenet`, `plaidbench --device vulkan:0 resnet50
# --batch-size 4`; `--width` and `--image-size` shrink a network (the tests
# use tiny ones). ONNX models run with the C++ plaidbench only. v1 took a
# framework name first (`plaidbench keras mobilenet`): `keras` and `onnx`
# are accepted and ignored.
#
# ===----------------------------------------------------------------------===#

import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

import plaidml
import plaidml.exec
from plaidml import _core


def main(argv=None):
    networks = list(_core.network_names())
    parser = argparse.ArgumentParser(prog='plaidbench',
                                     description='Time a built-in network on a PlaidML device.')
    parser.add_argument('network', nargs='+', help='[keras|onnx] NETWORK, one of: ' + ', '.join(networks))
    parser.add_argument('--device', default='', help='cpu, vulkan:N, opencl:N (default: the saved one)')
    parser.add_argument('--batch-size', '--batch', dest='batch', type=int, default=1)
    parser.add_argument('--image-size', type=int)
    parser.add_argument('--classes', type=int, default=1000)
    parser.add_argument('--width', type=float, default=1.0)
    parser.add_argument('--examples', type=int, default=8, help='images to run in total')
    parser.add_argument('--warmup', type=int, default=1)
    parser.add_argument('--threads', type=int)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--results', help='write the results as JSON into this directory')
    parser.add_argument('--check', nargs='?', const='reference', metavar='DEVICE',
                        help='compare the outputs with DEVICE (default: reference)')
    parser.add_argument('--tolerance', type=float, default=1e-4,
                        help="--check's bound on max |error| / max |expected|")
    args = parser.parse_args(argv)

    words = [w for w in args.network if w not in ('keras', 'onnx')]
    if len(words) != 1:
        parser.error('name one network ({})'.format(', '.join(networks)))
    if words[0].endswith('.onnx'):
        print('plaidbench: error: ONNX models run with the C++ plaidbench of the build tree '
              '(build/bin/plaidbench {})'.format(words[0]), file=sys.stderr)
        return 1
    name = words[0].replace('-', '_')
    aliases = {'mobilenet_v1': 'mobilenet', 'resnet_50': 'resnet50', 'vgg_16': 'vgg16'}
    name = aliases.get(name, name)
    if name not in networks:
        print('plaidbench: error: no network {!r} (networks: {})'.format(words[0], ', '.join(networks)),
              file=sys.stderr)
        return 1
    size = args.image_size or (299 if name.startswith('inception') else 224)
    try:
        start = time.perf_counter()
        native, weights = _core.network_build(name, args.batch, size, args.classes, args.width,
                                              args.seed)
        program = plaidml.Program._from_native(name, native)
        build_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        exe = plaidml.exec.Executable(program, device=args.device, threads=args.threads)
        compile_ms = (time.perf_counter() - start) * 1000
        image_shape = exe.inputs[0][1]
        rng = np.random.default_rng(args.seed)
        image = rng.uniform(0, 1, image_shape.sizes).astype(np.float32)
        inputs = [image] + [plaidml.Buffer._from_native(w) for w in weights]
        for _ in range(args.warmup):
            exe.run(inputs)
        runs = max(1, -(-args.examples // args.batch))
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            probs = exe.run(inputs)[0]
            times.append(time.perf_counter() - start)
        run_s = sum(times) / runs
        check = None
        if args.check:
            other = plaidml.exec.Executable(program, device=args.check)
            expected = other.run(inputs)[0]
            error = float(np.max(np.abs(probs - expected)))
            scale = float(np.max(np.abs(expected)))
            check = {'device': args.check, 'tolerance': args.tolerance,
                     'outputs': [{'name': exe.outputs[0][0], 'max_abs_error': error,
                                  'max_abs_expected': scale,
                                  'passed': error <= args.tolerance * (scale or 1.0)}]}
            check['passed'] = check['outputs'][0]['passed']
    except plaidml.PlaidMLError as e:
        print('plaidbench: error: {}'.format(e), file=sys.stderr)
        return 1
    print('Running {} examples with {}, batch size {}, on {}'.format(runs * args.batch, name, args.batch,
                                                                    exe.device))
    top = int(np.argmax(probs[0]))
    print('plaidbench {} on {}: batch {}, {}x{} images, width {:g}, {} weights'.format(
        name, exe.device, args.batch, size, size, args.width, len(weights)))
    print('  built in {:.1f} ms, compiled in {:.1f} ms'.format(build_ms, compile_ms))
    print('  {:.3f} ms per run, {:.3f} ms per image ({} runs)'.format(run_s * 1000,
                                                                       run_s * 1000 / args.batch, runs))
    print('  probabilities sum to {:.4f}; top class of image 0: {}'.format(float(probs[0].sum()), top))
    if check:
        out = check['outputs'][0]
        print('  check against {}: max |error| {:.3g}, max |expected| {:.3g}: {}'.format(
            args.check, out['max_abs_error'], out['max_abs_expected'],
            'ok' if check['passed'] else 'MISMATCH'))
    if args.results:
        per_example = sorted(t * 1000 / args.batch for t in times)
        n = len(per_example)
        doc = {
            'tool': 'plaidbench (python)', 'date': datetime.datetime.now(
                datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
            'network': name, 'model': None, 'device': exe.device, 'threads': args.threads or 1,
            'batch_size': args.batch, 'examples': runs * args.batch, 'runs': runs,
            'warmup': args.warmup, 'compile_ms': {'open': compile_ms},
            'latency_ms': {'mean': sum(per_example) / n, 'median': per_example[n // 2]
                           if n % 2 else (per_example[n // 2 - 1] + per_example[n // 2]) / 2,
                           'min': per_example[0], 'max': per_example[-1],
                           'p90': per_example[max(0, -(-9 * n // 10) - 1)]},
            'throughput': runs * args.batch / sum(times), 'check': check,
            'network_options': {'image_size': size, 'width': args.width,
                                'classes': args.classes, 'seed': args.seed}}
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, '{}-{}-b{}-t{}.json'.format(
            name, exe.device.replace(':', '_'), args.batch, args.threads or 1))
        with open(path, 'w') as f:
            json.dump(doc, f, indent=2)
        print('Results written to {}'.format(path))
    if check and not check['passed']:
        print('plaidbench: error: the outputs on {} differ from {}\'s (--tolerance {})'.format(
            exe.device, args.check, args.tolerance), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
