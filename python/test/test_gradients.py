# ===- test_gradients.py - Autodiff against central finite differences ----===#
#
# plaidml.edsl.gradients checked op by op: every test builds f(x, ...) in f64,
# the loss sum(f(...) * r) with a fixed random r, and one program returning
# the loss and its gradients. The gradients must match central finite
# differences of the same program's loss, on the reference interpreter and
# on the CPU. The cases cover every Tile op with a gradient rule (each
# contraction aggregation and combination, every float elementwise op,
# broadcasting, select, cast, reshape, gather, scatter) and the op library's
# convolution (stride, padding, dilation), pooling, softmax, batch and layer
# norm; then the errors (an op with no gradient, an integer input).
#
# ===----------------------------------------------------------------------===#

import numpy as np
import pytest

import plaidml
import plaidml.exec
import plaidml.op as op
from plaidml.edsl import *

F64 = DType.FLOAT64
DEVICES = ['reference', 'cpu']


def gradcheck(device, build, shapes, low=-1.0, high=1.0, extra=(), seed=0, tol=1e-6):
    """Checks d(sum(build(*xs, *extra) * r))/d(xs) against finite differences.

    `shapes` are the f64 inputs differentiated by (values uniform in
    [low, high)); `extra` are (Tensor, value) pairs passed as they are.
    """
    rng = np.random.default_rng(seed)
    xs = [Placeholder(F64, s, name='x{}'.format(i)) for i, s in enumerate(shapes)]
    out = build(*xs, *[t for t, _ in extra])
    r = Placeholder(F64, out.shape, name='r')
    loss = op.sum(out * r)
    grads = gradients(loss, xs)
    inputs = xs + [t for t, _ in extra] + [r]
    exe = plaidml.exec.Executable(plaidml.Program('grad', inputs, [loss] + grads), device=device)
    values = [rng.uniform(low, high, s) for s in shapes]
    fixed = [v for _, v in extra] + [rng.uniform(-1.0, 1.0, out.shape)]
    results = exe.run(values + fixed)
    for i, (x, g) in enumerate(zip(values, results[1:])):
        assert g.shape == x.shape
        numeric = np.zeros_like(x)
        h = 1e-6
        for k in np.ndindex(*x.shape):
            saved = x[k]
            x[k] = saved + h
            up = exe.run(values + fixed)[0]
            x[k] = saved - h
            down = exe.run(values + fixed)[0]
            x[k] = saved
            numeric[k] = (up - down) / (2 * h)
        np.testing.assert_allclose(g, numeric, rtol=1e-5, atol=tol, err_msg='input {}'.format(i))


@pytest.mark.parametrize('device', DEVICES)
def test_matmul_and_broadcast(device):
    # add/mul contraction, and a bias broadcast over rows.
    gradcheck(device, lambda a, b, c: op.matmul(a, b) + c, [[3, 4], [4, 2], [2]])


@pytest.mark.parametrize('device', DEVICES)
def test_contraction_kinds(device):
    # sum of add combination with an init, max and min aggregations, a
    # product aggregation, a cond combination, an assign with constraints.
    def build(a, b, c, idx):
        i, j = TensorIndexes(2)
        s = Contraction().outShape([3]).outAccess([i]).sum(a[i, j] + b[j]).init(c).build()
        mx = Contraction().outShape([3]).outAccess([i]).max(a[i, j]).build()
        mn = Contraction().outShape([4]).outAccess([j]).min(a[i, j]).build()
        pr = Contraction().outShape([3]).outAccess([i]).product(a[i, j]).build()
        cd = Contraction().outShape([3]).outAccess([i]).sum(cond(idx[j] == idx[i], b[j])).build()
        t = Contraction().outShape([4, 3]).outAccess([j, i]).assign(a[i, j]).build()
        return concat_all([s, mx, mn, pr, cd, reshape(t, [12])])

    idx = Placeholder(DType.INT32, [4], name='idx')
    gradcheck(device, build, [[3, 4], [4], [3]], low=0.5, high=2.0,
              extra=[(idx, np.array([0, 1, 1, 2], np.int32))])


def concat_all(ts):
    return op.concat([reshape(t, [-1]) for t in ts], axis=0)


@pytest.mark.parametrize('device', DEVICES)
def test_elementwise(device):
    def build(x, y):
        return concat_all([
            x + y, x - y, x * y, x / y, x % y, -x, abs(x - 1.5), relu(x - 1.5), exp(x), log(x), sqrt(x),
            tanh(x), sin(x), cos(x), erf(x), sigmoid(x), pow(x, y),
            max(x, y), min(x, y), select(x > y, x * 2.0, y * 3.0),
            cast(cast(x, DType.FLOAT32), F64) * 0.0 + x * y * y, floor(x) * y
        ])

    gradcheck(device, build, [[2, 3], [2, 3]], low=0.5, high=2.5, tol=1e-5)


@pytest.mark.parametrize('device', DEVICES)
def test_reshape_gather_scatter(device):
    def build(x, ids):
        g = gather(x, ids, axis=1)
        s = scatter(reshape(x, [6, 2]), ids, [5, 2], axis=0)
        return concat_all([reshape(x, [3, 4]) * 2.0, g * g, s])

    ids = Placeholder(DType.INT32, [6], name='ids')
    gradcheck(device, build, [[2, 6]], extra=[(ids, np.array([0, 5, 2, 2, 7, -1], np.int32))])


@pytest.mark.parametrize('device', DEVICES)
def test_convolution(device):
    def build(x, w, b):
        a = op.convolution(x, w, b, strides=[2, 1], dilations=[1, 2], pads=[1, 0, 1, 1])
        return a

    gradcheck(device, build, [[1, 5, 5, 2], [2, 2, 2, 3], [3]])


@pytest.mark.parametrize('device', DEVICES)
def test_pooling(device):
    def build(x):
        m = op.max_pool(x, [2, 2], [2, 2], padding='same_upper')
        a = op.avg_pool(x, [2, 2], [1, 1])
        return concat_all([m, a])

    gradcheck(device, build, [[1, 3, 3, 2]])


@pytest.mark.parametrize('device', DEVICES)
def test_softmax_and_norms(device):
    def build(x, g, b, mean, var):
        s = op.softmax(x, axis=-1)
        ls = op.log_softmax(x, axis=-1)
        bn = op.batch_norm(x, mean, var, g, b, epsilon=1e-3, axis=-1)
        ln = op.layer_norm(x, axes=[1], epsilon=1e-3)
        return concat_all([s, ls, bn, ln])

    gradcheck(device, build, [[3, 4], [4], [4], [4], [4]], low=0.5, high=1.5, tol=1e-5)


def test_no_gradient_is_an_error():
    x = Placeholder(F64, [3, 4])
    y = Placeholder(F64, [4])
    i, j = TensorIndexes(2)
    m = Contraction().outShape([3]).outAccess([i]).max(x[i, j] * y[j]).build()
    with pytest.raises(plaidml.BuildError, match=r"tile.contract.*no gradient.*max.*mul"):
        gradients(op.sum(m), [x])
    with pytest.raises(plaidml.BuildError, match='only float tensors'):
        gradients(op.sum(m), [Placeholder(DType.INT32, [2])])


def test_unused_input_gets_zeros():
    x = Placeholder(F64, [2])
    z = Placeholder(F64, [3])
    (dz,) = gradients(op.sum(x * x), [z])
    got = plaidml.exec.run(plaidml.Program('z', [x, z], [dz]), [np.ones(2), np.ones(3)],
                           device='reference')
    np.testing.assert_array_equal(got[0], np.zeros(3))
