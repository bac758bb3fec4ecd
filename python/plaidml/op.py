# ===- op.py - The op library from Python (plaidml.op) --------------------===#
#
# Every op of the C++ op library (include/plaidml/Op/Op.h) through the C
# API's plaidml_op_apply, with framework-style keyword arguments:
#
#   y = op.convolution(x, w, strides=[2, 2], padding='same_upper')
#   p = op.pool(x, 'max', window=[2, 2], strides=[2, 2])
#   s = op.softmax(x, axis=-1)
#   m = op.mean(x, axis=(1, 2), keepdims=True)
#
# Attribute values are integers, lists of integers, numbers, strings
# (enumerations: padding 'valid'/'same_upper'/'same_lower'/'explicit',
# layout 'nxc'/'ncx', filter_layout 'xio'/'oix', pool mode 'max'/'average',
# pad mode 'constant'/'reflect'/'edge'/'wrap', resize mode 'nearest'/'bilinear'),
# DTypes and Tensors. An unknown keyword is an error (InvalidArgumentError,
# a ValueError), never silently ignored. A few v1 names and spellings are
# kept (concatenate, dot, maximum, minimum, square, `axis` for `axes`,
# `axis=None` for all axes, hard_sigmoid's `slope`, relu's alpha/max_value).
#
# ===----------------------------------------------------------------------===#

import numbers
import sys

import numpy as np

from plaidml import DType, _core
from plaidml import edsl
from plaidml.edsl import Tensor, _as_tensor

_KNOWN = None


def op_names():
    """The names of the ops of the C++ library, in alphabetical order."""
    return list(_core.op_names())


def _attrs(kwargs):
    attrs = _core.Attrs()
    for name, value in kwargs.items():
        if value is None:
            continue
        if isinstance(value, (bool, np.bool_)):
            attrs.set_int(name, int(value))
        elif isinstance(value, DType):
            attrs.set_string(name, _core.dtype_name(value._c))
        elif edsl._is_int(value):
            attrs.set_int(name, int(value))
        elif isinstance(value, (numbers.Real, np.floating)):
            attrs.set_float(name, float(value))
        elif isinstance(value, str):
            attrs.set_string(name, value.lower())
        elif isinstance(value, Tensor):
            attrs.set_tensor(name, value._t)
        elif isinstance(value, (list, tuple, np.ndarray)):
            items = list(np.asarray(value).reshape(-1)) if isinstance(value, np.ndarray) else list(value)
            if not all(edsl._is_int(v) for v in items):
                raise TypeError("attribute '{}' must be a list of integers, not {!r}".format(
                    name, value))
            attrs.set_ints(name, [int(v) for v in items])
        else:
            raise TypeError("attribute '{}' has a value of unsupported type {}".format(
                name, type(value).__name__))
    return attrs


def apply(name, *inputs, **attrs):
    """Applies op `name` of the library to the input tensors with the given
    attributes; returns a Tensor (a list for ops with several results,
    like split)."""
    tensors = [_as_tensor(x)._t if x is not None else None for x in inputs]
    while tensors and tensors[-1] is None:
        tensors.pop()
    if any(t is None for t in tensors):
        raise TypeError("'{}': only trailing optional inputs may be None".format(name))
    results = [Tensor(_handle=h) for h in _core.op_apply(name, tensors, _attrs(attrs))]
    return results[0] if len(results) == 1 and name != 'split' else results


def _axes(axis):
    if axis is None:
        return []
    if edsl._is_int(axis):
        return [int(axis)]
    return [int(a) for a in axis]


def _reduction(name):

    def reduce(x, axis=None, keepdims=False, axes=None):
        return apply(name, x, axes=_axes(axes if axes is not None else axis), keepdims=keepdims)

    reduce.__name__ = name
    reduce.__doc__ = '{} over `axis` (an int, a list, or None for all), as NumPy.'.format(name)
    return reduce


sum = _reduction('sum')  # noqa: A001
mean = _reduction('mean')
max = _reduction('max')  # noqa: A001
min = _reduction('min')  # noqa: A001
prod = _reduction('prod')


def argmax(x, axis=-1, keepdims=False):
    """The index (si32) of the first maximum along `axis`."""
    return apply('argmax', x, axis=axis, keepdims=keepdims)


def argmin(x, axis=-1, keepdims=False):
    return apply('argmin', x, axis=axis, keepdims=keepdims)


def softmax(x, axis=-1):
    return apply('softmax', x, axis=-1 if axis is None else axis)


def log_softmax(x, axis=-1):
    return apply('log_softmax', x, axis=-1 if axis is None else axis)


def convolution(x, w, bias=None, strides=None, dilations=None, padding='valid', pads=None, groups=1,
                layout='nxc', filter_layout='xio'):
    """N-d convolution. layout 'nxc' (NHWC) or 'ncx' (NCHW); filter_layout
    'xio' (HWIO) or 'oix' (OIHW); padding 'valid', 'same_upper',
    'same_lower' or 'explicit' with `pads` (all begins, then all ends)."""
    if pads is not None and padding == 'valid':
        padding = 'explicit'
    return apply('convolution', x, w, bias, strides=strides, dilations=dilations, padding=padding,
                 pads=pads, groups=groups, layout=layout, filter_layout=filter_layout)


conv = convolution


def pool(x, mode='max', window=None, strides=None, padding='valid', pads=None, layout='nxc',
         count_include_pad=False, pool_size=None):
    """Max or average pooling over `window` (v1/Keras: pool_size)."""
    window = window if window is not None else pool_size
    if pads is not None and padding == 'valid':
        padding = 'explicit'
    return apply('pool', x, mode=_pool_mode(mode), window=window, strides=strides,
                 padding=padding, pads=pads, layout=layout, count_include_pad=count_include_pad)


def _pool_mode(mode):
    mode = str(mode).lower()
    return {'avg': 'average', 'mean': 'average'}.get(mode, mode)


def max_pool(x, window, strides=None, **kwargs):
    return pool(x, 'max', window, strides, **kwargs)


def avg_pool(x, window, strides=None, **kwargs):
    return pool(x, 'average', window, strides, **kwargs)


def global_pool(x, mode='average', layout='nxc'):
    return apply('global_pool', x, mode=_pool_mode(mode), layout=layout)


def relu(x, alpha=None, max_value=None, threshold=None):
    """max(x, 0) (v1: `alpha` makes it leaky, `max_value` clips it,
    `threshold` moves the kink)."""
    x = _as_tensor(x)
    if threshold or alpha:
        t = threshold or 0
        y = edsl.select(x >= t, x, (x - t) * float(alpha or 0))
    else:
        y = apply('relu', x)
    if max_value is not None:
        y = edsl.min(y, float(max_value))
    return y


def hard_sigmoid(x, slope=0.2, offset=0.5, alpha=None, beta=None):
    return apply('hard_sigmoid', x, alpha=slope if alpha is None else alpha,
                 beta=offset if beta is None else beta)


def clip(x, min=None, max=None):  # noqa: A002
    x = _as_tensor(x)
    if min is not None and max is not None:
        return apply('clip', x, min=float(min), max=float(max))
    if min is not None:
        return edsl.max(x, min)
    if max is not None:
        return edsl.min(x, max)
    return x


def concatenate(tensors, axis=-1):
    """v1's name for concat."""
    tensors = [_as_tensor(t) for t in tensors]
    if axis < 0:
        axis += tensors[0].rank
    return apply('concat', *tensors, axis=axis)


def concat(tensors, axis=0):
    return concatenate(tensors, axis)


def split(x, sizes, axis=0):
    return apply('split', x, sizes=sizes, axis=axis)


def dot(x, y):
    """NumPy matmul (v1's dot)."""
    return apply('matmul', x, y)


def matmul(x, y):
    return apply('matmul', x, y)


def dense(x, w, bias=None):
    return apply('dense', x, w, bias)


def maximum(x, y):
    return edsl.max(x, y)


def minimum(x, y):
    return edsl.min(x, y)


def square(x):
    x = _as_tensor(x)
    return x * x


def abs(x):  # noqa: A001
    return edsl.abs(x)


def transpose(x, pattern=None, perm=None):
    return apply('transpose', x, perm=perm if perm is not None else pattern)


def squeeze(x, axis=None, axes=None):
    return apply('squeeze', x, axes=_axes(axes if axes is not None else axis))


def unsqueeze(x, axes):
    return apply('unsqueeze', x, axes=_axes(axes))


def reshape(x, shape):
    return apply('reshape', x, shape=shape)


def tile(x, n=None, reps=None):
    return apply('tile', x, reps=reps if reps is not None else n)


def repeat(x, repeats, axis=0):
    return apply('repeat', x, repeats=repeats, axis=axis)


def cumsum(x, axis=0, exclusive=False):
    return apply('cumsum', x, axis=axis, exclusive=exclusive)


def pad(x, pads, mode='constant', value=0.0):
    return apply('pad', x, pads=pads, mode=mode, value=value)


def one_hot(indices, depth, dtype=DType.FLOAT32, on_value=1.0, off_value=0.0):
    return apply('one_hot', indices, depth=depth, dtype=dtype, on_value=on_value,
                 off_value=off_value)


def batch_norm(x, mean, variance, gamma, beta, epsilon=1e-5, axis=-1):
    return apply('batch_norm', x, mean, variance, gamma, beta, epsilon=epsilon, axis=axis)


def layer_norm(x, axes=None, gamma=None, beta=None, epsilon=1e-5, axis=None):
    return apply('layer_norm', x, gamma, beta, axes=_axes(axes if axes is not None else axis),
                 epsilon=epsilon)


def sort(x, axis=-1, direction=edsl.SortDirection.ASC):
    """The elements of each line along `axis` in sorted order (a gather of
    argsort)."""
    x = _as_tensor(x)
    if x.rank != 1:
        raise ValueError('sort: only rank-1 tensors (use argsort and gather for more)')
    return edsl.gather(x, edsl.argsort(x, axis, direction), 0)


def _generic(name):

    def call(*inputs, **attrs):
        return apply(name, *inputs, **attrs)

    call.__name__ = name
    call.__doc__ = "The library's '{}' op: inputs, then attributes as keywords.".format(name)
    return call


# Every other op of the library under its own name.
_module = sys.modules[__name__]
for _name in _core.op_names():
    if not hasattr(_module, _name):
        setattr(_module, _name, _generic(_name))
del _module, _name
