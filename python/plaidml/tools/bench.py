# ===- tools/bench.py - plaidbench: time the built-in networks ------------===#
#
# A minimal plaidbench over the networks of lib/Networks (MobileNet v1/v2,
# ResNet-50, VGG-16, Inception-v3; the C API's networks.h): builds the
# network with seeded weights, compiles it for a device through the compile
# cache, runs it on a seeded batch of images and prints the compile time
# and the time per run and per image. `plaidbench mobilenet`, `plaidbench
# --device vulkan:0 resnet50 --batch 4`; `--width` and `--image-size`
# shrink a network (the tests use tiny ones). v1 took a framework name
# first (`plaidbench keras mobilenet`): `keras` and `onnx` are accepted and
# ignored.
#
# ===----------------------------------------------------------------------===#

import argparse
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
    parser.add_argument('--batch', type=int, default=1)
    parser.add_argument('--image-size', type=int)
    parser.add_argument('--classes', type=int, default=1000)
    parser.add_argument('--width', type=float, default=1.0)
    parser.add_argument('--examples', type=int, default=8, help='images to run in total')
    parser.add_argument('--warmup', type=int, default=1)
    parser.add_argument('--threads', type=int)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)

    words = [w for w in args.network if w not in ('keras', 'onnx')]
    if len(words) != 1:
        parser.error('name one network ({})'.format(', '.join(networks)))
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
        start = time.perf_counter()
        for _ in range(runs):
            probs = exe.run(inputs)[0]
        run_s = (time.perf_counter() - start) / runs
    except plaidml.PlaidMLError as e:
        print('plaidbench: error: {}'.format(e), file=sys.stderr)
        return 1
    top = int(np.argmax(probs[0]))
    print('plaidbench {} on {}: batch {}, {}x{} images, width {:g}, {} weights'.format(
        name, exe.device, args.batch, size, size, args.width, len(weights)))
    print('  built in {:.1f} ms, compiled in {:.1f} ms'.format(build_ms, compile_ms))
    print('  {:.3f} ms per run, {:.3f} ms per image ({} runs)'.format(run_s * 1000,
                                                                       run_s * 1000 / args.batch, runs))
    print('  probabilities sum to {:.4f}; top class of image 0: {}'.format(float(probs[0].sum()), top))
    return 0


if __name__ == '__main__':
    sys.exit(main())
