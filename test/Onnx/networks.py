#!/usr/bin/env python3
# ===- networks.py - Whole networks in ONNX against onnxruntime ------------===#
#
# Builds whole networks with onnx's helper API and seeded weights (nothing is
# downloaded), runs each with onnxruntime and with `plaidml-run MODEL.onnx`
# on each device given, and checks that the outputs agree: max |plaidml -
# onnxruntime| <= 1e-4 times the largest |onnxruntime| output.
#   mobilenet_v2  torchvision's layer sequence: Conv/BatchNormalization/
#                 Clip(0, 6) blocks, inverted residuals with depthwise
#                 convolutions, global average pooling, Gemm, Softmax.
#   resnet50      torchvision's ResNet-50: a 7x7/2 stem, max pooling,
#                 bottleneck blocks (3, 4, 6, 3) with projection shortcuts,
#                 global average pooling, Gemm, Softmax.
#   transformer   one pre-norm encoder block: LayerNormalization, multi-head
#                 attention (MatMul/Add, Reshape/Transpose into heads,
#                 scaled Q.K^T, Softmax, back), a residual Add, then an MLP
#                 with GELU written with Erf, and a second residual Add.
# bench/networks/run.py builds its models with these functions.
#
# ===----------------------------------------------------------------------===#
import argparse
import os
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from devices import present_devices


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

    def const(self, data):
        name = self.name("c")
        self.inits.append(numpy_helper.from_array(data, name))
        return name

    def relu(self, x):
        r = self.name("relu")
        self.nodes.append(helper.make_node("Relu", [x], [r], name=r))
        return r

    def conv_bn(self, x, cin, cout, k, stride, groups, relu6, gamma=1.0):
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
            (gamma * (1 + self.rng.standard_normal([cout]) * 0.1)).astype(
                np.float32),
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

    def classifier(self, x, cin, classes, name, size, batch):
        """Global average pooling, Gemm, Softmax; the model of `name`."""
        self.nodes.append(helper.make_node("GlobalAveragePool", [x],
                                           ["pooled"]))
        self.nodes.append(helper.make_node("Flatten", ["pooled"], ["flat"]))
        fc = self.weight([classes, cin], (1.0 / cin) ** 0.5)
        fcb = self.weight([classes], 0.01)
        self.nodes.append(helper.make_node("Gemm", ["flat", fc, fcb],
                                           ["logits"], transB=1))
        self.nodes.append(helper.make_node("Softmax", ["logits"], ["probs"]))
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info("image", TensorProto.FLOAT,
                                           [batch, 3, size, size])],
            [helper.make_tensor_value_info("probs", TensorProto.FLOAT,
                                           [batch, classes])],
            self.inits)
        model = helper.make_model(graph, opset_imports=[
            helper.make_operatorsetid("", 17)], ir_version=8)
        onnx.checker.check_model(model)
        return model


def build_mobilenet_v2(size, width, classes, seed, batch=1):
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
    return b.classifier(x, last, classes, "mobilenet_v2", size, batch)




def bottleneck(b, x, cin, width, stride):
    """A ResNet-50 bottleneck: 1x1, 3x3 (stride), 1x1 (4 * width), plus the
    input or its 1x1 projection, then ReLU."""
    cout = width * 4
    y = b.conv_bn(x, cin, width, 1, 1, 1, False)
    y = b.relu(y)
    y = b.conv_bn(y, width, width, 3, stride, 1, False)
    y = b.relu(y)
    # A small last scale keeps the sum of 16 residual branches in range.
    y = b.conv_bn(y, width, cout, 1, 1, 1, False, gamma=0.3)
    shortcut = x
    if stride != 1 or cin != cout:
        shortcut = b.conv_bn(x, cin, cout, 1, stride, 1, False)
    a = b.name("add")
    b.nodes.append(helper.make_node("Add", [shortcut, y], [a], name=a))
    return b.relu(a), cout


def build_resnet50(size, width, classes, seed, batch=1):
    b = Builder(seed)
    stem = max(1, int(64 * width))
    x = b.conv_bn("image", 3, stem, 7, 2, 1, False)
    x = b.relu(x)
    p = b.name("maxpool")
    b.nodes.append(helper.make_node("MaxPool", [x], [p], name=p,
                                    kernel_shape=[3, 3], strides=[2, 2],
                                    pads=[1, 1, 1, 1]))
    x, cin = p, stem
    for n, w, s in [(3, 64, 1), (4, 128, 2), (6, 256, 2), (3, 512, 2)]:
        w = max(1, int(w * width))
        for i in range(n):
            x, cin = bottleneck(b, x, cin, w, s if i == 0 else 1)
    return b.classifier(x, cin, classes, "resnet50", size, batch)


def build_transformer(seq, dim, heads, seed, batch=1):
    b = Builder(seed)
    dh = dim // heads
    ffn = 4 * dim

    def linear(x, cin, cout):
        w = b.weight([cin, cout], (1.0 / cin) ** 0.5)
        bias = b.weight([cout], 0.02)
        m, a = b.name("matmul"), b.name("add")
        b.nodes.append(helper.make_node("MatMul", [x, w], [m], name=m))
        b.nodes.append(helper.make_node("Add", [m, bias], [a], name=a))
        return a

    def layer_norm(x):
        g = b.const((1 + b.rng.standard_normal([dim]) * 0.1).astype(
            np.float32))
        beta = b.weight([dim], 0.1)
        y = b.name("ln")
        b.nodes.append(helper.make_node("LayerNormalization", [x, g, beta],
                                        [y], name=y, axis=-1, epsilon=1e-5))
        return y

    def node(op, inputs, **attrs):
        y = b.name(op.lower())
        b.nodes.append(helper.make_node(op, inputs, [y], name=y, **attrs))
        return y

    heads_shape = b.const(np.array([batch, seq, heads, dh], np.int64))
    merged_shape = b.const(np.array([batch, seq, dim], np.int64))

    def split_heads(x):
        return node("Transpose", [node("Reshape", [x, heads_shape])],
                    perm=[0, 2, 1, 3])

    h = layer_norm("x")
    q = split_heads(linear(h, dim, dim))
    k = split_heads(linear(h, dim, dim))
    v = split_heads(linear(h, dim, dim))
    kt = node("Transpose", [k], perm=[0, 1, 3, 2])
    scores = node("Mul", [node("MatMul", [q, kt]),
                          b.const(np.array(dh ** -0.5, np.float32))])
    attn = node("Softmax", [scores], axis=-1)
    ctx = node("Transpose", [node("MatMul", [attn, v])], perm=[0, 2, 1, 3])
    ctx = node("Reshape", [ctx, merged_shape])
    x1 = node("Add", ["x", linear(ctx, dim, dim)])
    h = linear(layer_norm(x1), dim, ffn)
    # GELU: 0.5 * h * (1 + erf(h / sqrt(2))).
    erf = node("Erf", [node("Div", [h, b.const(
        np.array(2 ** 0.5, np.float32))])])
    gelu = node("Mul", [node("Mul", [h, node("Add", [erf, b.const(
        np.array(1, np.float32))])]), b.const(np.array(0.5, np.float32))])
    out = node("Add", [x1, linear(gelu, ffn, dim)])
    graph = helper.make_graph(
        b.nodes + [helper.make_node("Identity", [out], ["y"])], "transformer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [batch, seq, dim])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [batch, seq, dim])],
        b.inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_operatorsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    return model


def build(name, size=224, width=1.0, classes=1000, seed=17):
    """The model `name` with the given image size, width and classes (the
    transformer block: sequence 64, model width 256 * width, 4 heads)."""
    if name == "mobilenet_v2":
        return build_mobilenet_v2(size, width, classes, seed)
    if name == "resnet50":
        return build_resnet50(size, width, classes, seed)
    if name == "transformer":
        return build_transformer(64, max(4, int(256 * width)) // 4 * 4, 4,
                                 seed)
    raise ValueError("no model %r" % name)


def example_inputs(model, seed=1):
    """Seeded inputs of `model` in [-1, 1), by name."""
    rng = np.random.default_rng(seed)
    inputs = {}
    for i in model.graph.input:
        shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
        inputs[i.name] = rng.uniform(-1, 1, shape).astype(np.float32)
    return inputs


def check(plaidml_run, path, inputs, expected, work, device):
    """Runs `path` with plaidml-run on `device` and compares its outputs
    with `expected` (a dict by name); returns (ok, message)."""
    out = os.path.join(work, device.replace(":", "_"))
    os.makedirs(work, exist_ok=True)
    args = [plaidml_run, path, "--device", device, "--output-dir", out]
    for name, value in inputs.items():
        f = os.path.join(work, name + ".npy")
        np.save(f, value)
        args += ["--input", name + "=" + f]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        return False, "%s: %s" % (device, p.stderr.strip())
    ok, notes = True, []
    for name, want in expected.items():
        got = np.load(os.path.join(out, name + ".npy"))
        err = float(np.max(np.abs(got - want)))
        scale = float(np.max(np.abs(want)))
        good = got.shape == want.shape and err <= 1e-4 * scale
        ok &= good
        notes.append("%s: max |plaidml - onnxruntime| = %.3g (scale %.3g): %s"
                     % (name, err, scale, "ok" if good else "FAIL"))
    return ok, "; ".join(notes)


def run_onnxruntime(path, inputs, threads=1):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, opts,
                                providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return sess, dict(zip(names, sess.run(None, inputs)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="mobilenet_v2",
                    choices=["mobilenet_v2", "resnet50", "transformer"])
    ap.add_argument("--plaidml-run", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--width", type=float, default=1.0)
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--device", action="append", default=[])
    ap.add_argument("--gpu-device", action="append", default=[],
                    help="also run on this device when it is there "
                         "(devices.py: required in CI)")
    args = ap.parse_args()
    gpus = present_devices(args.plaidml_run, args.gpu_device, "networks")
    if gpus is None:
        return 1

    os.makedirs(args.work, exist_ok=True)
    model = build(args.model, args.size, args.width, args.classes)
    path = os.path.join(args.work, args.model + ".onnx")
    onnx.save(model, path)
    inputs = example_inputs(model)
    _, expected = run_onnxruntime(path, inputs)
    status = 0
    for d in (args.device or ["cpu"]) + gpus:
        start = time.perf_counter()
        ok, message = check(args.plaidml_run, path, inputs, expected,
                            args.work, d)
        print("%s (size %d, width %g) on %s in %.1f s: %s" % (
            args.model, args.size, args.width, d,
            time.perf_counter() - start, message))
        status |= 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
