# ===- test_errors.py - Errors are Python exceptions with located messages ===#
#
# Building an ill-formed program raises plaidml.BuildError (a ValueError)
# whose message starts with this file and the line that built it and names
# the tensor and dimension; Tile text that does not parse raises
# CompileError with the compiler's located diagnostic; bad device names,
# devices this machine lacks and misuse of the API raise the matching
# classes, all PlaidMLError.
#
# ===----------------------------------------------------------------------===#

import inspect
import os

import numpy as np
import pytest

import plaidml
import plaidml.exec
from plaidml.edsl import *

HERE = os.path.basename(__file__)


def line_of(marker):
    for n, text in enumerate(inspect.getsource(inspect.getmodule(line_of)).splitlines(), 1):
        if marker in text and 'line_of' not in text:
            return n
    raise AssertionError(marker)


def test_build_error_points_at_user_line():
    A = Placeholder(DType.FLOAT32, [2, 3], name='A')
    M, N, K = TensorDims(3)
    with pytest.raises(plaidml.BuildError) as info:
        A.bind_dims(M, N, K)  # MARK-RANK
    message = str(info.value)
    assert '{}:{}:'.format(HERE, line_of('MARK-RANK')) in message
    assert "'A'" in message and 'plaidml_tensor_bind_dims' in message
    assert isinstance(info.value, ValueError) and info.value.location.endswith(
        ':{}'.format(line_of('MARK-RANK')))


def test_build_errors():
    A = Placeholder(DType.FLOAT32, [2, 3], name='A')
    B = Placeholder(DType.FLOAT32, [4, 5], name='B')
    I, J, K = TensorDims(3)
    i, j, k = TensorIndexes(3)
    A.bind_dims(I, K)
    with pytest.raises(plaidml.BuildError, match="'B'"):
        B.bind_dims(K, J)  # K is 3, B's dimension 0 is 4
    with pytest.raises(plaidml.BuildError, match='rank|indices|2'):
        Contraction('bad').outShape(I).outAccess(i).sum(A[i]).build()
    with pytest.raises(plaidml.BuildError):
        A + B  # shapes that do not broadcast
    with pytest.raises(plaidml.BuildError):
        log(Placeholder(DType.INT32, [2]))  # a float op on integers
    with pytest.raises(ValueError, match='no aggregation'):
        Contraction().outShape(I).outAccess(i).build()
    with pytest.raises(ValueError, match='already has an aggregation'):
        Contraction().sum(A[i, k]).max(A[i, k])
    with pytest.raises(TypeError):
        Contraction().outShape(I).outAccess(i).sum(A[i, k] * B[k, j] * A[i, k]).build()
    with pytest.raises(TypeError, match='add_constraint'):
        Contraction().add_constraint(3)
    with pytest.raises(TypeError):
        Placeholder('float32', [2])


def test_compile_error_is_located():
    with pytest.raises(plaidml.CompileError) as info:
        plaidml.exec.compile_text('function (A[N]) -> (B) {\n  B = A + ;\n}\n', 'bad.tile',
                                  device='cpu', bindings={'A': '3xf32'})
    assert 'bad.tile:2:11: error: expected an expression' in str(info.value)


def test_device_errors():
    X = Placeholder(DType.FLOAT32, [2])
    program = plaidml.Program('p', [X], [X + 1])
    with pytest.raises(plaidml.InvalidArgumentError, match="invalid device name 'gpu'"):
        plaidml.exec.run(program, [np.zeros(2)], device='gpu')
    with pytest.raises(plaidml.PlaidMLRuntimeError, match='vulkan:9'):
        plaidml.exec.run(program, [np.zeros(2)], device='vulkan:9')
    with pytest.raises(TypeError):
        plaidml.exec.Executable('not a program')


def test_error_classes():
    assert issubclass(plaidml.BuildError, plaidml.PlaidMLError)
    assert issubclass(plaidml.InvalidArgumentError, ValueError)
    assert issubclass(plaidml.NotFoundError, LookupError)
    assert issubclass(plaidml.PlaidMLRuntimeError, RuntimeError)
    assert plaidml.BuildError.__module__ == 'plaidml'
