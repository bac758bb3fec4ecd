#!/usr/bin/env python3
"""Recomputes every case that plaidml-op-test wrote with NumPy and compares.

For each case directory (meta.json, in<i>.npy, <device>_<j>.npy) the op named
in meta.json is evaluated on the inputs with the attributes from meta.json,
written here independently of the op library, and every device's outputs are
compared with it. Prints `PASS <case> on <device>` or `FAIL ...` per pair and
a summary line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import glob
import json
import math
import os
import sys

import numpy as np

_erf = np.vectorize(math.erf)


def spatial_size(n, k, s, d, padding, before=0, after=0):
    eff = (k - 1) * d + 1
    if padding == "valid":
        return (n - eff) // s + 1, 0
    if padding in ("same_upper", "same_lower"):
        out = -(-n // s)
        total = max((out - 1) * s + eff - n, 0)
        return out, (total // 2 if padding == "same_upper" else (total + 1) // 2)
    return (n + before + after - eff) // s + 1, before


def to_nxc(x, layout):
    return x if layout == "nxc" else np.moveaxis(x, 1, -1)


def from_nxc(x, layout):
    return x if layout == "nxc" else np.moveaxis(x, -1, 1)


def conv(a, ins):
    x, f = ins[0].astype(np.float64), ins[1].astype(np.float64)
    layout = a["layout"]
    x = to_nxc(x, layout)
    ns = x.ndim - 2
    if a["filter_layout"] == "oix":  # (O, I, X...) -> (X..., I, O)
        f = np.moveaxis(f, [0, 1], [-1, -2])
    strides = a["strides"] or [1] * ns
    dil = a["dilations"] or [1] * ns
    pads = a["pads"] or [0] * (2 * ns)
    g = a["groups"]
    n, ci = x.shape[0], x.shape[-1]
    co = f.shape[-1]
    cig, cog = ci // g, co // g
    outs, befores = [], []
    for i in range(ns):
        o, b = spatial_size(x.shape[1 + i], f.shape[i], strides[i], dil[i],
                            a["padding"], pads[i], pads[ns + i])
        outs.append(o)
        befores.append(b)
    # Pad generously, then read strided windows.
    padw = [(0, 0)]
    for i in range(ns):
        need = (outs[i] - 1) * strides[i] + (f.shape[i] - 1) * dil[i] + 1
        padw.append((befores[i], max(need - befores[i] - x.shape[1 + i], 0)))
    padw.append((0, 0))
    xp = np.pad(x, padw)
    out = np.zeros([n] + outs + [co])
    for kpos in np.ndindex(*f.shape[:ns]):
        sl = [slice(None)]
        for i in range(ns):
            st = kpos[i] * dil[i]
            sl.append(slice(st, st + (outs[i] - 1) * strides[i] + 1, strides[i]))
        window = xp[tuple(sl)]  # n, outs..., ci
        w = f[kpos]  # cig, co
        for gi in range(g):
            out[..., gi * cog:(gi + 1) * cog] += np.tensordot(
                window[..., gi * cig:(gi + 1) * cig], w[:, gi * cog:(gi + 1) * cog],
                axes=([-1], [0]))
    if a["bias"]:
        out = out + ins[2]
    return [from_nxc(out, layout)]


def conv_transpose(a, ins):
    x, f = ins[0].astype(np.float64), ins[1].astype(np.float64)
    layout = a["layout"]
    x = to_nxc(x, layout)
    ns = x.ndim - 2
    if a["filter_layout"] == "oix":  # (I, O, X...) -> (X..., I, O)
        f = np.moveaxis(f, [0, 1], [-2, -1])
    strides = a["strides"] or [1] * ns
    pads = a["pads"] or [0] * (2 * ns)
    extra = a["output_padding"] or [0] * ns
    full = [(x.shape[1 + i] - 1) * strides[i] + f.shape[i] + extra[i]
            for i in range(ns)]
    out = np.zeros([x.shape[0]] + full + [f.shape[-1]])
    for ipos in np.ndindex(*x.shape[1:-1]):
        for kpos in np.ndindex(*f.shape[:ns]):
            o = tuple(ipos[i] * strides[i] + kpos[i] for i in range(ns))
            out[(slice(None),) + o] += x[(slice(None),) + ipos] @ f[kpos]
    sl = [slice(None)]
    for i in range(ns):
        size = full[i] - pads[i] - pads[ns + i]
        sl.append(slice(pads[i], pads[i] + size))
    return [from_nxc(out[tuple(sl)], layout)]


def pool(a, ins):
    x = to_nxc(ins[0].astype(np.float64), a["layout"])
    ns = x.ndim - 2
    win = a["window"]
    strides = a["strides"] or [1] * ns
    dil = a.get("dilations") or [1] * ns
    pads = a["pads"] or [0] * (2 * ns)
    ceil = a.get("ceil_mode", False)
    outs, befores = [], []
    for i in range(ns):
        if ceil:
            # PyTorch's rule: round up, but a window must start inside the
            # input or the padding before it.
            n, s = x.shape[1 + i], strides[i]
            span = n + pads[i] + pads[ns + i] - ((win[i] - 1) * dil[i] + 1)
            o = -(-span // s) + 1
            if (o - 1) * s >= n + pads[i]:
                o -= 1
            b = pads[i]
        else:
            o, b = spatial_size(x.shape[1 + i], win[i], strides[i], dil[i],
                                a["padding"], pads[i], pads[ns + i])
        outs.append(o)
        befores.append(b)
    out = np.zeros([x.shape[0]] + outs + [x.shape[-1]])
    for opos in np.ndindex(*outs):
        vals, count, padded = [], 0, 0
        for kpos in np.ndindex(*win):
            p = [opos[i] * strides[i] + kpos[i] * dil[i] - befores[i]
                 for i in range(ns)]
            if all(0 <= p[i] < x.shape[1 + i] for i in range(ns)):
                vals.append(x[(slice(None),) + tuple(p)])
                count += 1
            if all(-pads[i] <= p[i] < x.shape[1 + i] + pads[ns + i]
                   for i in range(ns)):
                padded += 1
        v = np.stack(vals)
        if a["mode"] == "max":
            r = v.max(axis=0)
        elif a["count_include_pad"]:
            r = v.sum(axis=0) / (padded if ceil else np.prod(win))
        else:
            r = v.sum(axis=0) / count
        out[(slice(None),) + opos] = r
    return [from_nxc(out, a["layout"])]


def global_pool(a, ins):
    x = ins[0]
    axes = tuple(range(1, x.ndim - 1)) if a["layout"] == "nxc" else tuple(range(2, x.ndim))
    fn = np.max if a["mode"] == "max" else np.mean
    return [fn(x.astype(np.float64), axis=axes, keepdims=True)]


def reduce(a, ins):
    x = ins[0]
    axes = tuple(a["axes"]) if a["axes"] else None
    fn = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min,
          "prod": np.prod}[a["kind"]]
    return [fn(x, axis=axes, keepdims=a["keepdims"])]


def cumsum(a, ins):
    x = ins[0].astype(np.float64)
    r = np.cumsum(x, axis=a["axis"])
    if a["exclusive"]:
        r = r - x
    return [r]


def arg(fn):
    def run(a, ins):
        r = fn(ins[0], axis=a["axis"])
        if a["keepdims"]:
            r = np.expand_dims(r, a["axis"])
        return [r]
    return run


def bn(a, ins):
    x, m, v, g, b = [t.astype(np.float64) for t in ins]
    v = v * v + 0.5
    shape = [1] * x.ndim
    shape[a["axis"]] = -1
    r = lambda t: t.reshape(shape)
    return [(x - r(m)) / np.sqrt(r(v) + a["epsilon"]) * r(g) + r(b)]


def normalize(x, axes, eps):
    m = x.mean(axis=axes, keepdims=True)
    v = ((x - m) ** 2).mean(axis=axes, keepdims=True)
    return (x - m) / np.sqrt(v + eps)


def layer_norm(a, ins):
    x = ins[0].astype(np.float64)
    axes = tuple(ax % x.ndim for ax in a["axes"])
    return [normalize(x, axes, a["epsilon"]) * ins[1] + ins[2]]


def group_norm(a, ins):
    x = ins[0].astype(np.float64)
    if a["layout"] == "nxc":
        x = np.moveaxis(x, -1, 1)
    n, c = x.shape[:2]
    g = a["groups"]
    y = normalize(x.reshape((n, g, c // g) + x.shape[2:]),
                  tuple(range(2, x.ndim + 1)), a["epsilon"]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    y = y * ins[1].reshape(shape) + ins[2].reshape(shape)
    if a["layout"] == "nxc":
        y = np.moveaxis(y, 1, -1)
    return [y]


def act(fn):
    return lambda a, ins: [fn(ins[0].astype(np.float64) * 4.0)]


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(a, ins, log=False):
    x = ins[0].astype(np.float64) * 3.0
    s = x - x.max(axis=a["axis"], keepdims=True)
    if log:
        return [s - np.log(np.exp(s).sum(axis=a["axis"], keepdims=True))]
    e = np.exp(s)
    return [e / e.sum(axis=a["axis"], keepdims=True)]


def gemm(a, ins):
    A, B, C = [t.astype(np.float64) for t in ins]
    A = A.T if a["trans_a"] else A
    B = B.T if a["trans_b"] else B
    return [a["alpha"] * (A @ B) + a["beta"] * C]


def np_slice(a, ins):
    x = ins[0]
    sl = [slice(None)] * x.ndim
    steps = a["steps"] or [1] * len(a["starts"])
    for s, e, ax, st in zip(a["starts"], a["ends"], a["axes"], steps):
        sl[ax] = slice(s, e, st)
    return [x[tuple(sl)]]


def np_pad(a, ins):
    x = ins[0]
    r = x.ndim
    pw = [(a["pads"][i], a["pads"][r + i]) for i in range(r)]
    if a["mode"] == "constant":
        return [np.pad(x, pw, constant_values=a["value"])]
    return [np.pad(x, pw, mode=a["mode"])]


def squeeze(a, ins):
    return [np.squeeze(ins[0], axis=tuple(a["axes"]) if a["axes"] else None)]


def unsqueeze(a, ins):
    return [np.expand_dims(ins[0], tuple(a["axes"]))]


def resize(a, ins):
    x = ins[0].astype(np.float64)
    for i, out in enumerate(a["sizes"]):
        axis = 1 + i
        n = x.shape[axis]
        if n == out:
            continue
        o = np.arange(out)
        if a["mode"] == "nearest":
            idx = np.minimum(np.floor(o * n / out).astype(int), n - 1)
            x = np.take(x, idx, axis=axis)
            continue
        if a["align_corners"]:
            src = o * (n - 1) / (out - 1) if out > 1 else np.zeros(out)
        else:
            src = np.maximum((o + 0.5) * n / out - 0.5, 0)
        lo = np.minimum(np.floor(src).astype(int), n - 1)
        hi = np.minimum(lo + 1, n - 1)
        w = (src - lo).reshape((-1,) + (1,) * (x.ndim - axis - 1))
        xa, xb = np.take(x, lo, axis=axis), np.take(x, hi, axis=axis)
        x = xa + (xb - xa) * w
    return [x]


def upsample(a, ins):
    x = ins[0]
    off = 1 if a["layout"] == "nxc" else 2
    for i, f in enumerate(a["factors"]):
        x = np.repeat(x, f, axis=off + i)
    return [x]


def argsort(a, ins):
    """Stable positions along the axis; NaN after every number (asc) or
    before (desc), ties in their original order in both directions."""
    x = ins[0]
    moved = np.moveaxis(x, a["axis"], -1)
    out = np.empty(moved.shape, dtype=np.int32)
    is_float = np.issubdtype(x.dtype, np.floating)
    desc = a["direction"] == "desc"
    for idx in np.ndindex(*moved.shape[:-1]):
        line = moved[idx]

        def key(i):
            v = line[i]
            nan = bool(is_float and np.isnan(v))
            value = 0 if nan else (float(v) if is_float else int(v))
            return (not nan, -value) if desc else (nan, value)
        out[idx] = sorted(range(line.shape[0]), key=key)
    return [np.moveaxis(out, -1, a["axis"])]


MASK32 = 0xFFFFFFFF


def philox4x32_10(counter, key):
    """Random123's philox4x32 with 10 rounds: four 32-bit words."""
    c = list(counter)
    k0, k1 = key
    for _ in range(10):
        p0 = 0xD2511F53 * c[0]
        p1 = 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & MASK32, p1 & MASK32,
             ((p0 >> 32) ^ c[3] ^ k1) & MASK32, p0 & MASK32]
        k0 = (k0 + 0x9E3779B9) & MASK32
        k1 = (k1 + 0xBB67AE85) & MASK32
    return c


def prng_words(state, count):
    """The first `count` words of the stream at `state`, and the new state."""
    s = [int(w) & MASK32 for w in state]
    ctr = s[2] | s[3] << 32 | s[4] << 64 | s[5] << 96
    words = []
    blocks = (count + 3) // 4
    for b in range(blocks):
        c = (ctr + b) % (1 << 128)
        words += philox4x32_10([(c >> (32 * i)) & MASK32 for i in range(4)],
                               (s[0], s[1]))
    c = (ctr + blocks) % (1 << 128)
    new = s[:2] + [(c >> (32 * i)) & MASK32 for i in range(4)]
    return np.array(words[:count], dtype=np.uint64), np.array(new, np.uint32)


def prng(a, ins):
    shape = a["shape"]
    w, new = prng_words(ins[0], int(np.prod(shape)))
    dtype = a["dtype"]
    if dtype == "f32":
        v = ((w >> 8).astype(np.float64) * 2.0 ** -24).astype(np.float32)
    elif dtype == "f16":
        v = ((w >> 21).astype(np.float64) * 2.0 ** -11).astype(np.float16)
    elif dtype == "f64":
        v = w.astype(np.float64) * 2.0 ** -32
    elif dtype == "si32":
        v = w.astype(np.uint32).view(np.int32)
    else:
        v = w.astype(np.uint32)
    return [v.reshape(shape), new]


def prng_chained(a, ins):
    n0, n1 = a["shapes"]
    w0, s0 = prng_words(ins[0], n0)
    w1, s1 = prng_words(s0, n1)
    return [w0.astype(np.uint32), w1.astype(np.uint32), s1]


OPS = {
    "conv": conv,
    "conv_transpose": conv_transpose,
    "pool": pool,
    "global_pool": global_pool,
    "matmul": lambda a, ins: [np.matmul(ins[0].astype(np.float64), ins[1])],
    "dense": lambda a, ins: [ins[0].astype(np.float64) @ ins[1] + ins[2]],
    "gemm": gemm,
    "batch_norm": bn,
    "layer_norm": layer_norm,
    "group_norm": group_norm,
    "relu": act(lambda x: np.maximum(x, 0)),
    "relu6": act(lambda x: np.clip(x, 0, 6)),
    "clip": act(lambda x: np.clip(x, -1.5, 2.5)),
    "leaky_relu": act(lambda x: np.where(x < 0, 0.1 * x, x)),
    "elu": act(lambda x: np.where(x < 0, 0.7 * (np.exp(x) - 1), x)),
    "sigmoid": act(sigmoid),
    "hard_sigmoid": act(lambda x: np.clip(0.2 * x + 0.5, 0, 1)),
    "hard_swish": act(lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "swish": act(lambda x: x * sigmoid(x)),
    "gelu_erf": act(lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    "gelu_tanh": act(lambda x: 0.5 * x * (1 + np.tanh(
        math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    "tanh": act(np.tanh),
    "softmax": softmax,
    "log_softmax": lambda a, ins: softmax(a, ins, log=True),
    "reduce": reduce,
    "cumsum": cumsum,
    "argmax": arg(np.argmax),
    "argmin": arg(np.argmin),
    "reshape": lambda a, ins: [ins[0].reshape(a["shape"])],
    "flatten": lambda a, ins: [ins[0].reshape(
        int(np.prod(ins[0].shape[:a["axis"]])), -1)],
    "transpose": lambda a, ins: [np.transpose(ins[0], a["perm"] or None)],
    "concat": lambda a, ins: [np.concatenate(ins, axis=a["axis"])],
    "split": lambda a, ins: np.split(ins[0], np.cumsum(a["sizes"])[:-1],
                                     axis=a["axis"]),
    "slice": np_slice,
    "pad": np_pad,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "broadcast_to": lambda a, ins: [np.broadcast_to(ins[0], a["shape"])],
    "tile": lambda a, ins: [np.tile(ins[0], a["reps"])],
    "repeat": lambda a, ins: [np.repeat(ins[0], a["repeats"], axis=a["axis"])],
    "gather": lambda a, ins: [np.take(ins[0], np.maximum(ins[1], 0) % 4,
                                      axis=a["axis"])],
    "one_hot": lambda a, ins: [np.where(
        ins[0][..., None] == np.arange(a["depth"]), 2.0, -1.0)],
    "resize": resize,
    "upsample": upsample,
    "argsort": argsort,
    "prng": prng,
    "prng_chained": prng_chained,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-4)
    args = parser.parse_args()
    passed = failed = 0
    for case_dir in sorted(glob.glob(os.path.join(args.dir, "*", "meta.json"))):
        case_dir = os.path.dirname(case_dir)
        name = os.path.basename(case_dir)
        with open(os.path.join(case_dir, "meta.json")) as f:
            meta = json.load(f)
        ins = []
        while os.path.exists(os.path.join(case_dir, "in%d.npy" % len(ins))):
            ins.append(np.load(os.path.join(case_dir, "in%d.npy" % len(ins))))
        expected = OPS[meta["op"]](meta["attrs"], ins)
        devices = sorted({os.path.basename(p).rsplit("_", 1)[0]
                          for p in glob.glob(os.path.join(case_dir, "*_*.npy"))})
        for dev in devices:
            ok, why = True, ""
            for j, exp in enumerate(expected):
                path = os.path.join(case_dir, "%s_%d.npy" % (dev, j))
                if not os.path.exists(path):
                    ok, why = False, "output %d missing" % j
                    break
                got = np.load(path)
                exp = np.asarray(exp)
                if got.shape != exp.shape:
                    ok, why = False, "output %d shape %s, expected %s" % (
                        j, got.shape, exp.shape)
                    break
                if meta["attrs"].get("exact"):
                    # Bit for bit (argsort positions, prng values and states).
                    if got.dtype != exp.dtype or not np.array_equal(got, exp):
                        diff = np.argwhere(got != exp)
                        ok, why = False, "output %d %s differs from %s at %s" % (
                            j, got.dtype, exp.dtype,
                            diff[0].tolist() if len(diff) else "-")
                        break
                    continue
                if not np.allclose(got.astype(np.float64), exp.astype(np.float64),
                                   rtol=args.rtol, atol=args.atol):
                    err = np.max(np.abs(got.astype(np.float64) - exp))
                    ok, why = False, "output %d differs by up to %g" % (j, err)
                    break
            dev_name = dev.replace("_", ":") if dev.startswith(("vulkan", "opencl")) else dev
            if ok:
                passed += 1
                print("PASS %s on %s" % (name, dev_name))
            else:
                failed += 1
                print("FAIL %s on %s: %s" % (name, dev_name, why))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
