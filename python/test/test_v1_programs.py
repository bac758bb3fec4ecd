# ===- test_v1_programs.py - v1-style programs against NumPy --------------===#
#
# Programs written the way PlaidML v1's documentation and tests wrote them
# (TensorDims, TensorIndexes, bind_dims, Contraction builders, plaidml.exec)
# on every device: matmul, a 2-D convolution, max pooling, softmax, argmax,
# an MLP and a small CNN, each checked against NumPy.
#
# ===----------------------------------------------------------------------===#

import numpy as np
import pytest

import plaidml
import plaidml.exec
from plaidml.edsl import *

RNG = np.random.default_rng(7)


def dot(X, Y):
    I, J, K = TensorDims(3)
    i, j, k = TensorIndexes(3)
    X.bind_dims(I, K)
    Y.bind_dims(K, J)
    return Contraction().outShape(I, J).outAccess(i, j).sum(X[i, k] * Y[k, j]).build()


def conv_2d(I, K):
    N, X, Y, CI, CO, KX, KY = TensorDims(7)
    n, x, y, kx, ky, ci, co = TensorIndexes(7)
    I.bind_dims(N, X, Y, CI)
    K.bind_dims(KX, KY, CI, CO)
    return Contraction().outShape(N, X - KX + 1, Y - KY + 1, CO).outAccess(n, x, y, co).sum(
        I[n, x + kx, y + ky, ci] * K[kx, ky, ci, co]).build()


def max_pool_2d(I):
    N, X, Y, C = TensorDims(4)
    n, x, y, c, i, j = TensorIndexes(6)
    I.bind_dims(N, X, Y, C)
    return Contraction().outShape(N, X // 2, Y // 2, C).outAccess(n, x, y, c).max(
        I[n, 2 * x + i, 2 * y + j, c]).add_constraints([i < 2, j < 2]).build()


def softmax(X):
    I, J = TensorDims(2)
    i, j = TensorIndexes(2)
    X.bind_dims(I, J)
    M = Contraction().outShape(I, 1).outAccess(i, 0).max(X[i, j]).build()
    E = exp(X - M)
    N = Contraction().outShape(I, 1).outAccess(i, 0).sum(E[i, j]).build()
    return E / N


def argmax_rows(X):
    I, J = TensorDims(2)
    i, j = TensorIndexes(2)
    X.bind_dims(I, J)
    M = Contraction().outShape(I, 1).outAccess(i, 0).max(X[i, j]).build()
    # The largest column where X equals its row maximum (v1's idiom with
    # index() and a second max contraction).
    IX = index([I, J], 1)
    hit = select(X == M, IX, -1)
    return Contraction().outShape(I).outAccess(i).max(hit[i, j]).build()


def relu_dense(X, W, B):
    return relu(dot(X, W) + B)


def run(program, inputs, device):
    return plaidml.exec.run(program, inputs, device=device)


def close(actual, expected, tol=1e-4):
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


def test_matmul(device):
    A = Placeholder(DType.FLOAT32, [8, 16], name='A')
    B = Placeholder(DType.FLOAT32, [16, 5], name='B')
    program = plaidml.Program('matmul', [A, B], [dot(A, B)])
    a, b = RNG.standard_normal((8, 16)), RNG.standard_normal((16, 5))
    close(run(program, [a, b], device)[0], a @ b)


def np_conv(i, k):
    n, x, y, _ = i.shape
    kx, ky, _, co = k.shape
    out = np.zeros((n, x - kx + 1, y - ky + 1, co))
    for dx in range(kx):
        for dy in range(ky):
            out += np.einsum('nxyc,cd->nxyd', i[:, dx:dx + x - kx + 1, dy:dy + y - ky + 1, :],
                             k[dx, dy])
    return out


def test_conv(device):
    I = Placeholder(DType.FLOAT32, [1, 7, 6, 3], name='I')
    K = Placeholder(DType.FLOAT32, [3, 2, 3, 4], name='K')
    program = plaidml.Program('conv', [I, K], [conv_2d(I, K)])
    i, k = RNG.standard_normal((1, 7, 6, 3)), RNG.standard_normal((3, 2, 3, 4))
    close(run(program, [i, k], device)[0], np_conv(i, k))


def test_max_pool(device):
    I = Placeholder(DType.FLOAT32, [2, 6, 4, 3], name='I')
    program = plaidml.Program('pool', [I], [max_pool_2d(I)])
    i = RNG.standard_normal((2, 6, 4, 3)).astype(np.float32)
    expected = i.reshape(2, 3, 2, 2, 2, 3).max(axis=(2, 4))
    np.testing.assert_array_equal(run(program, [i], device)[0], expected)


def test_softmax(device):
    X = Placeholder(DType.FLOAT32, [4, 10], name='X')
    program = plaidml.Program('softmax', [X], [softmax(X)])
    x = RNG.standard_normal((4, 10)) * 3
    e = np.exp(x - x.max(axis=1, keepdims=True))
    close(run(program, [x], device)[0], e / e.sum(axis=1, keepdims=True), 1e-5)


def test_argmax(device):
    X = Placeholder(DType.FLOAT32, [5, 9], name='X')
    program = plaidml.Program('argmax', [X], [argmax_rows(X)])
    x = RNG.permutation(45).reshape(5, 9).astype(np.float32)
    out = run(program, [x], device)[0]
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, x.argmax(axis=1))


def test_mlp(device):
    X = Placeholder(DType.FLOAT32, [3, 12], name='X')
    weights = [RNG.standard_normal(s).astype(np.float32) * 0.3 for s in [(12, 16), (16,), (16, 4), (4,)]]
    W1, B1, W2, B2 = [Constant(w) for w in weights]
    H = relu_dense(X, W1, B1)
    Y = softmax(dot(H, W2) + B2)
    program = plaidml.Program('mlp', [X], [Y])
    x = RNG.standard_normal((3, 12)).astype(np.float32)
    h = np.maximum(x @ weights[0] + weights[1], 0)
    logits = h @ weights[2] + weights[3]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    close(run(program, [x], device)[0], e / e.sum(axis=1, keepdims=True), 1e-5)


def test_cnn(device):
    I = Placeholder(DType.FLOAT32, [2, 10, 10, 1], name='image')
    k1 = RNG.standard_normal((3, 3, 1, 4)).astype(np.float32)
    w = RNG.standard_normal((64, 3)).astype(np.float32) * 0.2
    C = relu(conv_2d(I, Constant(k1)))  # 2x8x8x4
    P = max_pool_2d(C)  # 2x4x4x4
    F = reshape(P, [2, 64])
    Y = softmax(dot(F, Constant(w)))
    program = plaidml.Program('cnn', [I], [Y])
    assert program.outputs[0] == TensorShape(DType.FLOAT32, [2, 3])
    i = RNG.standard_normal((2, 10, 10, 1)).astype(np.float32)
    c = np.maximum(np_conv(i, k1), 0)
    p = c.reshape(2, 4, 2, 4, 2, 4).max(axis=(2, 4)).reshape(2, 64)
    logits = p @ w
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    close(run(program, [i], device)[0], e / e.sum(axis=1, keepdims=True), 1e-4)
