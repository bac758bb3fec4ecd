# ===- tools/setup.py - plaidml-setup: choose and check the default device ===#
#
# The Python package's plaidml-setup (docs/Setup.md describes the C++ tool,
# which this one follows): lists the devices, asks for one (a number of the
# list or a name; --device D, --yes), checks it by compiling and running a
# 16x32x8 matmul + bias + relu on seeded inputs against the reference
# interpreter, and saves it as the `device` line of the config file
# (plaidml.settings.write_config_device), which the tools and the package
# use when PLAIDML_DEVICE is not set. Exit status 0 when the check passed.
#
# ===----------------------------------------------------------------------===#

import argparse
import sys

import numpy as np

import plaidml
import plaidml.exec
import plaidml.settings as settings

CHECK_NAME = 'plaidml-setup-check.tile'
CHECK_PROGRAM = '''# plaidml-setup's check program
function dense(A[M, K], B[K, N], Bias[N]) -> (R) {
  C[m, n : M, N] = +(A[m, k] * B[k, n]);
  R = relu(C + Bias);
}
'''
BINDINGS = {'A': '16x32xf32', 'B': '32x8xf32', 'Bias': '8xf32'}


def _error(message):
    print('plaidml-setup: error: {}'.format(message), file=sys.stderr)
    return 1


def check(device, out=sys.stdout):
    """Compiles and runs the check program on `device` and the reference
    interpreter; None when they agree, else why not."""
    rng = np.random.default_rng(1)
    inputs = [
        rng.uniform(-1, 1, (16, 32)).astype(np.float32),
        rng.uniform(-1, 1, (32, 8)).astype(np.float32),
        rng.uniform(-1, 1, 8).astype(np.float32)
    ]
    print('Checking {}: compiling and running a 16x32x8 matmul + bias + relu (seeded inputs) ...'.format(
        device), file=out)
    try:
        exe = plaidml.exec.compile_text(CHECK_PROGRAM, CHECK_NAME, device=device, bindings=BINDINGS)
        got = exe.run(inputs)[0]
        ref = plaidml.exec.compile_text(CHECK_PROGRAM, CHECK_NAME, device='reference',
                                        bindings=BINDINGS).run(inputs)[0]
    except plaidml.PlaidMLError as e:
        return str(e)
    error = float(np.max(np.abs(got - ref)))
    bad = np.abs(got - ref) > 1e-4 * (1 + np.abs(ref))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        return 'wrong result: R[{}, {}] is {}, the reference interpreter says {}'.format(
            i, j, got[i, j], ref[i, j])
    print('{}: 16x32x8 matmul + bias + relu matches the reference interpreter (max error {:g})'.format(
        device, error), file=out)
    return None


def _ask(question, stdin):
    sys.stdout.write(question)
    sys.stdout.flush()
    line = stdin.readline()
    if not line:
        return None
    answer = line.strip()
    if not stdin.isatty():
        sys.stdout.write(answer + '\n')
    return answer


def main(argv=None):
    parser = argparse.ArgumentParser(prog='plaidml-setup',
                                     description='Choose, check and save the default PlaidML device.')
    parser.add_argument('--device', help='the device (cpu, vulkan:N, opencl:N) instead of asking')
    parser.add_argument('-y', '--yes', action='store_true', help='ask nothing; save when the check passes')
    parser.add_argument('--no-save', action='store_true', help='check only')
    parser.add_argument('--list', action='store_true', help='list the devices and the current choice')
    parser.add_argument('--config', help='the config file (default: {})'.format(settings.config_path()))
    args = parser.parse_args(argv)

    path = args.config or settings.config_path()
    if not path and not args.no_save:
        return _error('no config file location: neither XDG_CONFIG_HOME nor HOME is an absolute path '
                      '(use --config)')
    descriptions = plaidml.exec.device_descriptions()
    devices = list(descriptions)
    print('Devices on this machine:')
    for n, name in enumerate(devices, 1):
        print('  {:<2} {:<10} {}'.format(n, name, descriptions[name]))
    saved, config_problem = None, None
    try:
        saved = settings.read_config(path).get('device') if path else None
    except settings.ConfigError as e:
        config_problem = str(e)
    if config_problem:
        print('Saved choice: unreadable ({})'.format(config_problem))
    elif saved:
        mark = '' if saved in devices else ' (not a device of this machine)'
        print('Saved choice: {}{} ({})'.format(saved, mark, path))
    else:
        print('Saved choice: none yet ({} does not set one; the tools use cpu)'.format(path))
    if args.list:
        return 0
    if config_problem and not args.no_save:
        return _error('{} (fix or remove {}, then run plaidml-setup again)'.format(config_problem, path))

    default = saved if saved in devices else 'cpu'
    device = args.device
    if device is None and args.yes:
        device = default
    answers = 0
    while device is None:
        answer = _ask('Device [default: {}]: '.format(default), sys.stdin)
        if answer is None:
            return _error('cancelled (end of input); nothing saved')
        if answer == '':
            device = default
        elif answer.isdigit() and 1 <= int(answer) <= len(devices):
            device = devices[int(answer) - 1]
        elif answer in devices:
            device = answer
        else:
            print('plaidml-setup: {!r} is not a device of this machine (devices: {})'.format(
                answer, ', '.join(devices)), file=sys.stderr)
            answers += 1
            if answers == 3:
                return _error('three unusable answers; nothing saved')
    if device == 'reference':
        return _error("'reference' is the reference interpreter the check compares with; choose a "
                      'device of this machine')
    if device not in devices:
        return _error('{} is not a device of this machine (devices: {})'.format(
            device, ', '.join(devices)))
    why = check(device)
    if why is not None:
        return _error('{} failed the check: {}; nothing saved'.format(device, why))
    if args.no_save:
        return 0
    if not args.yes:
        answer = _ask('Save {} as the default device in {}? [Y/n] '.format(device, path), sys.stdin)
        if answer is None:
            return _error('cancelled (end of input); nothing saved')
        if answer.lower() in ('n', 'no'):
            return 0
    settings.write_config_device(device, path)
    print('Saved: {} is the default device (device = {} in {}).'.format(device, device, path))
    return 0


if __name__ == '__main__':
    sys.exit(main())
