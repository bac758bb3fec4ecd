# ===- exec.py - Running programs on a device (v1's plaidml.exec) ---------===#
#
# list_devices(), Executable (a program compiled for one device, run any
# number of times), Runner (v1's name for the same), run(program, inputs)
# and compile_text (Tile-language or Tile-IR text). A device is 'cpu',
# 'vulkan:N', 'opencl:N' or 'reference' (the reference interpreter); the
# default is plaidml.settings' PLAIDML_DEVICE (the environment, then the
# config file plaidml-setup saves, then 'cpu'). Programs compile through
# the C API's on-disk compile cache, and compiled executables are kept per
# (program text, device, threads) for the life of the process, so calling
# run() again does not recompile.
#
# Inputs are NumPy arrays (or anything np.asarray takes, or Buffers),
# converted to each input's element type as v1 did; results are NumPy
# arrays of the outputs' types that own the memory the program wrote.
# run_on_device() keeps tensors on the device instead: its inputs and
# outputs are DeviceTensors, so a loop of runs (training steps) copies only
# what it chooses to the host.
#
# ===----------------------------------------------------------------------===#

import collections

import numpy as np

import plaidml
import plaidml.settings
from plaidml import DType, TensorShape, _core

__all__ = [
    'list_devices', 'device_descriptions', 'Executable', 'DeviceTensor', 'Runner', 'run', 'compile_text'
]

_CACHE_SIZE = 64
_compiled = collections.OrderedDict()


def list_devices():
    """The devices of this machine: 'cpu', then 'vulkan:N', 'opencl:N' (the
    reference interpreter, 'reference', is not listed but may be named)."""
    return [name for name, _ in _core.devices() if name != 'reference']


def device_descriptions():
    """{device: description} for the devices of list_devices()."""
    return {name: text for name, text in _core.devices() if name != 'reference'}


def _device(device):
    return device or plaidml.settings.default_device()


def _threads(threads):
    return int(threads) if threads else plaidml.settings.threads()


def _cached(key, make):
    if key in _compiled:
        _compiled.move_to_end(key)
        return _compiled[key]
    value = make()
    _compiled[key] = value
    while len(_compiled) > _CACHE_SIZE:
        _compiled.popitem(last=False)
    return value


def _spec(spec):
    name, dtype, sizes = spec
    return name, TensorShape(DType._from_c(dtype), sizes)


class Executable(object):
    """`program` (a plaidml.Program) compiled for `device`, ready to run."""

    def __init__(self, program, device='', threads=None, _native=None):
        if _native is None:
            if not isinstance(program, plaidml.Program):
                raise TypeError('Executable takes a plaidml.Program, not {!r}'.format(program))
            device, threads = _device(device), _threads(threads)
            key = (str(program), device, threads)
            _native = _cached(key, lambda: program._program.compile(device, threads))
        self._exe = _native
        self.program = program
        self._inputs = [_spec(s) for s in _native.inputs]
        self._outputs = [_spec(s) for s in _native.outputs]

    @property
    def device(self):
        return self._exe.device

    @property
    def inputs(self):
        """[(name, TensorShape)] of the inputs."""
        return list(self._inputs)

    @property
    def outputs(self):
        """[(name, TensorShape)] of the outputs."""
        return list(self._outputs)

    def _ordered(self, inputs):
        """`inputs` (a list in the program's order, or a dict by name) as a
        list in the program's order, checked against the inputs' names and
        count."""
        if isinstance(inputs, dict):
            missing = [n for n, _ in self._inputs if n not in inputs]
            extra = [n for n in inputs if n not in dict(self._inputs)]
            if missing or extra:
                raise ValueError('inputs by name: missing {}, unknown {} (inputs: {})'.format(
                    missing, extra, [n for n, _ in self._inputs]))
            inputs = [inputs[n] for n, _ in self._inputs]
        inputs = list(inputs)
        if len(inputs) != len(self._inputs):
            raise ValueError('the program takes {} inputs ({}), but {} were given'.format(
                len(self._inputs), ', '.join(n for n, _ in self._inputs), len(inputs)))
        return inputs

    def _buffers(self, inputs):
        inputs = self._ordered(inputs)
        return [
            plaidml._convert(value, shape, "input '{}'".format(name))
            for value, (name, shape) in zip(inputs, self._inputs)
        ]

    def run(self, inputs, outputs=None):
        """Runs on `inputs` (a list in the program's order, or a dict by
        name) and returns the outputs as a list of ndarrays. v1 passed
        output Buffers: when `outputs` is given, the results are copied into
        them too."""
        buffers = self._buffers(inputs)
        results = [
            plaidml._from_c_array(array, shape.dtype)
            for array, (_, shape) in zip(self._exe.run(buffers), self._outputs)
        ]
        if outputs is not None:
            if len(outputs) != len(results):
                raise ValueError('{} output buffers for {} outputs'.format(
                    len(outputs), len(results)))
            for target, result in zip(outputs, results):
                if isinstance(target, plaidml.Buffer):
                    target.copy_from_ndarray(result)
                else:
                    np.copyto(target, result)
        return results

    __call__ = run

    def upload(self, value, name):
        """`value` (what run() takes for input `name`) converted to that
        input's type and copied to this executable's device: a DeviceTensor
        that any executable of the same device takes for an input of that
        type and shape. A DeviceTensor is returned as it is."""
        if isinstance(value, DeviceTensor):
            return value
        shape = dict(self._inputs).get(name)
        if shape is None:
            raise ValueError('no input named {!r} (inputs: {})'.format(
                name, [n for n, _ in self._inputs]))
        buffer = plaidml._convert(value, shape, "input '{}'".format(name))
        return DeviceTensor(self._exe.upload(buffer), shape)

    def run_on_device(self, inputs):
        """Runs on `inputs` (a list in the program's order, or a dict by
        name) kept on the device: DeviceTensors pass without a copy, other
        values are uploaded first. Returns the outputs as DeviceTensors,
        which stay on the device (a training step's updated weights feed
        the next step directly); DeviceTensor.numpy() copies one back."""
        inputs = self._ordered(inputs)
        tensors = [self.upload(v, name) for v, (name, _) in zip(inputs, self._inputs)]
        outs = self._exe.run_on_device([t._buffer for t in tensors])
        return [DeviceTensor(b, shape) for b, (_, shape) in zip(outs, self._outputs)]


class DeviceTensor(object):
    """A tensor in the memory of an executable's device (host memory for
    the reference interpreter): what Executable.run_on_device takes and
    returns."""

    def __init__(self, native, shape):
        self._buffer = native
        self._shape = shape

    @property
    def shape(self):
        """The TensorShape."""
        return self._shape

    def numpy(self):
        """The data, copied to the host as an ndarray."""
        return plaidml._from_c_array(self._buffer.read(), self._shape.dtype)

    def __repr__(self):
        return repr(self._buffer)


class Runner(Executable):
    """v1's Runner(program, device).run(inputs)."""


def run(program, inputs, device='', threads=None):
    """Compiles `program` for `device` (once per process) and runs it on
    `inputs`; returns the outputs as a list of ndarrays."""
    return Executable(program, device=device, threads=threads).run(inputs)


def compile_text(source, name='program.tile', device='', threads=None, bindings=None,
                 entry=''):
    """An Executable from Tile-language text (`name` ending in .tile, input
    types in `bindings`: {'A': '2x3xf32'}) or Tile IR (MLIR text)."""
    device, threads = _device(device), _threads(threads)
    binds = sorted((bindings or {}).items())
    key = (source, name, device, threads, tuple(binds), entry)
    native = _cached(key, lambda: _core.Executable.compile(source, name, device, threads, entry,
                                                           binds))
    return Executable(None, _native=native)
