# ===- edsl.py - The Tile EDSL from Python (v1's plaidml.edsl) ------------===#
#
# Builds Tile programs from Python, with PlaidML v1's names: TensorDim(s),
# TensorIndex(es), Placeholder, Constant, Tensor with operators and
# intrinsics, contractions (Contraction().outShape(...).outAccess(...)
# .sum(A[i, k] * B[k, j]).build()), constraints (i < N), cond, layout lenses
# (TensorLens, T.use(lens)) and shapes (T.compute_shape()). Every object
# holds a handle of the C API's EDSL (include/plaidml-c/edsl.h); building an
# ill-formed program raises plaidml.BuildError whose message starts with the
# file and line of the user's code.
#
# Shapes are static: a tensor knows its shape when it is built, so a
# TensorDim bound by bind_dims has a value, and intrinsics that v1 took
# dimension tensors for (index, reshape, scatter) take integers or bound
# TensorDims.
#
# ===----------------------------------------------------------------------===#

import builtins
import enum
import numbers
from collections import namedtuple

import numpy as np

import plaidml
from plaidml import DType, TensorShape, _core

__all__ = [
    'DType', 'TensorShape', 'TensorDim', 'TensorDims', 'TensorIndex', 'TensorIndexes', 'TensorLens',
    'Tensor', 'IndexedTensor', 'Contraction', 'Constraint', 'Placeholder', 'Constant',
    'SortDirection', 'Program', 'cond', 'abs', 'argsort', 'cast', 'ceil', 'cos', 'cosh', 'erf', 'exp',
    'floor', 'gather', 'gradients', 'ident', 'index', 'log', 'max', 'min', 'pow', 'prng', 'prng_seed', 'relu',
    'reshape', 'round', 'scatter', 'select', 'shape', 'sigmoid', 'sin', 'sinh', 'sqrt', 'tan', 'tanh',
    'trace', 'dim_max', 'dim_min', 'logical_and', 'logical_or', 'logical_xor', 'logical_not', 'bit_not'
]

Program = plaidml.Program

# Operation codes of include/plaidml-c/edsl.h.
_DIM_OPS = {'add': 0, 'sub': 1, 'mul': 2, 'div': 3, 'neg': 4, 'max': 5, 'min': 6}
_INDEX_OPS = {'add': 0, 'sub': 1, 'mul': 2, 'div': 3, 'neg': 4}
_UNARY = {
    'neg': 0, 'logical_not': 1, 'bit_not': 2, 'abs': 3, 'relu': 4, 'exp': 5, 'log': 6, 'sqrt': 7,
    'tanh': 8, 'sin': 9, 'cos': 10, 'floor': 11, 'ceil': 12, 'round': 13, 'erf': 14, 'sigmoid': 15
}
_BINARY = {
    'add': 0, 'sub': 1, 'mul': 2, 'div': 3, 'mod': 4, 'pow': 5, 'max': 6, 'min': 7, 'bit_and': 8,
    'bit_or': 9, 'bit_xor': 10, 'bit_shl': 11, 'bit_shr': 12, 'logical_and': 13, 'logical_or': 14,
    'logical_xor': 15, 'cmp_eq': 16, 'cmp_ne': 17, 'cmp_lt': 18, 'cmp_gt': 19, 'cmp_le': 20,
    'cmp_ge': 21
}
_AGG = {'sum': 0, 'product': 1, 'max': 2, 'min': 3, 'assign': 4}
_COMBO_NONE, _COMBO_ADD, _COMBO_MUL, _COMBO_EQ, _COMBO_COND = range(5)


def _is_int(x):
    return isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_))


# ---------------------------------------------------------------------------
# TensorDim
# ---------------------------------------------------------------------------


def _dim(x):
    if isinstance(x, TensorDim):
        return x
    if _is_int(x):
        return TensorDim(_handle=_core.Dim.constant(int(x)))
    raise TypeError('expected a TensorDim or an integer, not {!r}'.format(x))


class _Arithmetic(object):
    """The operators TensorDim and TensorIndex share: each is `self._op(name,
    other, reverse)`. Division is `/` and `//` alike (v1 wrote both): exact
    for indexes, floor for sizes."""

    def __neg__(self):
        return self._op('neg')

    def __add__(self, o):
        return self._op('add', o)

    def __radd__(self, o):
        return self._op('add', o, True)

    def __sub__(self, o):
        return self._op('sub', o)

    def __rsub__(self, o):
        return self._op('sub', o, True)

    def __mul__(self, o):
        return self._op('mul', o)

    def __rmul__(self, o):
        return self._op('mul', o, True)

    def __truediv__(self, o):
        return self._op('div', o)

    def __rtruediv__(self, o):
        return self._op('div', o, True)

    __floordiv__ = __truediv__
    __rfloordiv__ = __rtruediv__


class TensorDim(_Arithmetic):
    """A dimension size: unbound until Tensor.bind_dims binds it to a
    tensor's size, a constant, or arithmetic on those."""

    def __init__(self, name=None, _handle=None, _text=None):
        if _handle is None:
            _handle = _core.Dim.create(name)
        self._d = _handle
        self._text = _text or name or '?'

    def _op(self, op, other=None, reverse=False):
        if isinstance(other, TensorIndex):
            # `N - 1 - i` is an index expression: TensorIndex's operator.
            return NotImplemented
        a, b = (self, other) if not reverse else (other, self)
        a = _dim(a)
        b = None if b is None else _dim(b)
        text = '-{}'.format(a) if b is None else '({} {} {})'.format(
            a, {'add': '+', 'sub': '-', 'mul': '*', 'div': '//'}.get(op, op), b)
        return TensorDim(_handle=_core.Dim.op(_DIM_OPS[op], a._d, None if b is None else b._d),
                         _text=text)

    @property
    def value(self):
        """The size (BuildError while a variable it uses is unbound)."""
        return self._d.value()

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __repr__(self):
        try:
            return 'TensorDim({} = {})'.format(self._text, self._d.value())
        except plaidml.PlaidMLError:
            return 'TensorDim({})'.format(self._text)

    def __str__(self):
        return self._text


def dim_max(a, b):
    """The larger of two TensorDims."""
    return TensorDim(_handle=_core.Dim.op(_DIM_OPS['max'], _dim(a)._d, _dim(b)._d))


def dim_min(a, b):
    """The smaller of two TensorDims."""
    return TensorDim(_handle=_core.Dim.op(_DIM_OPS['min'], _dim(a)._d, _dim(b)._d))


def TensorDims(count):
    """`count` fresh TensorDims."""
    return [TensorDim() for _ in range(count)]


# ---------------------------------------------------------------------------
# TensorIndex and constraints
# ---------------------------------------------------------------------------

Constraint = namedtuple('Constraint', ['lhs', 'rhs'])


def _index(x):
    if isinstance(x, TensorIndex):
        return x
    if isinstance(x, TensorDim):
        return TensorIndex(_handle=_core.Index.from_dim(x._d), _text=str(x))
    if _is_int(x):
        return TensorIndex(_handle=_core.Index.constant(int(x)), _text=str(int(x)))
    raise TypeError('expected a TensorIndex, a TensorDim or an integer in an index '
                    'expression, not {!r}'.format(x))


class TensorIndex(_Arithmetic):
    """An index variable of a contraction, or an affine expression of them
    (`2 * i + j`, `(x - 1) / 2`: division is exact and rational; a position
    that is not an integer is skipped unless the contraction says
    no_defract)."""

    def __init__(self, name=None, _handle=None, _text=None):
        if _handle is None:
            _handle = _core.Index.create(name or None)
        self._i = _handle
        self._text = _text or name or 'idx'

    def _op(self, op, other=None, reverse=False):
        a, b = (self, other) if not reverse else (other, self)
        a = _index(a)
        b = None if b is None else _index(b)
        text = '-{}'.format(a) if b is None else '({} {} {})'.format(
            a, {'add': '+', 'sub': '-', 'mul': '*', 'div': '/'}[op], b)
        return TensorIndex(_handle=_core.Index.op(_INDEX_OPS[op], a._i,
                                                  None if b is None else b._i), _text=text)

    def __lt__(self, bound):
        """`0 <= self < bound`: a constraint for Contraction.add_constraint."""
        return Constraint(self, _dim(bound))

    def __repr__(self):
        return 'TensorIndex({})'.format(self._text)

    __str__ = lambda self: self._text


def TensorIndexes(count):
    """`count` fresh TensorIndexes."""
    return [TensorIndex() for _ in range(count)]


# ---------------------------------------------------------------------------
# TensorLens
# ---------------------------------------------------------------------------


class TensorLens(object):
    """A view of a tensor stored in layout `source` (e.g. 'NCHW') as layout
    `target` (e.g. 'NHWC'): T.use(lens) has the target's shape, bind_dims
    and accesses; Contraction(lens) names its output's dimensions in the
    target order and stores it in the source order."""

    def __init__(self, source='', target=''):
        if len(source) != len(target) or sorted(source) != sorted(target) or \
                len(builtins.set(source)) != len(source):
            raise ValueError("TensorLens: '{}' and '{}' must be the same distinct letters".format(
                source, target))
        self.source = source
        self.target = target

    def __repr__(self):
        return 'TensorLens({!r}, {!r})'.format(self.source, self.target)


# ---------------------------------------------------------------------------
# Tensor
# ---------------------------------------------------------------------------


class SortDirection(enum.IntEnum):
    ASC = 0
    DESC = 1


def _scalar_tensor(value):
    """A Python number as a rank-0 constant, like a Tile literal (si32, si64
    when it does not fit, f32; bool: i1)."""
    if isinstance(value, (bool, np.bool_)):
        return Tensor(_handle=_core.Tensor.scalar(DType.BOOLEAN._c, float(value)))
    if _is_int(value):
        value = int(value)
        dtype = DType.INT32 if -2**31 <= value < 2**31 else DType.INT64
        return Tensor(_handle=_core.Tensor.scalar(dtype._c, float(value)))
    if isinstance(value, (numbers.Real, np.floating)):
        return Tensor(_handle=_core.Tensor.scalar(DType.FLOAT32._c, float(value)))
    raise TypeError('expected a Tensor or a number, not {!r}'.format(value))


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, TensorDim):
        return _scalar_tensor(x.value)
    if isinstance(x, np.ndarray):
        return Constant(x)
    return _scalar_tensor(x)


def _binary(op, a, b):
    """An elementwise binary op; a plain number takes the tensor's type."""
    code = _BINARY[op]
    if isinstance(b, TensorDim):
        b = b.value
    if isinstance(a, TensorDim):
        a = a.value
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        return a._number_op(code, b, False)
    if isinstance(b, Tensor) and not isinstance(a, Tensor):
        return b._number_op(code, a, True)
    a, b = _as_tensor(a), _as_tensor(b)
    return Tensor(_handle=a._t.binary(code, b._t))


def _unary(op, x):
    return Tensor(_handle=_as_tensor(x)._t.unary(_UNARY[op]))


class Tensor(object):
    """A tensor of a program being built: a placeholder, a constant or the
    result of an operation. Its shape and element type are known at once.
    Arithmetic, comparison and bitwise operators build elementwise ops
    (broadcasting like NumPy); T[i, j] is an access for a contraction."""

    def __init__(self, expr=None, value=None, name='', _handle=None):
        if _handle is None:
            if value is not None:
                _handle = _scalar_tensor(value)._t
            elif expr is not None:
                _handle = _as_tensor(expr)._t
            else:
                raise ValueError('Tensor() needs value= (use Placeholder or Constant for arrays)')
        if name:
            _handle = _handle.named(name)
        self._t = _handle
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return DType._from_c(self._t.dtype)

    @property
    def shape(self):
        """The sizes, a list of integers (in the lens order)."""
        return list(self._t.shape)

    @property
    def rank(self):
        return len(self._t.shape)

    def compute_shape(self):
        """The TensorShape (element type and sizes)."""
        return TensorShape(self.dtype, self._t.shape)

    def bind_dims(self, *dims):
        """Binds each TensorDim to the size of its dimension (a constant or an
        already bound one must equal it); as many dims as the rank."""
        if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
            dims = dims[0]
        self._t.bind_dims([_dim(d)._d for d in dims])

    def use(self, lens):
        """This tensor seen through a TensorLens."""
        if not isinstance(lens, TensorLens):
            raise TypeError('use() takes a TensorLens, not {!r}'.format(lens))
        t = Tensor(_handle=self._t.use_lens(lens.source, lens.target))
        t._name = self._name
        return t

    def named(self, name):
        """The same tensor under another name (a program input or output
        takes it)."""
        t = Tensor(_handle=self._t.named(name))
        t._name = name
        return t

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        return IndexedTensor(_COMBO_NONE, ref=self, idxs=key)

    def _number_op(self, code, value, reversed_):
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        if _is_int(value):
            return Tensor(_handle=self._t.binary_int(code, int(value), reversed_))
        if isinstance(value, (numbers.Real, np.floating)):
            return Tensor(_handle=self._t.binary_float(code, float(value), reversed_))
        if isinstance(value, np.ndarray):
            other = Constant(value)
            a, b = (other, self) if reversed_ else (self, other)
            return Tensor(_handle=a._t.binary(code, b._t))
        raise TypeError('unsupported operand {!r} for an elementwise op on {}'.format(value, self))

    def __neg__(self):
        return _unary('neg', self)

    def __invert__(self):
        return _unary('bit_not', self)

    def __abs__(self):
        return _unary('abs', self)

    def __pos__(self):
        return self

    def __add__(self, o):
        return _binary('add', self, o)

    def __radd__(self, o):
        return _binary('add', o, self)

    def __sub__(self, o):
        return _binary('sub', self, o)

    def __rsub__(self, o):
        return _binary('sub', o, self)

    def __mul__(self, o):
        return _binary('mul', self, o)

    def __rmul__(self, o):
        return _binary('mul', o, self)

    def __truediv__(self, o):
        return _binary('div', self, o)

    def __rtruediv__(self, o):
        return _binary('div', o, self)

    def __floordiv__(self, o):
        return floor(_binary('div', self, o)) if self.dtype.is_float else _binary('div', self, o)

    def __mod__(self, o):
        return _binary('mod', self, o)

    def __rmod__(self, o):
        return _binary('mod', o, self)

    def __pow__(self, o):
        return _binary('pow', self, o)

    def __rpow__(self, o):
        return _binary('pow', o, self)

    def __eq__(self, o):
        return _binary('cmp_eq', self, o)

    def __ne__(self, o):
        return _binary('cmp_ne', self, o)

    def __lt__(self, o):
        return _binary('cmp_lt', self, o)

    def __gt__(self, o):
        return _binary('cmp_gt', self, o)

    def __le__(self, o):
        return _binary('cmp_le', self, o)

    def __ge__(self, o):
        return _binary('cmp_ge', self, o)

    def __lshift__(self, o):
        return _binary('bit_shl', self, o)

    def __rlshift__(self, o):
        return _binary('bit_shl', o, self)

    def __rshift__(self, o):
        return _binary('bit_shr', self, o)

    def __rrshift__(self, o):
        return _binary('bit_shr', o, self)

    def __and__(self, o):
        return _binary('bit_and', self, o)

    def __rand__(self, o):
        return _binary('bit_and', o, self)

    def __or__(self, o):
        return _binary('bit_or', self, o)

    def __ror__(self, o):
        return _binary('bit_or', o, self)

    def __xor__(self, o):
        return _binary('bit_xor', self, o)

    def __rxor__(self, o):
        return _binary('bit_xor', o, self)

    __hash__ = object.__hash__
    # NumPy scalars and arrays on the left (np.float32(2) * T) defer to the
    # reflected operators instead of making object arrays.
    __array_ufunc__ = None

    def __bool__(self):
        raise TypeError('a Tensor has no truth value while the program is being built '
                        '(use select() for a condition)')

    def __repr__(self):
        return 'Tensor({}{})'.format(self._name + ' ' if self._name else '',
                                     self.compute_shape())


def Placeholder(dtype_or_shape, dims=(), name=''):
    """An input of a program: Placeholder(DType.FLOAT32, [M, K], name='A') or
    Placeholder(TensorShape(...))."""
    if isinstance(dtype_or_shape, TensorShape):
        shape = dtype_or_shape
    elif isinstance(dtype_or_shape, DType):
        shape = TensorShape(dtype_or_shape, [int(d) for d in dims])
    else:
        raise TypeError('Placeholder takes a DType or a TensorShape, not {!r}'.format(dtype_or_shape))
    t = Tensor(_handle=_core.Tensor.placeholder(shape.dtype._c, shape.sizes, name or None))
    t._name = name
    return t


def Constant(buffer, dims=(), name=''):
    """A constant tensor holding a copy of `buffer` (a plaidml.Buffer, an
    ndarray, or a Python number for a rank-0 constant)."""
    if isinstance(buffer, plaidml.Buffer):
        native = buffer._buffer
    else:
        array = np.asarray(buffer)
        if array.dtype.kind not in 'biuf':
            raise TypeError('Constant takes numbers, not an array of {}'.format(array.dtype))
        if array.ndim == 0 and not isinstance(buffer, np.ndarray):
            return _scalar_tensor(buffer)
        native = plaidml._convert(array, TensorShape(DType.from_numpy(array.dtype), array.shape),
                                  'Constant')
    t = Tensor(_handle=_core.Tensor.constant(native, name or None))
    t._name = name
    return t


# ---------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------


class IndexedTensor(object):
    """An access `T[i, j]` or a combination of accesses: `A[i] * B[j]`,
    `A[i] + B[j]`, `A[i] == B[j]`, `cond(A[i], B[j], C[k])`."""

    def __init__(self, op, ref=None, idxs=None, args=None):
        self._op = op
        self._ref = ref
        self._idxs = idxs
        self._args = args

    def _combine(self, op, other):
        if not isinstance(other, IndexedTensor):
            raise TypeError('a contraction combines accesses like A[i, j], not {!r}'.format(other))
        if self._op != _COMBO_NONE or other._op != _COMBO_NONE:
            raise TypeError('a contraction combines two single accesses; '
                            'compute longer expressions in separate steps')
        return IndexedTensor(op, args=(self, other))

    def __add__(self, other):
        return self._combine(_COMBO_ADD, other)

    def __mul__(self, other):
        return self._combine(_COMBO_MUL, other)

    def __eq__(self, other):
        return self._combine(_COMBO_EQ, other)

    __hash__ = object.__hash__

    def _accesses(self):
        if self._op == _COMBO_NONE:
            return [(self._ref, self._idxs)]
        return [(a._ref, a._idxs) for a in self._args]


def cond(lhs, rhs, true_case=None):
    """`true_case` where the accesses `lhs` and `rhs` are equal, else 0:
    cond(A[i], B[j], C[i, j]) (v1), or cond(A[i] == B[j], C[i, j])."""
    if true_case is None:
        eq, value = lhs, rhs
        if not isinstance(eq, IndexedTensor) or eq._op != _COMBO_EQ:
            raise TypeError('cond(eq, value) needs an == of two accesses first')
        lhs, rhs = eq._args
        true_case = value
    for part in (lhs, rhs, true_case):
        if not isinstance(part, IndexedTensor) or part._op != _COMBO_NONE:
            raise TypeError('cond() takes single accesses like A[i]')
    return IndexedTensor(_COMBO_COND, args=(lhs, rhs, true_case))


def _flatten(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


class Contraction(object):
    """Builds one contraction:

        C = Contraction().outShape(M, N).outAccess(i, j).sum(A[i, k] * B[k, j]).build()

    Set the shape and access, one aggregation (sum, product, max, min,
    assign), then optional constraints, init, no_defract and dtype; build()
    makes the Tensor."""

    def __init__(self, name='', lens=None):
        if isinstance(name, TensorLens):
            name, lens = '', name
        self._name = name
        self._lens = lens
        self._dims = None
        self._idxs = None
        self._agg = None
        self._rhs = None
        self._constraints = []
        self._init = None
        self._no_defract = False
        self._dtype = None

    def outShape(self, *dims):
        self._dims = _flatten(dims)
        return self

    def outAccess(self, *idxs):
        self._idxs = _flatten(idxs)
        return self

    def _set_agg(self, agg, rhs):
        if self._agg is not None:
            raise ValueError('Contraction {!r} already has an aggregation ({})'.format(
                self._name, self._agg))
        self._agg = agg
        self._rhs = rhs
        return self

    def sum(self, rhs):
        return self._set_agg('sum', rhs)

    def product(self, rhs):
        return self._set_agg('product', rhs)

    def max(self, rhs):
        return self._set_agg('max', rhs)

    def min(self, rhs):
        return self._set_agg('min', rhs)

    def assign(self, rhs):
        return self._set_agg('assign', rhs)

    def add_constraint(self, constraint):
        if not isinstance(constraint, Constraint):
            raise TypeError('add_constraint takes `index < bound`, not {!r}'.format(constraint))
        self._constraints.append(constraint)
        return self

    def add_constraints(self, constraints):
        for c in constraints:
            self.add_constraint(c)
        return self

    def init(self, value):
        """The output's initial value (a Tensor or number, broadcast)."""
        self._init = value
        return self

    def no_defract(self):
        """Accesses at fractions floor instead of being skipped."""
        self._no_defract = True
        return self

    noDefract = no_defract

    def dtype(self, dtype):
        """The result's element type instead of the inferred one."""
        self._dtype = dtype
        return self

    def simplify(self, flag):
        """v1's flag; contractions here are always simplified."""
        return self

    def build(self):
        if self._agg is None:
            raise ValueError('Contraction {!r} has no aggregation (sum, product, max, min or '
                             'assign)'.format(self._name))
        rhs = self._rhs
        if isinstance(rhs, Tensor):
            rhs = IndexedTensor(_COMBO_NONE, ref=rhs, idxs=())
        if not isinstance(rhs, IndexedTensor):
            rhs = IndexedTensor(_COMBO_NONE, ref=_as_tensor(rhs), idxs=())
        dims = self._dims if self._dims is not None else []
        idxs = self._idxs if self._idxs is not None else []
        lens = self._lens
        c = _core.Contraction.create(self._name, lens.source if lens else None,
                                     lens.target if lens else None)
        c.set_shape([_dim(d)._d for d in dims])
        c.set_access([_index(i)._i for i in idxs])
        for tensor, access in rhs._accesses():
            if not isinstance(tensor, Tensor):
                raise TypeError('a contraction reads Tensors, not {!r}'.format(tensor))
            c.add_input(tensor._t, [_index(i)._i for i in access])
        c.set_kind(_AGG[self._agg], rhs._op)
        for con in self._constraints:
            c.add_constraint(_index(con.lhs)._i, _dim(con.rhs)._d)
        if self._init is not None:
            c.set_init(_as_tensor(self._init)._t)
        if self._no_defract:
            c.no_defract()
        if self._dtype is not None:
            c.set_dtype(DType(self._dtype)._c)
        t = Tensor(_handle=c.build())
        t._name = self._name
        return t


# ---------------------------------------------------------------------------
# Intrinsics
# ---------------------------------------------------------------------------


def abs(x):  # noqa: A001
    return _unary('abs', x)


def exp(x):
    return _unary('exp', x)


def log(x):
    return _unary('log', x)


def sqrt(x):
    return _unary('sqrt', x)


def tanh(x):
    return _unary('tanh', x)


def sin(x):
    return _unary('sin', x)


def cos(x):
    return _unary('cos', x)


def tan(x):
    return sin(x) / cos(x)


def sinh(x):
    return (exp(x) - exp(-_as_tensor(x))) * 0.5


def cosh(x):
    return (exp(x) + exp(-_as_tensor(x))) * 0.5


def floor(x):
    return _unary('floor', x)


def ceil(x):
    return _unary('ceil', x)


def round(x):  # noqa: A001
    return _unary('round', x)


def erf(x):
    return _unary('erf', x)


def sigmoid(x):
    return _unary('sigmoid', x)


def relu(x):
    return _unary('relu', x)


def bit_not(x):
    return _unary('bit_not', x)


def logical_not(x):
    return _unary('logical_not', x)


def logical_and(x, y):
    return _binary('logical_and', x, y)


def logical_or(x, y):
    return _binary('logical_or', x, y)


def logical_xor(x, y):
    return _binary('logical_xor', x, y)


def ident(x):
    """`x` itself."""
    return _as_tensor(x)


def max(x, y):  # noqa: A001
    """The elementwise maximum."""
    return _binary('max', x, y)


def min(x, y):  # noqa: A001
    """The elementwise minimum."""
    return _binary('min', x, y)


def pow(x, y):  # noqa: A001
    return _binary('pow', x, y)


def select(cond, true_case, false_case):
    """`cond ? true_case : false_case` elementwise (all three broadcast)."""
    c, t, f = (_as_tensor(v) for v in (cond, true_case, false_case))
    return Tensor(_handle=_core.select(c._t, t._t, f._t))


def cast(x, dtype):
    """`x` converted to element type `dtype`."""
    return Tensor(_handle=_as_tensor(x)._t.cast(DType(dtype)._c))


def _sizes(dims):
    if isinstance(dims, Tensor):
        return dims.shape
    return [int(_dim(d).value) if isinstance(d, TensorDim) else int(d) for d in dims]


def index(dims, axis, dtype=DType.INT32):
    """The coordinates along `axis` of a tensor of shape `dims` (integers or
    bound TensorDims)."""
    return Tensor(_handle=_core.index(_sizes(dims), int(axis), DType(dtype)._c))


def reshape(x, dims):
    """The elements of `x` in shape `dims` (row-major; one entry may be -1)."""
    return Tensor(_handle=_as_tensor(x)._t.reshape(_sizes(dims)))


def gradients(loss, wrt):
    """The gradients of `loss` with respect to each tensor of `wrt`.

    Reverse-mode automatic differentiation of the Tile ops between them
    (docs/Training.md): a list of tensors, the i-th of wrt[i]'s shape and
    type. A loss of several elements counts as the sum of its elements; a
    tensor the loss does not depend on gets zeros. Raises plaidml.BuildError
    naming the op when an op on the path has no gradient.
    """
    return [Tensor(_handle=h) for h in _core.gradients(_as_tensor(loss)._t, [_as_tensor(w)._t for w in wrt])]


def gather(x, y, axis=0):
    """Slices of `x` along `axis` picked by the integer tensor `y` (clamped)."""
    return Tensor(_handle=_as_tensor(x)._t.gather(_as_tensor(y)._t, int(axis)))


def scatter(x, y, z, axis=0):
    """Sums the updates `x` into zeros of shape `z` (a Tensor whose shape is
    taken, or sizes) at the integer indices `y` along `axis`."""
    return Tensor(_handle=_as_tensor(x)._t.scatter(_as_tensor(y)._t, _sizes(z), int(axis)))


def argsort(x, axis=-1, direction=SortDirection.ASC):
    """The positions of each line's elements in stable sorted order (si32)."""
    return Tensor(_handle=_as_tensor(x)._t.argsort(int(axis), direction == SortDirection.DESC))


def prng(state, shape, dtype=DType.FLOAT32):
    """(values, new_state): Philox4x32-10 random values of `shape` from
    `state` (six uint32 words, see prng_seed)."""
    values, new_state = _as_tensor(state)._t.prng(_sizes(shape), DType(dtype)._c)
    return Tensor(_handle=values), Tensor(_handle=new_state)


def prng_seed(seed):
    """The state that starts a prng stream."""
    return Tensor(_handle=_core.prng_seed(int(seed)))


def shape(x):
    """The sizes of `x` as a constant si64 tensor."""
    return Constant(np.array(_as_tensor(x).shape, dtype=np.int64))


def trace(x, msg=''):
    """v1 printed `msg` when a program reached this value; compiled programs
    here have no print hook, so trace returns `x` unchanged (the value, not a
    copy) and records nothing."""
    return _as_tensor(x)
