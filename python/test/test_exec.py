# ===- test_exec.py - Devices, executables, buffers, settings -------------===#
#
# plaidml.exec on every device (cpu, vulkan:0, opencl:0): list_devices,
# run, Executable/Runner reuse without recompiling, inputs by name, v1's
# output Buffers, Tile-language text; plaidml.Buffer; plaidml.settings
# (PLAIDML_DEVICE from set(), the environment and the config file that
# plaidml-setup writes).
#
# ===----------------------------------------------------------------------===#

import os
import subprocess
import sys

import numpy as np
import pytest

import plaidml
import plaidml.exec
import plaidml.settings
from plaidml.edsl import *


def saxpy():
    X = Placeholder(DType.FLOAT32, [4], name='X')
    Y = Placeholder(DType.FLOAT32, [4], name='Y')
    return plaidml.Program('saxpy', [X, Y], [(X * 2 + Y).named('Z'), cast(X, DType.INT32)])


def test_list_devices():
    devices = plaidml.exec.list_devices()
    assert devices[0] == 'cpu' and 'reference' not in devices
    descriptions = plaidml.exec.device_descriptions()
    assert set(descriptions) == set(devices) and all(descriptions.values())


def test_run_on_device(device):
    x = np.array([1, 2, 3, 4], np.float32)
    y = np.array([0.5, 0.5, 0.5, 0.5], np.float32)
    z, xi = plaidml.exec.run(saxpy(), [x, y], device=device)
    np.testing.assert_array_equal(z, 2 * x + y)
    assert xi.dtype == np.int32 and list(xi) == [1, 2, 3, 4]
    exe = plaidml.exec.Executable(saxpy(), device=device)
    assert exe.device == device
    for k in range(3):  # repeated runs of one executable
        out = exe.run({'X': x * k, 'Y': y})
        np.testing.assert_array_equal(out[0], 2 * k * x + y)


def accumulate():
    # S' = S * 0.5 + X: a state that a loop feeds back to itself.
    S = Placeholder(DType.FLOAT32, [3], name='S')
    X = Placeholder(DType.FLOAT32, [3], name='X')
    return plaidml.Program('accumulate', [S, X], [(S * 0.5 + X).named('S2')])


def test_device_tensors(device):
    check_device_tensors(device)


def test_device_tensors_reference():
    check_device_tensors('reference')


def check_device_tensors(device):
    exe = plaidml.exec.Executable(accumulate(), device=device)
    s = exe.upload(np.zeros(3), 'S')
    assert isinstance(s, plaidml.exec.DeviceTensor)
    assert s.shape == TensorShape(DType.FLOAT32, [3]) and device in repr(s)
    x = np.array([1, 2, 4], np.float32)
    expected = np.zeros(3, np.float32)
    for k in range(5):  # the state never leaves the device
        s, = exe.run_on_device([s, x * k])
        expected = expected * 0.5 + x * k
    np.testing.assert_allclose(s.numpy(), expected)
    # By name, with an uploaded DeviceTensor for X too.
    xs = exe.upload(x, 'X')
    s2, = exe.run_on_device({'S': s, 'X': xs})
    np.testing.assert_allclose(s2.numpy(), expected * 0.5 + x)
    # Another executable of the same device takes the tensors.
    saxpy_exe = plaidml.exec.Executable(saxpy(), device=device)
    with pytest.raises(ValueError, match='must have shape'):
        saxpy_exe.upload(np.zeros(3), 'X')
    with pytest.raises(ValueError, match='no input named'):
        exe.upload(x, 'Q')
    with pytest.raises(ValueError, match='takes 2 inputs'):
        exe.run_on_device([s])


def test_device_tensor_errors():
    exe = plaidml.exec.Executable(accumulate(), device='cpu')
    other = plaidml.exec.Executable(accumulate(), device='reference')
    x = np.ones(3, np.float32)
    s = other.upload(x, 'S')
    with pytest.raises(Exception, match="input 'S' is a buffer on reference, but the program runs on cpu"):
        exe.run_on_device([s, x])
    saxpy_exe = plaidml.exec.Executable(saxpy(), device='cpu')
    z, _ = saxpy_exe.run_on_device([np.ones(4), np.ones(4)])
    with pytest.raises(Exception, match="input 'S' must be 3xf32, not 4xf32"):
        exe.run_on_device([z, x])


def test_reference_device():
    out = plaidml.exec.run(saxpy(), [[1, 2, 3, 4], [0, 0, 0, 1]], device='reference')
    np.testing.assert_array_equal(out[0], [2, 4, 6, 9])


def test_compiled_once():
    program = saxpy()
    first = plaidml.exec.Executable(program, device='cpu')
    again = plaidml.exec.Executable(saxpy(), device='cpu')  # the same program text
    assert first._exe is again._exe
    runner = plaidml.exec.Runner(program, device='cpu')
    assert runner._exe is first._exe
    assert plaidml.exec.Executable(program, device='cpu', threads=2)._exe is not first._exe


def test_executable_interface():
    exe = plaidml.exec.Executable(saxpy(), device='cpu')
    assert [n for n, _ in exe.inputs] == ['X', 'Y']
    assert exe.outputs[0] == ('Z', TensorShape(DType.FLOAT32, [4]))
    z_buf = plaidml.Buffer(TensorShape(DType.FLOAT32, [4]))
    xi_arr = np.zeros(4, np.int32)
    exe.run([np.ones(4), np.zeros(4)], outputs=[z_buf, xi_arr])
    np.testing.assert_array_equal(z_buf.as_ndarray(), [2, 2, 2, 2])
    np.testing.assert_array_equal(xi_arr, [1, 1, 1, 1])
    with pytest.raises(ValueError, match='takes 2 inputs'):
        exe.run([np.ones(4)])
    with pytest.raises(ValueError, match='missing'):
        exe.run({'X': np.ones(4)})


def test_tile_text(device):
    source = 'function (A[M, K], B[K, N]) -> (C) {\n  C[m, n : M, N] = +(A[m, k] * B[k, n]);\n}\n'
    exe = plaidml.exec.compile_text(source, 'matmul.tile', device=device,
                                    bindings={'A': '2x3xf32', 'B': '3x2xf32'})
    a, b = np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)
    np.testing.assert_allclose(exe.run([a, b])[0], a @ b)


def test_buffer():
    shape = TensorShape(DType.INT16, [2, 3])
    buf = plaidml.Buffer(shape)
    assert buf.shape == shape and (buf.as_ndarray() == 0).all()
    buf.copy_from_ndarray(np.arange(6).reshape(2, 3))
    assert buf.as_ndarray().dtype == np.int16 and buf.as_ndarray()[1, 2] == 5
    out = np.empty((2, 3), np.int16)
    buf.copy_to_ndarray(out)
    assert out[1, 0] == 3
    assert 'x' in repr(buf)
    b2 = plaidml.Buffer.from_ndarray(np.ones((2, 2), np.float64))
    assert b2.shape == TensorShape(DType.FLOAT64, [2, 2])
    X = Placeholder(DType.INT16, [2, 3])
    assert (plaidml.exec.run(plaidml.Program('b', [X], [X + 1]), [buf], 'cpu')[0][1] == [4, 5, 6]).all()
    with pytest.raises(ValueError):
        plaidml.exec.run(plaidml.Program('b', [X], [X + 1]), [b2], 'cpu')
    with pytest.raises(TypeError):
        plaidml.Buffer([2, 3])


def test_settings(tmp_path, monkeypatch):
    monkeypatch.setenv('XDG_CONFIG_HOME', str(tmp_path))
    monkeypatch.delenv('PLAIDML_DEVICE', raising=False)
    assert plaidml.settings.config_path() == str(tmp_path / 'plaidml' / 'config')
    assert plaidml.settings.get('PLAIDML_DEVICE') == 'cpu'
    (tmp_path / 'plaidml').mkdir()
    (tmp_path / 'plaidml' / 'config').write_text('# mine\nother = 1\ndevice = vulkan:0\n')
    assert plaidml.settings.get('PLAIDML_DEVICE') == 'vulkan:0'
    monkeypatch.setenv('PLAIDML_DEVICE', 'opencl:0')
    assert plaidml.settings.default_device() == 'opencl:0'
    plaidml.settings.set('PLAIDML_DEVICE', 'cpu')
    try:
        assert plaidml.settings.get('PLAIDML_DEVICE') == 'cpu'
        assert plaidml.settings.all()['PLAIDML_DEVICE'] == 'cpu'
        path = plaidml.settings.save()
        assert open(path).read() == '# mine\nother = 1\ndevice = cpu\n'
    finally:
        plaidml.settings.set('PLAIDML_DEVICE', None)
    (tmp_path / 'plaidml' / 'config').write_text('device = gpu\n')
    monkeypatch.delenv('PLAIDML_DEVICE')
    with pytest.raises(plaidml.settings.ConfigError, match='config:1: invalid device'):
        plaidml.settings.get('PLAIDML_DEVICE')
    monkeypatch.setenv('PLAIDML_THREADS', 'x')
    with pytest.raises(ValueError, match='PLAIDML_THREADS'):
        plaidml.settings.threads()


def test_default_device_from_environment(tmp_path):
    # A fresh process: PLAIDML_DEVICE picks the device runs use.
    code = ('import plaidml, plaidml.exec\nfrom plaidml.edsl import *\n'
            'X = Placeholder(DType.FLOAT32, [2])\n'
            'e = plaidml.exec.Executable(plaidml.Program("p", [X], [X * 3]))\n'
            'print(e.device, e.run([[1, 2]])[0].tolist())\n')
    env = dict(os.environ, PLAIDML_DEVICE='reference', XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'reference [3.0, 6.0]'
