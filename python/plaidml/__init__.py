# ===- plaidml/__init__.py - The PlaidML Python package -------------------===#
#
# PlaidML from Python, compatible with PlaidML v1's Python API: element
# types (DType), shapes (TensorShape), host buffers (Buffer), programs
# (Program: a function from placeholders to outputs whose str() is the Tile
# IR), the exception classes, and the submodules plaidml.edsl (building
# programs), plaidml.exec (running them on a device), plaidml.op (the op
# library) and plaidml.settings (the default device and other settings).
# Everything goes through the C API (include/plaidml-c) in the native module
# plaidml._plaidml; docs/Python.md is the guide.
#
# ===----------------------------------------------------------------------===#

import enum

import numpy as np

from plaidml import _plaidml as _core
from plaidml._errors import (BuildError, CompileError, InternalError, InvalidArgumentError,
                             NotFoundError, PlaidMLError, PlaidMLRuntimeError, UnsupportedError,
                             make_error)

_core._set_error_factory(make_error)

__version__ = _core.version()

__all__ = [
    'DType', 'TensorShape', 'Buffer', 'Program', 'PlaidMLError', 'InvalidArgumentError',
    'NotFoundError', 'BuildError', 'CompileError', 'PlaidMLRuntimeError', 'UnsupportedError',
    'InternalError', '__version__'
]


class DType(enum.IntEnum):
    """The element type of a tensor (v1's names and values)."""
    INVALID = 0
    BOOLEAN = 1
    INT8 = 2
    UINT8 = 3
    INT16 = 4
    UINT16 = 5
    INT32 = 6
    UINT32 = 7
    INT64 = 8
    UINT64 = 9
    BFLOAT16 = 10
    FLOAT16 = 11
    FLOAT32 = 12
    FLOAT64 = 13

    def into_numpy(self):
        """The NumPy dtype holding this type (bfloat16: float32, the type its
        values are converted to and from)."""
        try:
            return np.dtype(_TO_NUMPY[self])
        except KeyError:
            raise ValueError('{} has no NumPy type'.format(self)) from None

    @staticmethod
    def from_numpy(dtype):
        """The DType of a NumPy dtype (or its name, or a DType)."""
        if isinstance(dtype, DType):
            return dtype
        try:
            name = np.dtype(dtype).name
        except TypeError:
            raise ValueError('unrecognized NumPy dtype {!r}'.format(dtype)) from None
        try:
            return _FROM_NUMPY[name]
        except KeyError:
            raise ValueError('NumPy dtype {} has no PlaidML element type'.format(name)) from None

    @property
    def info(self):
        """(base, width in bytes), like v1's DTypeInfo."""
        base = {
            DType.BOOLEAN: 'bool',
            DType.FLOAT16: 'float',
            DType.BFLOAT16: 'float',
            DType.FLOAT32: 'float',
            DType.FLOAT64: 'float'
        }.get(self)
        if base is None:
            base = 'uint' if self.name.startswith('UINT') else 'int'
        return (base, _core.dtype_size(self._c))

    @property
    def is_float(self):
        return self in (DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64)

    @property
    def _c(self):
        """The C API's plaidml_dtype."""
        try:
            return _TO_C[self]
        except KeyError:
            raise ValueError('{} is not an element type'.format(self)) from None

    @staticmethod
    def _from_c(code):
        return _FROM_C[code]

    @staticmethod
    def parse(name):
        """'f32', 'float32', 'si8', 'int8', 'bool', ... -> DType."""
        return _FROM_C[_core.dtype_parse(name)]

    def __str__(self):
        return self.name.lower()


# plaidml_dtype codes of include/plaidml-c/plaidml.h.
_TO_C = {
    DType.BOOLEAN: 0,
    DType.INT8: 1,
    DType.INT16: 2,
    DType.INT32: 3,
    DType.INT64: 4,
    DType.UINT8: 5,
    DType.UINT16: 6,
    DType.UINT32: 7,
    DType.UINT64: 8,
    DType.FLOAT16: 9,
    DType.BFLOAT16: 10,
    DType.FLOAT32: 11,
    DType.FLOAT64: 12,
}
_FROM_C = {v: k for k, v in _TO_C.items()}
_TO_NUMPY = {
    DType.BOOLEAN: 'bool',
    DType.INT8: 'int8',
    DType.INT16: 'int16',
    DType.INT32: 'int32',
    DType.INT64: 'int64',
    DType.UINT8: 'uint8',
    DType.UINT16: 'uint16',
    DType.UINT32: 'uint32',
    DType.UINT64: 'uint64',
    DType.FLOAT16: 'float16',
    DType.BFLOAT16: 'float32',
    DType.FLOAT32: 'float32',
    DType.FLOAT64: 'float64',
}
_FROM_NUMPY = {v: k for k, v in _TO_NUMPY.items() if k != DType.BFLOAT16}


class TensorShape(object):
    """An element type and sizes (row-major)."""

    def __init__(self, dtype=None, sizes=(), strides=None):
        if dtype is None:
            raise ValueError('TensorShape needs a dtype')
        self.dtype = DType(dtype) if not isinstance(dtype, DType) else dtype
        self.sizes = [int(s) for s in sizes]
        expected = _row_major_strides(self.sizes)
        if strides is not None and list(strides) != expected:
            raise ValueError('TensorShape: only row-major strides {} are supported, not {}'.format(
                expected, list(strides)))

    @property
    def rank(self):
        return len(self.sizes)

    ndims = rank

    @property
    def strides(self):
        return _row_major_strides(self.sizes)

    @property
    def nbytes(self):
        return int(np.prod(self.sizes, dtype=np.int64)) * _core.dtype_size(self.dtype._c)

    def __eq__(self, other):
        return (isinstance(other, TensorShape) and self.dtype == other.dtype and
                self.sizes == other.sizes)

    def __hash__(self):
        return hash((self.dtype, tuple(self.sizes)))

    def __repr__(self):
        return 'TensorShape({}, {})'.format(self.dtype.name, self.sizes)

    def __str__(self):
        return 'x'.join([str(s) for s in self.sizes] + [_core.dtype_name(self.dtype._c)])


def _row_major_strides(sizes):
    strides, stride = [], 1
    for size in reversed(sizes):
        strides.insert(0, stride)
        stride *= size
    return strides


def _bf16_bits(values):
    """float values -> their bfloat16 bits (round to nearest even)."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    out = rounded.astype(np.uint16)
    out[nan] = 0x7FC0
    return out


def _bf16_values(bits):
    """bfloat16 bits -> float32 values."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def _convert(value, shape, what='input'):
    """`value` (an ndarray, anything np.asarray takes, or a Buffer) as a C
    buffer of TensorShape `shape`, converted like v1 (NumPy's same_kind
    casting: an int64 array feeds a float32 placeholder, a float array does
    not feed an int32 one). Wrong shape: ValueError; impossible conversion:
    TypeError. A C-contiguous array of the right type is read in place."""
    if isinstance(value, Buffer):
        if value.shape != shape:
            raise ValueError('{} must be {}, but the Buffer is {}'.format(what, shape, value.shape))
        return value._buffer
    array = np.asarray(value)
    if array.dtype.kind not in 'biuf':
        raise TypeError('{} must be numbers, not an array of {}'.format(what, array.dtype))
    if list(array.shape) != shape.sizes:
        raise ValueError('{} must have shape {}, not {}'.format(what, tuple(shape.sizes),
                                                                tuple(array.shape)))
    if shape.dtype == DType.BFLOAT16:
        if not np.can_cast(array.dtype, np.float32, 'same_kind'):
            raise TypeError('cannot convert {} of {} to {}'.format(what, array.dtype, shape.dtype))
        return _core.Buffer.from_array(shape.dtype._c, shape.sizes, _bf16_bits(array))
    target = shape.dtype.into_numpy()
    if array.dtype != target:
        if not np.can_cast(array.dtype, target, 'same_kind'):
            raise TypeError('cannot convert {} of {} to {} (the {} element type)'.format(
                what, array.dtype, target, shape.dtype))
    array = np.ascontiguousarray(array, dtype=target)
    return _core.Buffer.from_array(shape.dtype._c, shape.sizes, array)


def _from_c_array(array, dtype):
    """An output array of the native module in the user's type."""
    if dtype == DType.BFLOAT16:
        return _bf16_values(array)
    return array


class Buffer(object):
    """A dense tensor in host memory (v1's Buffer). Programs read inputs from
    and write results to host memory, so a Buffer needs no device."""

    def __init__(self, shape, device=None, data=None):
        if not isinstance(shape, TensorShape):
            raise TypeError('Buffer needs a TensorShape, not {!r}'.format(shape))
        self._shape = shape
        self.device = device
        if data is not None:
            self._buffer = _convert(data, shape, 'Buffer data')
        else:
            self._buffer = _core.Buffer.zeros(shape.dtype._c, shape.sizes)

    @classmethod
    def _from_native(cls, native):
        """A Buffer around a buffer of the native module."""
        buf = cls.__new__(cls)
        buf._shape = TensorShape(DType._from_c(native.dtype), native.shape)
        buf._buffer = native
        buf.device = None
        return buf

    @classmethod
    def from_ndarray(cls, array, dtype=None):
        array = np.asarray(array)
        dtype = DType.from_numpy(array.dtype) if dtype is None else dtype
        return cls(TensorShape(dtype, array.shape), data=array)

    @property
    def shape(self):
        return self._shape

    def _view(self):
        return self._buffer.view()

    def as_ndarray(self):
        """The elements as an ndarray (a copy)."""
        return np.array(_from_c_array(self._view(), self._shape.dtype))

    def copy_from_ndarray(self, array):
        """Overwrites the elements (converted as for program inputs)."""
        self._buffer = _convert(array, self._shape, 'Buffer data')

    def copy_to_ndarray(self, array):
        np.copyto(array, _from_c_array(self._view(), self._shape.dtype))

    def __repr__(self):
        return 'Buffer({})'.format(self._buffer.describe())


def _spec_shape(spec):
    _, dtype, sizes = spec
    return TensorShape(DType._from_c(dtype), sizes)


class Program(object):
    """A function of Tile ops from `inputs` (placeholders) to `outputs`.
    str(program) is its Tile IR."""

    def __init__(self, name, inputs, outputs):
        from plaidml.edsl import Tensor, _as_tensor
        inputs = list(inputs)
        outputs = [_as_tensor(t) for t in outputs]
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError('Program inputs must be Placeholders, not {!r}'.format(t))
        self.name = name
        self._program = _core.Program.create(name, [t._t for t in inputs], [t._t for t in outputs])
        self._ir = None

    @classmethod
    def _from_native(cls, name, native):
        """A Program around a program of the native module."""
        program = cls.__new__(cls)
        program.name, program._program, program._ir = name, native, None
        return program

    @property
    def inputs(self):
        """The inputs' TensorShapes."""
        return [_spec_shape(s) for s in self._program.inputs]

    @property
    def outputs(self):
        """The outputs' TensorShapes."""
        return [_spec_shape(s) for s in self._program.outputs]

    @property
    def input_names(self):
        return [s[0] for s in self._program.inputs]

    @property
    def output_names(self):
        return [s[0] for s in self._program.outputs]

    def compile(self, device=None):
        """v1 compiled programs in place before running; here compiling
        happens per device in plaidml.exec, so this only returns the
        program."""
        return self

    def __str__(self):
        if self._ir is None:
            self._ir = self._program.ir()
        return self._ir

    def __repr__(self):
        return '<Program {}: {} -> {}>'.format(self.name, self.inputs, self.outputs)


import plaidml.settings  # noqa: E402,F401  (v1: plaidml.settings is always there)
