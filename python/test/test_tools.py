# ===- test_tools.py - plaidml-setup, plaidml-run and plaidbench ----------===#
#
# The package's commands, run as `python -m plaidml.tools.<x>` (what the
# console entry points call): plaidml-setup lists, checks and saves a
# device into a config file of its own (never ~/.config); plaidml-run runs
# a .tile file on random inputs; plaidbench times a tiny MobileNet (and
# MobileNetV2 with --results and --check).
#
# ===----------------------------------------------------------------------===#

import json
import os
import subprocess
import sys

import numpy as np
import pytest


def tool(name, *args, stdin=None, env=None):
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run([sys.executable, '-m', 'plaidml.tools.' + name] + list(args), input=stdin,
                          capture_output=True, text=True, env=full)


def test_setup(tmp_path):
    config = str(tmp_path / 'config')
    out = tool('setup', '--list', '--config', config)
    assert out.returncode == 0, out.stderr
    assert '1  cpu' in out.stdout and 'Saved choice: none yet' in out.stdout
    out = tool('setup', '--device', 'cpu', '--yes', '--config', config)
    assert out.returncode == 0, out.stderr
    assert 'matches the reference interpreter' in out.stdout
    assert open(config).read() == 'device = cpu\n'
    out = tool('setup', '--config', config, stdin='1\nn\n')
    assert out.returncode == 0 and 'Device [default: cpu]: 1' in out.stdout
    out = tool('setup', '--config', config, stdin='gpu\nvulkan:7\nnope\n')
    assert out.returncode == 1
    assert 'three unusable answers' in out.stderr and "'gpu' is not a device" in out.stderr
    out = tool('setup', '--device', 'reference', '--yes', '--config', config)
    assert out.returncode == 1 and 'reference interpreter' in out.stderr
    with open(config, 'w') as f:
        f.write('device = what\n')
    out = tool('setup', '--yes', '--config', config)
    assert out.returncode == 1 and 'config:1: invalid device name' in out.stderr


def test_run(tmp_path):
    program = tmp_path / 'add.tile'
    program.write_text('function (A[N], B[N]) -> (C) {\n  C = A + 2 * B;\n}\n')
    out = tool('run', str(program), '--device', 'cpu', '--bind', 'A=4xf32', '--bind', 'B=4xf32',
               '--random-inputs=3', '--print', '--output-dir', str(tmp_path / 'out'))
    assert out.returncode == 0, out.stderr
    assert 'on cpu: compiled in' in out.stdout and 'C: 4xf32' in out.stdout
    assert np.load(tmp_path / 'out' / 'C.npy').shape == (4,)
    a, b = np.arange(4, dtype=np.float32), np.full(4, 0.5, np.float32)
    np.save(tmp_path / 'a.npy', a)
    np.save(tmp_path / 'b.npy', b)
    out = tool('run', str(program), '--device', 'cpu', '--input', 'A={}'.format(tmp_path / 'a.npy'),
               '--input', 'B={}'.format(tmp_path / 'b.npy'), '--output-dir', str(tmp_path / 'out'))
    assert out.returncode == 0, out.stderr
    np.testing.assert_array_equal(np.load(tmp_path / 'out' / 'C.npy'), a + 2 * b)
    out = tool('run', str(program), '--bind', 'A=4xf32', '--bind', 'B=4xf32')
    assert out.returncode == 1 and "no value for input 'A'" in out.stderr
    program.write_text('function (A[N]) -> (C) {\n  C = A + ;\n}\n')
    out = tool('run', str(program), '--bind', 'A=4xf32', '--random-inputs')
    assert out.returncode == 1 and 'add.tile:2:' in out.stderr
    out = tool('run', '--list-devices')
    assert out.returncode == 0 and out.stdout.startswith('cpu')


def test_bench():
    out = tool('bench', 'keras', 'mobilenet', '--device', 'cpu', '--width', '0.25', '--image-size', '32',
               '--classes', '10', '--examples', '1', '--warmup', '0')
    assert out.returncode == 0, out.stderr
    assert 'plaidbench mobilenet on cpu' in out.stdout and 'per image' in out.stdout
    assert 'probabilities sum to 1.0000' in out.stdout
    out = tool('bench', 'alexnet')
    assert out.returncode == 1 and "no network 'alexnet'" in out.stderr


def test_bench_results_and_check(tmp_path):
    # The C++ plaidbench's flags: --batch-size, --results, --check.
    out = tool('bench', 'mobilenet_v2', '--device', 'cpu', '--width', '0.25', '--image-size', '32',
               '--classes', '10', '--examples', '4', '--batch-size', '2', '--warmup', '0',
               '--results', str(tmp_path), '--check')
    assert out.returncode == 0, out.stderr
    assert 'Running 4 examples with mobilenet_v2, batch size 2, on cpu' in out.stdout
    assert 'check against reference' in out.stdout and ': ok' in out.stdout
    doc = json.loads((tmp_path / 'mobilenet_v2-cpu-b2-t1.json').read_text())
    assert doc['network'] == 'mobilenet_v2' and doc['batch_size'] == 2 and doc['runs'] == 2
    assert doc['check']['device'] == 'reference' and doc['check']['passed']
    assert doc['latency_ms']['min'] <= doc['latency_ms']['median'] <= doc['latency_ms']['max']
    out = tool('bench', str(tmp_path / 'model.onnx'))
    assert out.returncode == 1 and 'C++ plaidbench' in out.stderr
