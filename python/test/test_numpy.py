# ===- test_numpy.py - NumPy in and out -----------------------------------===#
#
# Inputs are converted to each placeholder's element type as v1 did (NumPy
# same_kind casting: an int64 array feeds a float32 placeholder, a float
# array never feeds an integer one: TypeError), a Python scalar feeds a
# rank-0 placeholder, a wrong shape is a ValueError naming the input;
# C-contiguous arrays of the right type are used without conversion copies;
# results are ndarrays of the outputs' types that own their memory.
#
# ===----------------------------------------------------------------------===#

import numpy as np
import pytest

import plaidml
import plaidml.exec
from plaidml.edsl import *


def identity_program(dtype, shape):
    X = Placeholder(dtype, shape, name='X')
    return plaidml.Program('id', [X], [X + 0 if dtype != DType.BOOLEAN else logical_not(logical_not(X))])


def run(program, values):
    return plaidml.exec.run(program, values, device='cpu')


def test_conversions():
    f32 = identity_program(DType.FLOAT32, [2, 2])
    out = run(f32, [np.arange(4, dtype=np.int64).reshape(2, 2)])[0]
    assert out.dtype == np.float32 and out.tolist() == [[0, 1], [2, 3]]
    assert run(f32, [[[1, 2], [3, 4]]])[0].tolist() == [[1, 2], [3, 4]]  # nested lists
    assert run(f32, [np.full((2, 2), 0.5, np.float64)])[0][0, 0] == 0.5  # f64 -> f32: same kind
    with pytest.raises(TypeError, match="input 'X'.*float64"):
        run(identity_program(DType.INT32, [2]), [np.array([1.5, 2.0])])
    with pytest.raises(TypeError):
        run(f32, [np.array([['a', 'b'], ['c', 'd']])])
    with pytest.raises(ValueError, match=r"input 'X' must have shape \(2, 2\), not \(4,\)"):
        run(f32, [np.arange(4)])
    scalar = identity_program(DType.FLOAT32, [])
    out = run(scalar, [3])[0]
    assert out.shape == () and out == 3.0
    out = run(identity_program(DType.INT8, [3]), [np.array([1, -2, 3], np.int8)])[0]
    assert out.dtype == np.int8
    out = run(identity_program(DType.BOOLEAN, [3]), [[True, False, True]])[0]
    assert out.dtype == np.bool_ and out.tolist() == [True, False, True]
    out = run(identity_program(DType.FLOAT16, [2]), [np.array([1.5, 2.25])])[0]
    assert out.dtype == np.float16 and out.tolist() == [1.5, 2.25]
    out = run(identity_program(DType.UINT64, [1]), [np.array([2**63 + 5], np.uint64)])[0]
    assert out.dtype == np.uint64 and int(out[0]) == 2**63 + 5


def test_bfloat16():
    X = Placeholder(DType.BFLOAT16, [4], name='X')
    out = run(plaidml.Program('bf', [X], [X * 2]), [np.array([1.0, 0.5, 3.015625, 3.0078125])])[0]
    assert out.dtype == np.float32
    assert out.tolist() == [2.0, 1.0, 6.03125, 6.0]  # 3.0078125 rounds to 3 in bfloat16


def test_non_contiguous_and_views():
    f32 = identity_program(DType.FLOAT32, [2, 2])
    base = np.arange(16, dtype=np.float32).reshape(4, 4)
    view = base[::2, 1::2]  # not C-contiguous
    assert run(f32, [view])[0].tolist() == view.tolist()
    assert run(f32, [base.T[:2, :2]])[0].tolist() == base.T[:2, :2].tolist()


def test_no_needless_copies(monkeypatch):
    # A C-contiguous array of the right type goes to the native module as
    # it is (no astype/ascontiguousarray copy on the Python side).
    seen = []
    original = plaidml._core.Buffer.from_array

    def spy(dtype, shape, array):
        seen.append(array)
        return original(dtype, shape, array)

    monkeypatch.setattr(plaidml._core.Buffer, 'from_array', spy)
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    out = run(identity_program(DType.FLOAT32, [2, 2]), [x])[0]
    assert seen[0] is x
    # The output views the memory the program wrote, owned by the array.
    assert out.flags['C_CONTIGUOUS'] and out.flags['WRITEABLE'] and not out.flags['OWNDATA']
    out[0, 0] = 42  # writable, independent of the input
    assert x[0, 0] == 0
