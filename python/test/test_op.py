# ===- test_op.py - plaidml.op against NumPy ------------------------------===#
#
# The op library from Python with framework-style keyword arguments, on the
# CPU, checked against NumPy: convolution (padding, strides, layouts,
# groups, bias), pooling, matrix products, activations, reductions (v1's
# axis/keepdims), argmax, shape ops, normalization; every op of the library
# is reachable by name; a misspelled keyword is an error.
#
# ===----------------------------------------------------------------------===#

import math

import numpy as np
import pytest

import plaidml
import plaidml.exec
import plaidml.op as op
from plaidml.edsl import DType, Placeholder

RNG = np.random.default_rng(11)


def run(inputs, outputs, values):
    return plaidml.exec.run(plaidml.Program('ops', inputs, outputs), values, device='cpu')


def check(results, expected, tol=1e-4):
    for n, (got, want) in enumerate(zip(results, expected)):
        want = np.asarray(want)
        assert got.shape == want.shape, 'output {}: {} vs {}'.format(n, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg='output {}'.format(n))


def np_conv_nhwc(x, w, stride=1, pad=(0, 0, 0, 0), groups=1):
    x = np.pad(x, ((0, 0), (pad[0], pad[2]), (pad[1], pad[3]), (0, 0)))
    n, h, wd, ci = x.shape
    kh, kw, cig, co = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, co))
    cog = co // groups
    for g in range(groups):
        for dy in range(kh):
            for dx in range(kw):
                patch = x[:, dy:dy + stride * (oh - 1) + 1:stride, dx:dx + stride * (ow - 1) + 1:stride,
                          g * cig:(g + 1) * cig]
                out[..., g * cog:(g + 1) * cog] += patch @ w[dy, dx, :, g * cog:(g + 1) * cog]
    return out


def test_convolution_and_pooling():
    X = Placeholder(DType.FLOAT32, [1, 6, 6, 4], name='X')
    W = Placeholder(DType.FLOAT32, [3, 3, 4, 6], name='W')
    G = Placeholder(DType.FLOAT32, [3, 3, 2, 6], name='G')
    B = Placeholder(DType.FLOAT32, [6], name='B')
    Xc = Placeholder(DType.FLOAT32, [1, 4, 6, 6], name='Xc')  # NCHW
    Wo = Placeholder(DType.FLOAT32, [6, 4, 3, 3], name='Wo')  # OIHW
    outs = [
        op.convolution(X, W),
        op.convolution(X, W, B, strides=[2, 2], padding='same_upper'),
        op.convolution(X, W, pads=[1, 0, 1, 2]),
        op.convolution(X, G, groups=2),
        op.convolution(Xc, Wo, layout='ncx', filter_layout='oix'),
        op.pool(X, 'max', window=[2, 2], strides=[2, 2]),
        op.pool(X, 'average', pool_size=(3, 3), strides=(3, 3)),
        op.max_pool(X, [2, 2], [1, 1]),
        op.global_pool(X, 'average'),
    ]
    x = RNG.standard_normal((1, 6, 6, 4)).astype(np.float32)
    w = RNG.standard_normal((3, 3, 4, 6)).astype(np.float32)
    g = RNG.standard_normal((3, 3, 2, 6)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    xc = x.transpose(0, 3, 1, 2).copy()
    wo = w.transpose(3, 2, 0, 1).copy()
    results = run([X, W, G, B, Xc, Wo], outs, [x, w, g, b, xc, wo])
    check(results, [
        np_conv_nhwc(x, w),
        np_conv_nhwc(x, w, 2, (0, 0, 1, 1)) + b,
        np_conv_nhwc(x, w, 1, (1, 0, 1, 2)),
        np_conv_nhwc(x, g, groups=2),
        np_conv_nhwc(x, w).transpose(0, 3, 1, 2),
        x.reshape(1, 3, 2, 3, 2, 4).max(axis=(2, 4)),
        x.reshape(1, 2, 3, 2, 3, 4).mean(axis=(2, 4)),
        np.max([x[:, dy:dy + 5, dx:dx + 5] for dy in (0, 1) for dx in (0, 1)], axis=0),
        x.mean(axis=(1, 2), keepdims=True),
    ])


def test_linear_activations_reductions():
    A = Placeholder(DType.FLOAT32, [3, 4], name='A')
    Bm = Placeholder(DType.FLOAT32, [4, 5], name='Bm')
    V = Placeholder(DType.FLOAT32, [5], name='V')
    outs = [
        op.dot(A, Bm), op.matmul(A, Bm), op.dense(A, Bm, V), op.relu(A), op.relu(A, alpha=0.1),
        op.relu(A, max_value=0.5), op.relu(A, threshold=0.2), op.sigmoid(A), op.tanh(A), op.elu(A, alpha=0.5),
        op.clip(A, -0.5, 0.5), op.clip(A, min=0.0), op.hard_sigmoid(A, slope=0.25), op.softmax(A),
        op.softmax(A, axis=0), op.log_softmax(A), op.sum(A), op.sum(A, axis=1), op.mean(A, axis=0, keepdims=True),
        op.max(A, axis=[0, 1]), op.min(A, 1), op.prod(A, axes=[0]), op.argmax(A), op.argmax(A, axis=0),
        op.argmin(A, axis=1, keepdims=True), op.cumsum(A, axis=1), op.maximum(A, 0.1), op.minimum(A, 0.1),
        op.square(A), op.abs(A), op.gelu(A), op.swish(A), op.relu6(A * 10), op.leaky_relu(A, alpha=0.2),
    ]
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    bm = RNG.standard_normal((4, 5)).astype(np.float32)
    v = RNG.standard_normal(5).astype(np.float32)

    def softmax(z, axis):
        e = np.exp(z - z.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    sig = 1 / (1 + np.exp(-a))
    erf = np.vectorize(math.erf)
    check(run([A, Bm, V], outs, [a, bm, v]), [
        a @ bm, a @ bm, a @ bm + v, np.maximum(a, 0), np.where(a > 0, a, 0.1 * a), np.clip(a, 0, 0.5),
        np.where(a >= 0.2, a, 0), sig, np.tanh(a), np.where(a > 0, a, 0.5 * (np.exp(a) - 1)),
        np.clip(a, -0.5, 0.5), np.maximum(a, 0), np.clip(0.25 * a + 0.5, 0, 1), softmax(a, 1),
        softmax(a, 0), np.log(softmax(a, 1)), a.sum(), a.sum(1), a.mean(0, keepdims=True), a.max(),
        a.min(1), a.prod(0), a.argmax(1), a.argmax(0), a.argmin(1)[:, None], a.cumsum(1),
        np.maximum(a, 0.1), np.minimum(a, 0.1), a * a, np.abs(a), 0.5 * a * (1 + erf(a / np.sqrt(2))),
        a * sig, np.clip(a * 10, 0, 6), np.where(a > 0, a, 0.2 * a)
    ])


def test_shape_ops():
    X = Placeholder(DType.FLOAT32, [2, 3, 4], name='X')
    Y = Placeholder(DType.FLOAT32, [2, 1, 4], name='Y')
    I = Placeholder(DType.INT32, [3], name='I')
    parts = op.split(X, [1, 3], axis=2)
    outs = [
        op.transpose(X), op.transpose(X, [1, 0, 2]), op.reshape(X, [6, 4]), op.flatten(X),
        op.concatenate([X, Y], axis=1), op.concat([X, X], 0), parts[0], parts[1],
        op.slice(X, starts=[1], ends=[3], axes=[1]), op.pad(X, pads=[0, 1, 0, 0, 1, 0]),
        op.squeeze(Y, axis=1), op.unsqueeze(X, [0]), op.broadcast_to(Y, shape=[2, 3, 4]),
        op.tile(Y, [1, 2, 1]), op.repeat(Y, 2, axis=1), op.gather(X, I, axis=1),
        op.one_hot(I, depth=4), op.sort(op.reshape(X, [24])),
    ]
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    y = RNG.standard_normal((2, 1, 4)).astype(np.float32)
    i = np.array([2, 0, 1], np.int32)
    check(run([X, Y, I], outs, [x, y, i]), [
        x.transpose(), x.transpose(1, 0, 2), x.reshape(6, 4), x.reshape(2, 12),
        np.concatenate([x, y], 1), np.concatenate([x, x], 0), x[..., :1], x[..., 1:],
        x[:, 1:3], np.pad(x, ((0, 0), (1, 1), (0, 0))), y[:, 0], x[None], np.broadcast_to(y, (2, 3, 4)),
        np.tile(y, (1, 2, 1)), np.repeat(y, 2, 1), x[:, i], np.eye(4)[i], np.sort(x.reshape(-1))
    ])


def test_normalization():
    X = Placeholder(DType.FLOAT32, [2, 3, 4], name='X')
    outs = [op.layer_norm(X, axes=[2]), op.batch_norm(X, *[op.apply('sum', X, axes=[0, 1]) * 0 + c for c in (0.5, 2.0, 1.5, 0.25)], epsilon=0.0)]
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    mu, var = x.mean(2, keepdims=True), x.var(2, keepdims=True)
    check(run([X], outs, [x]), [(x - mu) / np.sqrt(var + 1e-5), (x - 0.5) / np.sqrt(2.0) * 1.5 + 0.25])


def test_every_op_is_reachable():
    names = op.op_names()
    assert 'convolution' in names and 'softmax' in names and names == sorted(names)
    for name in names:
        assert callable(getattr(op, name)), name


def test_op_errors():
    X = Placeholder(DType.FLOAT32, [2, 3], name='X')
    with pytest.raises(plaidml.InvalidArgumentError, match="no attribute 'axes'"):
        op.apply('softmax', X, axes=1)
    with pytest.raises(ValueError, match="expected one of"):
        op.pool(X, 'median', window=[1])
    with pytest.raises(plaidml.InvalidArgumentError, match="unknown op"):
        op.apply('nonexistent', X)
    with pytest.raises(plaidml.BuildError):
        op.matmul(X, X)
    with pytest.raises(TypeError, match='list of integers'):
        op.transpose(X, perm=[0.5, 1])
