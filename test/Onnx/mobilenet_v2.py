#!/usr/bin/env python3
# ===- mobilenet_v2.py - MobileNetV2 in ONNX against onnxruntime -----------===#
#
# Builds MobileNetV2 (torchvision's layer sequence: Conv/BatchNormalization/
# Clip(0, 6) blocks, inverted residuals with depthwise convolutions, global
# average pooling, a Gemm classifier and Softmax) with onnx's helper API and
# seeded weights, at a given image size and width multiplier, runs it with
# onnxruntime and with `plaidml-run MODEL.onnx` on each device given, and
# checks that the outputs agree: max |plaidml - onnxruntime| <= 1e-4 times
# the largest |onnxruntime| output. Nothing is downloaded.
#
# ===----------------------------------------------------------------------===#
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def make_divisible(v, divisor=8):
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, kind):
        self.n += 1
        return "%s_%d" % (kind, self.n)

    def weight(self, shape, scale):
        name = self.name("w")
        data = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        self.inits.append(numpy_helper.from_array(data, name))
        return name

    def conv_bn(self, x, cin, cout, k, stride, groups, relu6):
        fan_in = cin // groups * k * k
        w = self.weight([cout, cin // groups, k, k], (2.0 / fan_in) ** 0.5)
        y = self.name("conv")
        self.nodes.append(helper.make_node(
            "Conv", [x, w], [y], name=y, kernel_shape=[k, k],
            strides=[stride, stride], pads=[k // 2] * 4, group=groups))
        bias = self.weight([cout], 0.1)
        mean = self.weight([cout], 0.1)
        var_name = self.name("var")
        var = (self.rng.uniform(0.5, 1.5, [cout])).astype(np.float32)
        self.inits.append(numpy_helper.from_array(var, var_name))
        # Scale near 1 keeps activations in range through the depth.
        one = self.name("one")
        self.inits.append(numpy_helper.from_array(
            (1 + self.rng.standard_normal([cout]) * 0.1).astype(np.float32),
            one))
        b = self.name("bn")
        self.nodes.append(helper.make_node(
            "BatchNormalization", [y, one, bias, mean, var_name], [b],
            name=b, epsilon=1e-3))
        if not relu6:
            return b
        r = self.name("relu6")
        lo, hi = self.name("lo"), self.name("hi")
        self.inits.append(numpy_helper.from_array(np.array(0, np.float32), lo))
        self.inits.append(numpy_helper.from_array(np.array(6, np.float32), hi))
        self.nodes.append(helper.make_node("Clip", [b, lo, hi], [r], name=r))
        return r


def build(size, width, classes, seed):
    b = Builder(seed)
    settings = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]
    cin = make_divisible(32 * width)
    x = b.conv_bn("image", 3, cin, 3, 2, 1, True)
    for t, c, n, s in settings:
        cout = make_divisible(c * width)
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = x
            if t != 1:
                y = b.conv_bn(y, cin, hidden, 1, 1, 1, True)
            y = b.conv_bn(y, hidden, hidden, 3, stride, hidden, True)
            y = b.conv_bn(y, hidden, cout, 1, 1, 1, False)
            if stride == 1 and cin == cout:
                a = b.name("add")
                b.nodes.append(helper.make_node("Add", [x, y], [a], name=a))
                y = a
            x, cin = y, cout
    last = make_divisible(1280 * max(1.0, width))
    x = b.conv_bn(x, cin, last, 1, 1, 1, True)
    b.nodes.append(helper.make_node("GlobalAveragePool", [x], ["pooled"]))
    b.nodes.append(helper.make_node("Flatten", ["pooled"], ["flat"]))
    fc = b.weight([classes, last], (1.0 / last) ** 0.5)
    fcb = b.weight([classes], 0.01)
    b.nodes.append(helper.make_node("Gemm", ["flat", fc, fcb], ["logits"],
                                    transB=1))
    b.nodes.append(helper.make_node("Softmax", ["logits"], ["probs"]))
    graph = helper.make_graph(
        b.nodes, "mobilenet_v2",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT,
                                       [1, 3, size, size])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT,
                                       [1, classes])],
        b.inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_operatorsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plaidml-run", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--width", type=float, default=1.0)
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--device", action="append", default=[])
    args = ap.parse_args()
    import onnxruntime as ort

    os.makedirs(args.work, exist_ok=True)
    model = build(args.size, args.width, args.classes, seed=17)
    path = os.path.join(args.work, "mobilenet_v2.onnx")
    onnx.save(model, path)
    image = np.random.default_rng(1).uniform(
        -1, 1, [1, 3, args.size, args.size]).astype(np.float32)
    np.save(os.path.join(args.work, "image.npy"), image)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    expected = sess.run(None, {"image": image})[0]
    status = 0
    for d in args.device or ["cpu"]:
        out = os.path.join(args.work, d.replace(":", "_"))
        p = subprocess.run([args.plaidml_run, path, "--device", d, "--input",
                            "image=" + os.path.join(args.work, "image.npy"),
                            "--output-dir", out], capture_output=True,
                           text=True)
        if p.returncode != 0:
            print("mobilenet_v2: %s: %s" % (d, p.stderr.strip()))
            status = 1
            continue
        got = np.load(os.path.join(out, "probs.npy"))
        err = float(np.max(np.abs(got - expected)))
        scale = float(np.max(np.abs(expected)))
        ok = got.shape == expected.shape and err <= 1e-4 * scale
        print("mobilenet_v2 %dx%d width %g on %s: max |plaidml - onnxruntime| "
              "= %.3g (scale %.3g): %s" % (args.size, args.size, args.width, d,
                                           err, scale, "ok" if ok else "FAIL"))
        status |= 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
