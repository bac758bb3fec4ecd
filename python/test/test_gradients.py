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


# Every op of the op library, by name: the inputs to differentiate by
# (shapes, value range) and how to call it. Ops whose outputs are integers
# (argmax, argmin, one_hot) have no gradient; test_op_table_covers_every_op
# keeps this table complete as ops are added.
NO_GRADIENT_OPS = {'argmax', 'argmin', 'one_hot'}
OP_CASES = {
    'batch_norm': ([[2, 3], [3], [3], [3], [3]], (0.5, 1.5),
                   lambda x, m, v, g, b: op.batch_norm(x, m, v, g, b, epsilon=1e-3)),
    'broadcast_to': ([[3, 1]], None, lambda x: op.apply('broadcast_to', x, shape=[2, 3, 4])),
    'clip': ([[2, 3]], None, lambda x: op.clip(x, min=-0.3, max=0.4)),
    'concat': ([[2, 3], [2, 2]], None, lambda x, y: op.concat([x, y * 2.0], axis=1)),
    'convolution': ([[1, 4, 4, 2], [3, 3, 2, 2], [2]], None,
                    lambda x, w, b: op.convolution(x, w, b, pads=[1, 1, 1, 1])),
    'convolution_transpose': ([[1, 3, 3, 2], [2, 2, 2, 3]], None,
                              lambda x, w: op.apply('convolution_transpose', x, w, strides=[2, 2])),
    'cumsum': ([[2, 3]], None, lambda x: op.cumsum(x, axis=1)),
    'dense': ([[2, 3], [3, 4], [4]], None, lambda x, w, b: op.dense(x, w, b)),
    'elu': ([[2, 3]], None, lambda x: op.apply('elu', x, alpha=0.7)),
    'flatten': ([[2, 2, 3]], None, lambda x: op.apply('flatten', x, axis=1) * 3.0),
    'gelu': ([[2, 3]], None,
             lambda x: concat_all([op.apply('gelu', x), op.apply('gelu', x, approximate_tanh=True)])),
    'gemm': ([[3, 2], [3, 4], [4]], None,
             lambda a, b, c: op.apply('gemm', a, b, c, alpha=0.5, beta=2.0, trans_a=True)),
    'global_pool': ([[1, 3, 3, 2]], None,
                    lambda x: concat_all([op.global_pool(x), op.global_pool(x, mode='max')])),
    'group_norm': ([[2, 4, 3]], None, lambda x: op.apply('group_norm', x, groups=2, epsilon=1e-3)),
    'hard_sigmoid': ([[2, 3]], (-4.0, 4.0), lambda x: op.hard_sigmoid(x)),
    'hard_swish': ([[2, 3]], (-4.0, 4.0), lambda x: op.apply('hard_swish', x)),
    'instance_norm': ([[2, 3, 4]], None, lambda x: op.apply('instance_norm', x, epsilon=1e-3)),
    'layer_norm': ([[3, 4]], None, lambda x: op.layer_norm(x, axes=[1], epsilon=1e-3)),
    'leaky_relu': ([[2, 3]], None, lambda x: op.apply('leaky_relu', x, alpha=0.1)),
    'log_softmax': ([[2, 3]], None, lambda x: op.log_softmax(x)),
    'matmul': ([[2, 3], [3, 4]], None, lambda x, y: op.matmul(x, y)),
    'max': ([[2, 3]], None, lambda x: op.apply('max', x, axes=[1])),
    'mean': ([[2, 3]], None, lambda x: op.apply('mean', x, axes=[0])),
    'min': ([[2, 3]], None, lambda x: op.apply('min', x, axes=[1])),
    'pad': ([[3, 3]], None,
            lambda x: concat_all([op.pad(x, [1, 0, 0, 2]), op.pad(x, [1, 1, 1, 1], mode='reflect'),
                                  op.pad(x, [0, 2, 1, 0], mode='edge')])),
    'pool': ([[1, 4, 4, 2]], None,
             lambda x: concat_all([op.pool(x, mode='average', window=[2, 2], strides=[1, 1]),
                                   op.pool(x, mode='max', window=[3, 3], strides=[2, 2],
                                           padding='same_upper')])),
    'prod': ([[2, 3]], (0.5, 1.5), lambda x: op.apply('prod', x, axes=[1])),
    'relu': ([[2, 3]], None, lambda x: op.relu(x)),
    'relu6': ([[2, 3]], (-2.0, 8.0), lambda x: op.apply('relu6', x)),
    'repeat': ([[2, 3]], None, lambda x: op.repeat(x, 2, axis=1)),
    'reshape': ([[2, 3]], None, lambda x: op.reshape(x, [3, 2]) * 2.0),
    'resize': ([[1, 2, 3, 1]], None,
               lambda x: op.apply('resize', x, sizes=[4, 5], mode='bilinear')),
    'sigmoid': ([[2, 3]], None, lambda x: op.apply('sigmoid', x)),
    'slice': ([[2, 4]], None,
              lambda x: op.apply('slice', x, starts=[1], ends=[4], axes=[1], steps=[2])),
    'softmax': ([[2, 3]], None, lambda x: op.softmax(x)),
    'split': ([[2, 3]], None, lambda x: concat_all(
        [t * float(i + 1) for i, t in enumerate(op.split(x, [1, 2], axis=1))])),
    'squeeze': ([[2, 1, 3]], None, lambda x: op.squeeze(x, axes=[1]) * 2.0),
    'sum': ([[2, 3]], None, lambda x: op.apply('sum', x, axes=[0, 1])),
    'swish': ([[2, 3]], None, lambda x: op.apply('swish', x)),
    'tanh': ([[2, 3]], None, lambda x: op.apply('tanh', x)),
    'tile': ([[2, 3]], None, lambda x: op.tile(x, reps=[2, 1])),
    'transpose': ([[2, 3]], None, lambda x: op.transpose(x, perm=[1, 0])),
    'unsqueeze': ([[2, 3]], None, lambda x: op.unsqueeze(x, [0]) * 2.0),
    'upsample': ([[1, 2, 2, 1]], None, lambda x: op.apply('upsample', x, factors=[2, 3])),
}


def test_op_table_covers_every_op():
    assert set(OP_CASES) | NO_GRADIENT_OPS | {'gather'} == set(op.op_names())


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('name', sorted(OP_CASES))
def test_op_library_gradient(name, device):
    shapes, bounds, build = OP_CASES[name]
    low, high = bounds or (-1.0, 1.0)
    gradcheck(device, build, shapes, low=low, high=high, tol=1e-5)


@pytest.mark.parametrize('device', DEVICES)
def test_op_library_gather_gradient(device):
    ids = Placeholder(DType.INT32, [5], name='ids')
    gradcheck(device, lambda x, i: op.apply('gather', x, i, axis=0), [[4, 3]],
              extra=[(ids, np.array([3, 0, 3, 1, 2], np.int32))])
