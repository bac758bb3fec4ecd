# ===- check_wheel.py - Build, install and use the plaidml wheel ----------===#
#
# The ctest `python-wheel`: what `pip install ./python` does, offline. Builds
# the wheel with pip and scikit-build-core against a PlaidML build tree
# (--no-build-isolation: the running Python's scikit-build-core and
# nanobind, no download), checks its contents (the package, the native
# module with run path $ORIGIN, libPlaidMLCAPI.so under its soname),
# installs it into a directory of its own and, from outside the source and
# build trees, lists the devices, runs a program against NumPy and runs the
# console scripts. Exit status 0 when all of it works.
#
# ===----------------------------------------------------------------------===#

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time
import zipfile


def step(what, cmd, **kwargs):
    start = time.perf_counter()
    print('check_wheel: {} ...'.format(what), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if out.returncode != 0:
        print(out.stdout[-6000:])
        print(out.stderr[-6000:])
        sys.exit('check_wheel: {} failed (exit {})'.format(what, out.returncode))
    print('check_wheel: {} took {:.1f} s'.format(what, time.perf_counter() - start), flush=True)
    return out.stdout


PROGRAM = r'''
import os, sys
import numpy as np
import plaidml, plaidml.exec
from plaidml.edsl import *
assert plaidml.__file__.startswith(sys.argv[1]), plaidml.__file__
print('devices', plaidml.exec.list_devices())
A = Placeholder(DType.FLOAT32, [2, 3], name='A')
B = Placeholder(DType.FLOAT32, [3, 2], name='B')
M, K, N = TensorDims(3)
i, j, k = TensorIndexes(3)
A.bind_dims(M, K)
B.bind_dims(K, N)
C = Contraction().outShape(M, N).outAccess(i, j).sum(A[i, k] * B[k, j]).build()
a, b = np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)
out = plaidml.exec.run(plaidml.Program('mm', [A, B], [C]), [a, b], device='cpu')[0]
assert (out == a @ b).all(), out
print('matmul ok')
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--source', required=True, help='python/')
    parser.add_argument('--plaidml-build', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('--cxx')
    parser.add_argument('--c')
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    dist, site = os.path.join(work, 'dist'), os.path.join(work, 'site')
    for d in (dist, site):
        shutil.rmtree(d, ignore_errors=True)
    settings = [
        'build-dir=' + os.path.join(work, 'build'),
        'cmake.define.PLAIDML_BUILD_DIR=' + os.path.abspath(args.plaidml_build),
    ]
    if args.cxx:
        settings.append('cmake.define.CMAKE_CXX_COMPILER=' + args.cxx)
    if args.c:
        settings.append('cmake.define.CMAKE_C_COMPILER=' + args.c)
    if shutil.which('ccache'):
        settings += ['cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache',
                     'cmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache']
    cmd = [sys.executable, '-m', 'pip', 'wheel', '--no-build-isolation', '--no-deps', '-w', dist]
    cmd += ['--config-settings=' + s for s in settings] + [os.path.abspath(args.source)]
    step('pip wheel', cmd)
    wheels = glob.glob(os.path.join(dist, 'plaidml-*.whl'))
    if len(wheels) != 1:
        sys.exit('check_wheel: expected one wheel in {}, found {}'.format(dist, wheels))
    names = zipfile.ZipFile(wheels[0]).namelist()
    for needed in ('plaidml/__init__.py', 'plaidml/edsl.py', 'plaidml/exec.py', 'plaidml/op.py',
                   'plaidml/tools/setup.py'):
        if needed not in names:
            sys.exit('check_wheel: the wheel lacks ' + needed)
    if not any(n.startswith('plaidml/_plaidml.') and n.endswith('.so') for n in names):
        sys.exit('check_wheel: the wheel lacks the native module')
    if not any(n.startswith('plaidml/libPlaidMLCAPI.so') for n in names):
        sys.exit('check_wheel: the wheel lacks libPlaidMLCAPI.so')
    print('check_wheel: {} ({:.1f} MB, {} files)'.format(
        os.path.basename(wheels[0]), os.path.getsize(wheels[0]) / 1e6, len(names)))
    step('pip install', [sys.executable, '-m', 'pip', 'install', '--no-deps', '--no-index',
                         '--target', site, wheels[0]])
    module = glob.glob(os.path.join(site, 'plaidml', '_plaidml.*.so'))[0]
    dynamic = step('readelf', ['readelf', '-d', module])
    if '[$ORIGIN]' not in dynamic:
        sys.exit('check_wheel: the native module\'s run path is not $ORIGIN:\n' + dynamic)
    env = dict(os.environ, PYTHONPATH=site)
    print(step('a program from the installed wheel', [sys.executable, '-c', PROGRAM, site], env=env,
               cwd=work).strip())
    for script, arg in (('plaidml-run', '--list-devices'), ('plaidml-setup', '--list'),
                        ('plaidbench', '--help')):
        path = os.path.join(site, 'bin', script)
        if not os.path.exists(path):
            sys.exit('check_wheel: no console script ' + path)
        extra = ['--config', os.path.join(work, 'config')] if script == 'plaidml-setup' else []
        step(script, [sys.executable, path, arg] + extra, env=env, cwd=work)
    print('check_wheel: PASS')


if __name__ == '__main__':
    main()
