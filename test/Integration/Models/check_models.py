#!/usr/bin/env python3
# ===- check_models.py - Realistic Tile programs vs NumPy ------------------===#
#
# Runs every function of models.mlir with seeded NumPy inputs on each device
# given with --devices (through plaidml-run) and compares every result with a
# value computed independently in NumPy (float64 loops / einsum over padded
# arrays, not a transcription of the Tile program): integers exactly, f32
# with rtol = atol = 1e-5, the f16 path more loosely. Prints one line per case
# and device, a description of the first mismatching element on a failure,
# and ends with "N passed, M failed"; exits non-zero on any failure.
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(HERE, "models.mlir")
SEED = 20240611

F32 = dict(rtol=1e-5, atol=1e-5)


# ----------------------------------------------------------------------------
# Independent NumPy models.
# ----------------------------------------------------------------------------

def conv2d_nhwc(inp, ker, stride, dilation, pad_before, out_hw):
    """Plain loop over output pixels and kernel taps on a zero-padded input."""
    n, h, w, ci = inp.shape
    kh, kw, kci, co = ker.shape
    assert kci == ci
    oh, ow = out_hw
    ph, pw = pad_before
    # Pad generously; the loop only reads what the output needs.
    padded = np.zeros((n, h + 2 * (ph + kh * dilation), w + 2 * (pw + kw * dilation), ci))
    padded[:, ph:ph + h, pw:pw + w, :] = inp
    out = np.zeros((n, oh, ow, co))
    for x in range(oh):
        for y in range(ow):
            for i in range(kh):
                for j in range(kw):
                    px = x * stride + i * dilation
                    py = y * stride + j * dilation
                    out[:, x, y, :] += padded[:, px, py, :] @ ker[i, j].astype(np.float64)
    return out


def case_batched_matmul(rng):
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((3, 5, 6)).astype(np.float32)
    exp = np.zeros((3, 4, 6))
    for bi in range(3):
        exp[bi] = a[bi].astype(np.float64) @ b[bi].astype(np.float64)
    return [a, b], [(exp.astype(np.float32), F32)]


def case_conv2d_valid_strided(rng):
    i = rng.standard_normal((1, 11, 11, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    exp = conv2d_nhwc(i.astype(np.float64), k, stride=2, dilation=2, pad_before=(0, 0),
                      out_hw=(4, 4))
    # Cross-check the loop with a strided slice formulation.
    alt = np.zeros_like(exp)
    for di in range(3):
        for dj in range(3):
            patch = i[:, 2 * di:2 * di + 7:2, 2 * dj:2 * dj + 7:2, :].astype(np.float64)
            alt += np.einsum("nxyc,co->nxyo", patch, k[di, dj].astype(np.float64))
    assert np.allclose(exp, alt)
    return [i, k], [(exp.astype(np.float32), F32)]


def case_conv2d_same(rng):
    i = rng.standard_normal((2, 7, 7, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 5)).astype(np.float32)
    exp = conv2d_nhwc(i.astype(np.float64), k, stride=1, dilation=1, pad_before=(1, 1),
                      out_hw=(7, 7))
    # einsum over the padded input, as a second opinion.
    p = np.pad(i.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    alt = sum(np.einsum("nxyc,co->nxyo", p[:, di:di + 7, dj:dj + 7, :],
                        k[di, dj].astype(np.float64))
              for di in range(3) for dj in range(3))
    assert np.allclose(exp, alt)
    return [i, k], [(exp.astype(np.float32), F32)]


def case_conv2d_same_cons(rng):
    i = rng.standard_normal((1, 7, 6, 2)).astype(np.float32)
    k = rng.standard_normal((4, 4, 2, 3)).astype(np.float32)
    # TensorFlow "same" for an even kernel: total padding 3, 1 before, 2 after.
    exp = conv2d_nhwc(i.astype(np.float64), k, stride=1, dilation=1, pad_before=(1, 1),
                      out_hw=(7, 6))
    return [i, k], [(exp.astype(np.float32), F32)]


def case_depthwise_bias_relu(rng):
    i = rng.standard_normal((1, 8, 8, 6)).astype(np.float32)
    k = rng.standard_normal((3, 3, 6)).astype(np.float32)
    bias = rng.standard_normal(6).astype(np.float32)
    p = np.pad(i.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 8, 8, 6))
    for c in range(6):
        for x in range(8):
            for y in range(8):
                out[0, x, y, c] = np.sum(p[0, x:x + 3, y:y + 3, c] * k[:, :, c])
    out = np.maximum(out + bias, 0.0)
    assert (out == 0).any() and (out > 0).any()
    return [i, k, bias], [(out.astype(np.float32), F32)]


def case_max_pool(rng):
    i = rng.standard_normal((2, 9, 9, 3)).astype(np.float32)
    exp = i[:, :8, :8, :].reshape(2, 4, 2, 4, 2, 3).max(axis=(2, 4))
    return [i], [(exp, dict(rtol=0, atol=0))]


def case_avg_pool(rng):
    i = rng.standard_normal((2, 8, 8, 3)).astype(np.float32)
    exp = i.astype(np.float64).reshape(2, 4, 2, 4, 2, 3).mean(axis=(2, 4))
    return [i], [(exp.astype(np.float32), F32)]


def case_softmax(rng):
    # Logits around 90 (and 190 in row 1): without the max subtraction exp
    # would overflow f32. The spread is small enough that no probability
    # is negligible, so the row sum matters.
    x = (rng.standard_normal((4, 10)) * 2 + 90).astype(np.float32)
    x[1] += 100.0
    z = x.astype(np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    exp = e / e.sum(axis=-1, keepdims=True)
    assert exp.max() < 0.9 and exp.min() > 1e-4
    return [x], [(exp.astype(np.float32), F32)]


def case_dense_f16(rng):
    x = rng.standard_normal((8, 64)).astype(np.float16)
    w = (rng.standard_normal((64, 10)) * 0.25).astype(np.float16)
    bias = rng.standard_normal(10).astype(np.float32)
    # tile.contract: `mul` converts its inputs to the result type (f32) and
    # multiplies there, so the products are exact and accumulate in f32.
    prod = (x.astype(np.float32)[:, :, None] * w.astype(np.float32)[None, :, :])
    z = prod.astype(np.float64).sum(axis=1) + bias
    exp = 1.0 / (1.0 + np.exp(-z))
    # Products rounded to f16 would be off by up to ~3e-4 here, an f16
    # accumulator by ~1e-3; both fail this tolerance.
    return [x, w, bias], [(exp.astype(np.float32), dict(rtol=1e-4, atol=1e-5))]


def wrap(v, bits, signed):
    v = np.asarray(v, dtype=object) % (1 << bits)
    if signed:
        v = np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)
    return v


def case_int_ops(rng):
    # Big enough that the products wrap mod 2^32.
    a = rng.integers(-(1 << 20), 1 << 20, size=(5, 7), dtype=np.int64).astype(np.int32)
    b = rng.integers(-(1 << 20), 1 << 20, size=(7, 3), dtype=np.int64).astype(np.int32)
    u = rng.integers(0, 256, size=(6, 50), dtype=np.int64).astype(np.uint8)
    n = rng.integers(-(1 << 31) + 1, 1 << 31, size=40, dtype=np.int64)
    d = rng.integers(-1000, 1001, size=40, dtype=np.int64)
    d[d == 0] = 7
    d[:4] = [-1, 1, -(1 << 31) + 5, (1 << 31) - 1]   # extremes of the divisor
    un = rng.integers(0, 1 << 32, size=40, dtype=np.int64)
    un[0] = (1 << 32) - 1
    ud = rng.integers(1, 1 << 16, size=40, dtype=np.int64)
    ud[:3] = [1, (1 << 32) - 1, 3]
    sh = rng.integers(0, 32, size=40, dtype=np.int64)
    ush = rng.integers(0, 32, size=40, dtype=np.int64)
    sh[:2] = [0, 31]
    ush[:2] = [0, 31]

    # Python integers (arbitrary precision), then wrap to 32 bits.
    mm = [[sum(int(a[m, k]) * int(b[k, nn]) for k in range(7)) for nn in range(3)]
          for m in range(5)]
    mm = wrap(mm, 32, True).astype(np.int32)
    sums = np.array([sum(int(v) for v in row) for row in u], dtype=np.uint32)

    def tdiv(p, q):  # truncating division
        r = abs(p) // abs(q)
        return r if (p >= 0) == (q > 0) else -r
    sdiv = np.array([tdiv(int(p), int(q)) for p, q in zip(n, d)], dtype=np.int32)
    udiv = np.array([int(p) // int(q) for p, q in zip(un, ud)], dtype=np.uint32)
    # Arithmetic shift: floor division by 2^s.
    sshr = np.array([int(p) // (1 << int(s)) for p, s in zip(n, sh)], dtype=np.int32)
    ushr = np.array([int(p) // (1 << int(s)) for p, s in zip(un, ush)], dtype=np.uint32)
    exact = dict(rtol=0, atol=0)
    inputs = [a, b, u, n.astype(np.int32), d.astype(np.int32), un.astype(np.uint32),
              ud.astype(np.uint32), sh.astype(np.int32), ush.astype(np.uint32)]
    return inputs, [(mm, exact), (sums, exact), (sdiv, exact), (udiv, exact),
                    (sshr, exact), (ushr, exact)]


def case_layer_norm(rng):
    x = (rng.standard_normal((4, 32)) * 3 + 5).astype(np.float32)
    gamma = rng.standard_normal(32).astype(np.float32)
    beta = rng.standard_normal(32).astype(np.float32)
    z = x.astype(np.float64)
    mean = z.mean(axis=-1, keepdims=True)
    var = z.var(axis=-1, keepdims=True)
    exp = (z - mean) / np.sqrt(var + 1e-5) * gamma + beta
    return [x, gamma, beta], [(exp.astype(np.float32), dict(rtol=1e-5, atol=2e-5))]


def case_argmax(rng):
    x = rng.standard_normal((5, 7)).astype(np.float32)
    # A tie in row 2: the contraction takes the max over the tied columns.
    x[2, 1] = x[2, 5] = x[2].max() + 1.0
    # NumPy argmax picks the first of ties; Tile's `max, cond` the last.
    exp = (6 - np.argmax(x[:, ::-1], axis=1)).astype(np.int32)
    assert exp[2] == 5
    return [x], [(exp, dict(rtol=0, atol=0))]


def case_embedding(rng):
    table = rng.standard_normal((20, 8)).astype(np.float32)
    ids = rng.integers(0, 20, size=(3, 5)).astype(np.int32)
    ids[0, :2] = [0, 19]
    exp = np.stack([np.stack([table[ids[r, c]] for c in range(5)]) for r in range(3)])
    return [table, ids], [(exp, dict(rtol=0, atol=0))]


def case_cumsum(rng):
    x = rng.standard_normal((4, 9)).astype(np.float32)
    exp = np.cumsum(x.astype(np.float64), axis=1)
    return [x], [(exp.astype(np.float32), F32)]


def case_conv2d_transpose(rng):
    i = rng.standard_normal((1, 4, 4, 2)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 2)).astype(np.float32)
    out = np.zeros((1, 9, 9, 3))
    for x in range(4):
        for y in range(4):
            for di in range(3):
                for dj in range(3):
                    out[0, 2 * x + di, 2 * y + dj, :] += (
                        k[di, dj].astype(np.float64) @ i[0, x, y].astype(np.float64))
    return [i, k], [(out.astype(np.float32), F32)]


def case_max_pool_same(rng):
    i = rng.standard_normal((1, 7, 7, 2)).astype(np.float32)
    p = np.pad(i, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    out = np.empty((1, 4, 4, 2), dtype=np.float32)
    for x in range(4):
        for y in range(4):
            out[0, x, y] = p[0, 2 * x:2 * x + 3, 2 * y:2 * y + 3].max(axis=(0, 1))
    return [i], [(out, dict(rtol=0, atol=0))]


def case_upsample_nearest(rng):
    i = rng.standard_normal((1, 3, 4, 2)).astype(np.float32)
    exp = np.repeat(np.repeat(i, 2, axis=1), 2, axis=2)
    return [i], [(exp, dict(rtol=0, atol=0))]


def case_int8_matmul(rng):
    a = rng.integers(-128, 128, size=(4, 9)).astype(np.int8)
    b = rng.integers(-128, 128, size=(9, 3)).astype(np.int8)
    # The si8 inputs widen to the si32 result before `mul`: the products
    # (up to 2^14) never wrap, as a quantized layer needs.
    exp = np.array([[sum(int(a[m, k]) * int(b[k, n]) for k in range(9))
                     for n in range(3)] for m in range(4)], dtype=np.int32)
    return [a, b], [(exp, dict(rtol=0, atol=0))]


CASES = [
    ("batched_matmul", case_batched_matmul),
    ("conv2d_valid_strided", case_conv2d_valid_strided),
    ("conv2d_same", case_conv2d_same),
    ("conv2d_same_cons", case_conv2d_same_cons),
    ("depthwise_bias_relu", case_depthwise_bias_relu),
    ("max_pool", case_max_pool),
    ("avg_pool", case_avg_pool),
    ("softmax", case_softmax),
    ("dense_f16", case_dense_f16),
    ("int_ops", case_int_ops),
    ("layer_norm", case_layer_norm),
    ("argmax", case_argmax),
    ("embedding", case_embedding),
    ("cumsum", case_cumsum),
    ("conv2d_transpose", case_conv2d_transpose),
    ("max_pool_same", case_max_pool_same),
    ("upsample_nearest", case_upsample_nearest),
    ("int8_matmul", case_int8_matmul),
]


# ----------------------------------------------------------------------------
# Driver.
# ----------------------------------------------------------------------------

def compare(expected, got, tol):
    """None when equal within tol, else a description of the first mismatch."""
    if got.dtype != expected.dtype or got.shape != expected.shape:
        return (f"expected {expected.dtype}{list(expected.shape)}, "
                f"got {got.dtype}{list(got.shape)}")
    if np.issubdtype(expected.dtype, np.floating):
        e = expected.astype(np.float64)
        g = got.astype(np.float64)
        ok = np.abs(g - e) <= tol["atol"] + tol["rtol"] * np.abs(e)
    else:
        ok = expected == got
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    idx = tuple(int(v) for v in bad[0])
    return (f"{len(bad)} of {expected.size} elements differ; first at {list(idx)}: "
            f"expected {expected[idx]!r}, got {got[idx]!r}")


def run_case(args, name, make, device):
    rng = np.random.default_rng([SEED, sum(map(ord, name))])
    inputs, expected = make(rng)
    case_dir = os.path.join(args.work_dir, name)
    os.makedirs(case_dir, exist_ok=True)
    cmd = [args.plaidml_run, MODULE, "--entry", name, "--device", device]
    for k, arr in enumerate(inputs):
        path = os.path.join(case_dir, f"arg{k}.npy")
        np.save(path, arr)
        cmd += ["--input", f"arg{k}={path}"]
    out_dir = os.path.join(case_dir, device)
    cmd += ["--output-dir", out_dir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return [f"plaidml-run exited {r.returncode}: {r.stderr.strip()}"]
    problems = []
    for k, (exp, tol) in enumerate(expected):
        path = os.path.join(out_dir, f"result{k}.npy")
        if not os.path.exists(path):
            problems.append(f"result{k}: missing")
            continue
        why = compare(np.asarray(exp), np.load(path), tol)
        if why:
            problems.append(f"result{k}: {why}")
    extra = os.path.join(out_dir, f"result{len(expected)}.npy")
    if os.path.exists(extra):
        problems.append(f"unexpected result{len(expected)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--devices", default="reference,cpu")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--cases", default="", help="comma-separated subset")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    only = set(filter(None, args.cases.split(",")))

    passed = failed = 0
    for name, make in CASES:
        if only and name not in only:
            continue
        for device in args.devices.split(","):
            start = time.monotonic()
            problems = run_case(args, name, make, device)
            secs = time.monotonic() - start
            if problems:
                failed += 1
                print(f"FAIL {name} on {device}")
                for p in problems:
                    print(f"  {p}")
            else:
                passed += 1
                print(f"PASS {name} on {device}")
            print(f"  ({secs:.2f} s)", file=sys.stderr)
            sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
