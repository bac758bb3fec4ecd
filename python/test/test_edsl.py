# ===- test_edsl.py - The EDSL: builder methods, operators, intrinsics ----===#
#
# Every method of the contraction builder, every operator (with tensors and
# Python scalars, both sides) and every intrinsic of plaidml.edsl, run on
# the CPU and checked against NumPy. To keep compiles few, each test builds
# one program with many outputs.
#
# ===----------------------------------------------------------------------===#

import math

import numpy as np
import pytest

import plaidml
import plaidml.exec
from plaidml.edsl import *

RNG = np.random.default_rng(3)


def run(inputs, outputs, values, device='cpu'):
    program = plaidml.Program('t', inputs, outputs)
    return plaidml.exec.run(program, values, device=device)


def check(results, expected, tol=1e-5):
    assert len(results) == len(expected)
    for n, (got, want) in enumerate(zip(results, expected)):
        want = np.asarray(want)
        assert got.shape == want.shape, 'output {}: {} vs {}'.format(n, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg='output {}'.format(n))


def test_dims_and_indexes():
    N, M = TensorDims(2)
    A = Placeholder(DType.FLOAT32, [6, 4])
    A.bind_dims(N, M)
    assert [N.value, M.value] == [6, 4]
    assert (N + 1).value == 7 and (1 + N).value == 7
    assert (N - M).value == 2 and (10 - N).value == 4
    assert (N * 2).value == 12 and (2 * M).value == 8
    assert (N // 4).value == 1 and (13 // M).value == 3
    assert (-N).value == -6 and int(N) == 6
    assert dim_max(N, M).value == 6 and dim_min(N, M).value == 4
    named = TensorDim('W')
    assert 'W' in repr(named)
    with pytest.raises(plaidml.BuildError, match='W'):
        named.value
    i, j = TensorIndexes(2)
    assert isinstance(2 * i + j - 1, TensorIndex)
    con = i < N
    assert con.lhs is i and con.rhs.value == 6
    assert TensorIndex('q')._text == 'q'


def test_contraction_builder():
    A = Placeholder(DType.FLOAT32, [3, 4], name='A')
    B = Placeholder(DType.FLOAT32, [4], name='B')
    I, J = TensorDims(2)
    i, j = TensorIndexes(2)
    A.bind_dims(I, J)
    outs = [
        Contraction('s').outShape(I).outAccess(i).sum(A[i, j]).build(),
        Contraction('p').outShape(I).outAccess(i).product(A[i, j]).build(),
        Contraction('mx').outShape(J).outAccess(j).max(A[i, j]).build(),
        Contraction('mn').outShape(J).outAccess(j).min(A[i, j]).build(),
        Contraction('t').outShape(J, I).outAccess(j, i).assign(A[i, j]).build(),
        # init, a constraint, a scalar output (no shape)
        Contraction().outShape(I).outAccess(i).sum(A[i, j]).init(100.0).build(),
        Contraction().outShape(I).outAccess(i).sum(A[i, j]).add_constraint(j < 2).build(),
        Contraction().sum(A[i, j]).build(),
        # combinations: +, * and == with cond (both spellings)
        Contraction().outShape(I, J).outAccess(i, j).sum(A[i, j] + B[j]).build(),
        Contraction().outShape(I).outAccess(i).sum(A[i, j] * B[j]).build(),
        Contraction().outShape(I, J).outAccess(i, j).sum(cond(A[i, j], B[j], A[i, j])).build(),
        Contraction().outShape(I, J).outAccess(i, j).sum(cond(A[i, j] == B[j], B[j])).build(),
        # index arithmetic: a shifted, strided and divided access
        Contraction().outShape(2).outAccess(i).assign(B[2 * i + 1]).build(),
        Contraction().outShape(J - 1).outAccess(j).assign(B[j + 1]).build(),
        Contraction().outShape(2).outAccess(i / 2).assign(B[i]).add_constraint(i < 4).build(),
        Contraction().outShape(4).outAccess(i).assign(B[i / 2]).no_defract().build(),
        Contraction().outShape(I).outAccess(i).sum(A[i, j]).dtype(DType.FLOAT64).build(),
        Contraction().outShape([I]).outAccess([i]).sum(A[i, J - 1 - j] * B[j]).simplify(True).build(),
    ]
    a = RNG.integers(-3, 4, (3, 4)).astype(np.float32)
    a[0, 0] = 2
    b = np.array([2, -1, 0, 3], np.float32)
    eq = (a == b[None, :])
    results = run([A, B], outs, [a, b])
    check(results, [
        a.sum(1), a.prod(1), a.max(0), a.min(0), a.T, a.sum(1) + 100, a[:, :2].sum(1), a.sum(),
        a + b, a @ b, np.where(eq, a, 0), np.where(eq, b[None, :], 0), b[[1, 3]], b[1:],
        b[[0, 2]], b[[0, 0, 1, 1]], a.sum(1), a[:, ::-1] @ b
    ])
    assert results[16].dtype == np.float64


def test_lens():
    X = Placeholder(DType.FLOAT32, [2, 3, 4], name='X')  # stored CHW
    lens = TensorLens('CHW', 'HWC')
    V = X.use(lens)
    assert V.shape == [3, 4, 2]
    H, W, C = TensorDims(3)
    V.bind_dims(H, W, C)
    h, w, c = TensorIndexes(3)
    # Reads X through the lens; the contraction writes through it too.
    S = Contraction().outShape(H, W).outAccess(h, w).sum(V[h, w, c]).build()
    T = Contraction(lens).outShape(H, W, C).outAccess(h, w, c).assign(V[h, w, c] + V[h, w, c]).build()
    with pytest.raises(ValueError):
        TensorLens('AB', 'AC')
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    check(run([X], [S, T], [x]), [x.sum(0), 2 * x])


def test_shapes_and_programs():
    A = Placeholder(DType.INT16, [2, 5], name='A')
    assert A.compute_shape() == TensorShape(DType.INT16, [2, 5])
    assert A.rank == 2 and A.dtype == DType.INT16 and A.name == 'A'
    assert A.compute_shape().strides == [5, 1] and A.compute_shape().nbytes == 20
    P = Placeholder(TensorShape(DType.FLOAT32, [3]), name='P')
    R = (P * 2).named('R')
    program = plaidml.Program('prog', [A, P], [R, A])
    text = str(program)
    assert 'func.func @prog' in text and 'tile.mul' in text
    assert program.inputs == [TensorShape(DType.INT16, [2, 5]), TensorShape(DType.FLOAT32, [3])]
    assert program.outputs[0] == TensorShape(DType.FLOAT32, [3])
    assert program.input_names == ['A', 'P'] and program.output_names[0] == 'R'
    assert 'Tensor(A ' in repr(A)


def test_operators():
    A = Placeholder(DType.FLOAT32, [2, 3], name='A')
    B = Placeholder(DType.FLOAT32, [3], name='B')
    I = Placeholder(DType.INT32, [2, 3], name='I')
    J = Placeholder(DType.INT32, [3], name='J')
    L = Placeholder(DType.BOOLEAN, [3], name='L')
    outs = [
        A + B, A - B, A * B, A / B, A + 1, 1 + A, A - 0.5, 2 - A, A * 3, 0.5 * A, A / 4, 1 / (B + 10),
        -A, +A, A**2, 2**B, A % 2.0, I % 3, 7 % (J + 10), A // 2, I // 2,
        A == B, A != B, A < B, A > B, A <= B, A >= B, A < 0, A > 0.5,
        I & J, I | J, I ^ J, I & 6, 5 | J, ~I, I << 1, 1 << (J & 3), I >> 1, 64 >> (J & 3),
        logical_and(A > 0, B > 0), logical_or(L, A > 0), logical_xor(L, B > 0), logical_not(L),
        bit_not(J), abs(A), np.float32(2) * A, A + np.array([1, 2, 3], np.float32), np.int32(3) - J,
    ]
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = np.array([0.5, -1.25, 2.0], np.float32)
    i = RNG.integers(-20, 20, (2, 3)).astype(np.int32)
    j = np.array([3, 5, 12], np.int32)
    l = np.array([True, False, True])
    expected = [
        a + b, a - b, a * b, a / b, a + 1, 1 + a, a - 0.5, 2 - a, a * 3, 0.5 * a, a / 4, 1 / (b + 10),
        -a, a, a**2, 2**b, np.fmod(a, 2.0), np.fmod(i, 3), np.fmod(7, j + 10), np.floor(a / 2),
        np.trunc(i / 2).astype(np.int32), a == b, a != b, a < b, a > b, a <= b, a >= b, a < 0,
        a > 0.5, i & j, i | j, i ^ j, i & 6, 5 | j, ~i, i << 1, 1 << (j & 3), i >> 1, 64 >> (j & 3),
        (a > 0) & (b > 0), l | (a > 0), l ^ (b > 0), ~l, ~j, np.abs(a), 2 * a, a + [1, 2, 3], 3 - j
    ]
    results = run([A, B, I, J, L], outs, [a, b, i, j, l])
    check(results, expected)
    assert results[21].dtype == np.bool_ and results[29].dtype == np.int32
    with pytest.raises(TypeError, match='truth value'):
        bool(A > 0)
    with pytest.raises(TypeError):
        A + 'x'


def test_intrinsics():
    X = Placeholder(DType.FLOAT32, [2, 4], name='X')
    P = Placeholder(DType.FLOAT32, [2, 4], name='P')  # positive
    N = Placeholder(DType.INT32, [3], name='N')
    U = Placeholder(DType.FLOAT32, [5], name='U')
    R, RS = prng(prng_seed(0), [2, 3])
    outs = [
        exp(X), log(P), sqrt(P), tanh(X), sin(X), cos(X), tan(X * 0.5), sinh(X), cosh(X), floor(X * 3),
        ceil(X * 3), round(X * 3), erf(X), sigmoid(X), relu(X), abs(X), max(X, 0.25), min(X, P),
        pow(P, 0.5), ident(X), trace(X, 'x'),
        cast(X * 10, DType.INT32), cast(N, DType.FLOAT64), select(X > 0, X, P), select(X > 0, 1.0, 0.0),
        index([2, 4], 1), index([2, 4], 0, DType.INT64), reshape(X, [4, 2]), reshape(X, [-1]),
        gather(U, N), gather(X, N - N + 1, 1), scatter(cast(N, DType.FLOAT32), N, [13]),
        argsort(U), argsort(X, 1, SortDirection.DESC), shape(X), R, RS,
    ]
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    p = RNG.uniform(0.5, 2, (2, 4)).astype(np.float32)
    n = np.array([2, 0, 4], np.int32)
    u = np.array([3.0, -1.0, 7.0, 0.0, 2.0], np.float32)
    np_erf = np.vectorize(math.erf)
    scattered = np.zeros(13, np.float32)
    np.add.at(scattered, n, n.astype(np.float32))
    results = run([X, P, N, U], outs, [x, p, n, u])
    expected = [
        np.exp(x), np.log(p), np.sqrt(p), np.tanh(x), np.sin(x), np.cos(x), np.tan(x * 0.5),
        np.sinh(x), np.cosh(x), np.floor(x * 3), np.ceil(x * 3), np.round(x * 3), np_erf(x),
        1 / (1 + np.exp(-x)), np.maximum(x, 0), np.abs(x), np.maximum(x, 0.25), np.minimum(x, p),
        np.sqrt(p), x, x, np.trunc(x * 10).astype(np.int32), n.astype(np.float64),
        np.where(x > 0, x, p), np.where(x > 0, 1.0, 0.0),
        np.broadcast_to(np.arange(4), (2, 4)), np.broadcast_to(np.arange(2)[:, None], (2, 4)),
        x.reshape(4, 2), x.reshape(-1), u[n], x[:, [1, 1, 1]], scattered,
        np.argsort(u, kind='stable'), np.argsort(-x, axis=1, kind='stable'), np.array([2, 4]),
        results[35], results[36]
    ]
    check(results, expected, 1e-4)
    r, state = results[35], results[36]
    assert r.shape == (2, 3) and ((r >= 0) & (r < 1)).all() and len(np.unique(r)) == 6
    assert state.shape == (6,) and state.dtype == np.uint32
    assert results[26].dtype == np.int64 and results[32].dtype == np.int32
    assert Tensor(value=3).dtype == DType.INT32 and Tensor(value=2**40).dtype == DType.INT64
    assert Tensor(value=1.5).dtype == DType.FLOAT32


def test_constants():
    c = Constant(np.arange(6, dtype=np.int64).reshape(2, 3), name='c')
    assert c.compute_shape() == TensorShape(DType.INT64, [2, 3])
    buf = plaidml.Buffer(TensorShape(DType.FLOAT32, [2]), data=[1.5, 2.5])
    d = Constant(buf)
    s = Constant(2.0)
    X = Placeholder(DType.FLOAT32, [2])
    check(run([X], [c * 2, X * d + s], [np.ones(2)]), [np.arange(6).reshape(2, 3) * 2, [3.5, 4.5]])
    with pytest.raises(TypeError):
        Constant(np.array(['a']))
