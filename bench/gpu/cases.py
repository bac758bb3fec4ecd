"""The GPU benchmark's cases (bench/gpu/README.md): for each, the Tile
program (MLIR), the inputs' shapes and types, the work it does (floating-point
operations or bytes that must move), a NumPy reference for its result and the
PyTorch operation it is compared with on the GPU.

Imported by prepare.py (here, with the compiler) and run.py (on the GPU
machine, without it); needs only the standard library to import. NumPy and
PyTorch are imported by the functions that use them.
"""

import math

# Element types: Tile/MLIR spelling, NumPy name, PyTorch name.
DTYPES = {
    "f32": ("f32", "float32", "float32"),
    "f16": ("f16", "float16", "float16"),
}


def _tensor(shape, dtype):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + dtype + ">"


def _map(dims, exprs):
    return f"affine_map<({', '.join(dims)}) -> ({', '.join(exprs)})>"


def _contract(agg, combo, init, operands, idxs, sink, srcs, out_shape, out_dtype,
              in_types, cons=None):
    attrs = [f'idxs = [{", ".join(chr(34) + i + chr(34) for i in idxs)}]',
             f"sink = {_map(idxs, sink)}",
             f"srcs = [{', '.join(_map(idxs, s) for s in srcs)}]"]
    if cons:
        attrs.append(f"cons = affine_set<({', '.join(idxs)}) : ({', '.join(cons)})>")
    types = ", ".join([_tensor([], out_dtype)] + in_types)
    return (f"  %O = tile.contract {agg}, {combo}, {init}, {', '.join(operands)} "
            f"{{{', '.join(attrs)}}}\n"
            f"       : {types} -> {_tensor(out_shape, out_dtype)}\n")


def _func(name, args, result, body):
    params = ", ".join(f"%{n}: {t}" for n, t in args)
    return (f"func.func @{name}({params}) -> {result} {{\n{body}"
            f"  return %O : {result}\n}}\n")


class Case:
    """One benchmark case. `work` is FLOPs (unit 'TFLOP/s') or bytes
    (unit 'GB/s')."""

    def __init__(self, name, title, mlir, inputs, output, work, unit,
                 reference, torch_op, rtol=1e-3):
        self.name, self.title, self.mlir = name, title, mlir
        self.inputs, self.output = inputs, output  # [(shape, dtype)], (shape, dtype)
        self.work, self.unit = work, unit
        self.reference, self.torch_op, self.rtol = reference, torch_op, rtol

    def manifest(self):
        return {"name": self.name, "title": self.title}


# --- references (NumPy, float64 accumulation) -------------------------------

def _np():
    import numpy as np
    return np


def _ref_matmul(a, b):
    np = _np()
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def _windows(x, kh, kw, stride):
    np = _np()
    v = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))
    return v[:, ::stride, ::stride]  # n, oh, ow, c, kh, kw


def _ref_conv(x, k, stride=1, pad=0):
    np = _np()
    x = x.astype(np.float64)
    if pad:
        x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    kh, kw = k.shape[0], k.shape[1]
    w = _windows(x, kh, kw, stride)
    return np.einsum("nxycij,ijcf->nxyf", w, k.astype(np.float64), optimize=True)


def _ref_depthwise(x, k):
    np = _np()
    w = _windows(x.astype(np.float64), k.shape[0], k.shape[1], 1)
    return np.einsum("nxycij,ijc->nxyc", w, k.astype(np.float64), optimize=True)


def _ref_maxpool(x):
    return _windows(x, 2, 2, 2).max(axis=(4, 5))


def _ref_relu_bias(x, b):
    np = _np()
    return np.maximum(x.astype(np.float64) + b, 0) * 0.5


# --- PyTorch counterparts (inputs already on the GPU, as NumPy layouts) -----

def _torch_matmul(a, b):
    import torch
    return lambda: torch.matmul(a, b)


def _torch_conv(stride=1, pad=0, groups=1):
    def make(x, k):
        import torch
        import torch.nn.functional as F
        # NHWC data as channels-last NCHW tensors (cuDNN's NHWC kernels).
        xt = x.permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
        if groups == 1:
            kt = k.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
        else:
            kt = k.permute(2, 0, 1).unsqueeze(1).contiguous(memory_format=torch.channels_last)
        return lambda: F.conv2d(xt, kt, stride=stride, padding=pad, groups=groups)
    return make


def _torch_maxpool(x):
    import torch
    import torch.nn.functional as F
    xt = x.permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
    return lambda: F.max_pool2d(xt, 2, 2)


def _torch_relu_bias(x, b):
    import torch
    return lambda: torch.relu(x + b) * 0.5


def _torch_add(x, b):
    return lambda: x + b


# --- the cases ---------------------------------------------------------------

def matmul(m, n, k, dtype="f32", name=None):
    t = DTYPES[dtype][0]
    a, b = _tensor([m, k], t), _tensor([k, n], t)
    body = ("  %zero = tile.constant dense<0.0> : tensor<f32>\n" +
            _contract("add", "mul", "%zero", ["%A", "%B"], ["m", "n", "k"],
                      ["m", "n"], [["m", "k"], ["k", "n"]], [m, n], "f32", [a, b]))
    name = name or f"matmul_{m}x{n}x{k}_{dtype}"
    title = (f"matmul {m}×{n}×{k} {dtype}" +
             (" (f32 accumulate)" if dtype != "f32" else ""))
    if m == 1:
        title = f"GEMV 1×{n}×{k} {dtype}"
    return Case(name, title,
                _func(name, [("A", a), ("B", b)], _tensor([m, n], "f32"), body),
                [([m, k], dtype), ([k, n], dtype)], ([m, n], "f32"),
                2.0 * m * n * k, "TFLOP/s", _ref_matmul, _torch_matmul,
                rtol=2e-3 if dtype == "f16" else 1e-3)


def matmul_t(m, n, k, dtype="f32", ta=True):
    """A^T B^T (both operands stored transposed: A as K x M, B as N x K),
    or A B^T with ta=False."""
    t = DTYPES[dtype][0]
    ashape = [k, m] if ta else [m, k]
    a, b = _tensor(ashape, t), _tensor([n, k], t)
    body = ("  %zero = tile.constant dense<0.0> : tensor<f32>\n" +
            _contract("add", "mul", "%zero", ["%A", "%B"], ["m", "n", "k"],
                      ["m", "n"], [["k", "m"] if ta else ["m", "k"], ["n", "k"]],
                      [m, n], "f32", [a, b]))
    name = f"matmul_{'t' if ta else 'bt'}_{m}x{n}x{k}_{dtype}"

    def reference(x, y):
        return _ref_matmul(x.T if ta else x, y.T)

    def torch_op(x, y):
        import torch
        return lambda: torch.matmul(x.t() if ta else x, y.t())

    return Case(name, f"matmul {'Aᵀ' if ta else 'A'}·Bᵀ {m}×{n}×{k} {dtype}" +
                (" (f32 accumulate)" if dtype != "f32" else ""),
                _func(name, [("A", a), ("B", b)], _tensor([m, n], "f32"), body),
                [(ashape, dtype), ([n, k], dtype)], ([m, n], "f32"),
                2.0 * m * n * k, "TFLOP/s", reference, torch_op,
                rtol=2e-3 if dtype == "f16" else 1e-3)


def conv(n, h, w, c, f, kh=3, kw=3, stride=1, pad=0, name=None, title=None):
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (w + 2 * pad - kw) // stride + 1
    x, k = _tensor([n, h, w, c], "f32"), _tensor([kh, kw, c, f], "f32")

    def at(o, i):
        e = f"{stride} * {o}" if stride != 1 else o
        return f"{e} + {i}" + (f" - {pad}" if pad else "")

    body = ("  %zero = tile.constant dense<0.0> : tensor<f32>\n" +
            _contract("add", "mul", "%zero", ["%I", "%K"],
                      ["n", "x", "y", "f", "i", "j", "c"], ["n", "x", "y", "f"],
                      [["n", at("x", "i"), at("y", "j"), "c"], ["i", "j", "c", "f"]],
                      [n, oh, ow, f], "f32", [x, k]))
    name = name or f"conv{kh}x{kw}_s{stride}_p{pad}_{n}x{h}x{w}x{c}_{f}"
    title = title or f"conv {kh}×{kw}, {n}×{h}×{w}×{c} → {f}, stride {stride}, pad {pad}, NHWC"
    return Case(name, title,
                _func(name, [("I", x), ("K", k)], _tensor([n, oh, ow, f], "f32"), body),
                [([n, h, w, c], "f32"), ([kh, kw, c, f], "f32")], ([n, oh, ow, f], "f32"),
                2.0 * n * oh * ow * f * kh * kw * c, "TFLOP/s",
                lambda a, b: _ref_conv(a, b, stride, pad),
                _torch_conv(stride, pad))


def depthwise(n, h, w, c, name=None):
    oh, ow = h - 2, w - 2
    x, k = _tensor([n, h, w, c], "f32"), _tensor([3, 3, c], "f32")
    body = ("  %zero = tile.constant dense<0.0> : tensor<f32>\n" +
            _contract("add", "mul", "%zero", ["%I", "%K"],
                      ["n", "x", "y", "c", "i", "j"], ["n", "x", "y", "c"],
                      [["n", "x + i", "y + j", "c"], ["i", "j", "c"]],
                      [n, oh, ow, c], "f32", [x, k]))
    name = name or f"depthwise3x3_{n}x{h}x{w}x{c}"
    return Case(name, f"depthwise 3×3, {n}×{h}×{w}×{c}",
                _func(name, [("I", x), ("K", k)], _tensor([n, oh, ow, c], "f32"), body),
                [([n, h, w, c], "f32"), ([3, 3, c], "f32")], ([n, oh, ow, c], "f32"),
                4.0 * (n * h * w * c + n * oh * ow * c), "GB/s",
                _ref_depthwise, _torch_conv(groups=c))


def maxpool(n, h, w, c, name=None):
    oh, ow = h // 2, w // 2
    x = _tensor([n, h, w, c], "f32")
    body = ("  %lowest = tile.constant dense<0xFF800000> : tensor<f32>\n" +
            _contract("max", "none", "%lowest", ["%I"],
                      ["n", "x", "y", "c", "i", "j"], ["n", "x", "y", "c"],
                      [["n", "2 * x + i", "2 * y + j", "c"]],
                      [n, oh, ow, c], "f32", [x],
                      cons=["i >= 0", "1 - i >= 0", "j >= 0", "1 - j >= 0"]))
    name = name or f"maxpool2x2_{n}x{h}x{w}x{c}"
    return Case(name, f"max-pool 2×2 stride 2, {n}×{h}×{w}×{c}",
                _func(name, [("I", x)], _tensor([n, oh, ow, c], "f32"), body),
                [([n, h, w, c], "f32")], ([n, oh, ow, c], "f32"),
                4.0 * (n * h * w * c + n * oh * ow * c), "GB/s",
                _ref_maxpool, _torch_maxpool, rtol=0)


def relu_bias(rows, cols, name=None):
    x, b = _tensor([rows, cols], "f32"), _tensor([cols], "f32")
    body = ("  %half = tile.constant dense<0.5> : tensor<f32>\n"
            f"  %s = tile.add %X, %B : {x}, {b} -> {x}\n"
            f"  %r = tile.relu %s : {x}\n"
            f"  %O = tile.mul %r, %half : {x}, tensor<f32> -> {x}\n")
    name = name or f"relu_bias_{rows}x{cols}"
    return Case(name, f"relu(X + B) * 0.5, {rows}×{cols} f32 ({rows * cols / 2**20:.0f}M)",
                _func(name, [("X", x), ("B", b)], x, body),
                [([rows, cols], "f32"), ([cols], "f32")], ([rows, cols], "f32"),
                4.0 * 2 * rows * cols, "GB/s", _ref_relu_bias, _torch_relu_bias,
                rtol=1e-6)


def all_cases(scale="full"):
    """The benchmark's cases; scale 'small' keeps every shape class (odd
    sizes, strides, padding) at sizes the reference interpreter and lavapipe
    finish quickly, for the check here."""
    if scale == "small":
        return [
            matmul(64, 64, 64), matmul(67, 33, 45), matmul(64, 64, 64, "f16"),
            matmul(67, 33, 45, "f16"), matmul_t(67, 33, 45, "f16"),
            matmul_t(67, 33, 45, "f16", ta=False),
            # Whole tiles in the three layouts: the kernels that copy both
            # factors 8 halves at a time (two stages on NVIDIA's OpenCL).
            matmul_t(64, 64, 64, "f16"), matmul_t(64, 64, 64, "f16", ta=False),
            matmul(1, 96, 80),
            conv(2, 10, 10, 8, 16), conv(2, 11, 11, 8, 16, stride=2),
            conv(2, 8, 8, 16, 24, kh=1, kw=1), conv(2, 8, 8, 8, 16, pad=1),
            maxpool(2, 10, 10, 8), depthwise(2, 10, 10, 8), relu_bias(64, 96),
        ]
    return [
        matmul(1024, 1024, 1024), matmul(2048, 2048, 2048),
        matmul(4096, 4096, 4096), matmul(1000, 1000, 1000),
        matmul(4095, 4095, 4095), matmul(1, 4096, 4096),
        matmul(4096, 4096, 4096, "f16"), matmul(2048, 2048, 2048, "f16"),
        matmul(1000, 1000, 1000, "f16"), matmul_t(4096, 4096, 4096, "f16"),
        matmul_t(4096, 4096, 4096, "f16", ta=False),
        matmul_t(1000, 1000, 1000, "f16"),
        conv(32, 58, 58, 64, 64),
        conv(32, 113, 113, 64, 64, stride=2),
        conv(32, 56, 56, 64, 256, kh=1, kw=1),
        conv(32, 56, 56, 64, 64, pad=1),
        maxpool(32, 112, 112, 64),
        depthwise(32, 114, 114, 32),
        relu_bias(65536, 1024),
    ]


def by_name(scale):
    return {c.name: c for c in all_cases(scale)}


def rate(case, ms):
    """TFLOP/s or GB/s of `case` run in `ms` milliseconds."""
    if not ms or math.isnan(ms):
        return float("nan")
    per_s = case.work / (ms * 1e-3)
    return per_s / 1e12 if case.unit == "TFLOP/s" else per_s / 1e9
