# ===- settings.py - PlaidML settings: the default device and more --------===#
#
# v1's plaidml.settings: named settings with get/set/all/save. A value comes
# from, in order: set() in this process, the environment variable of the
# same name, the config file that plaidml-setup writes (docs/Setup.md:
# $XDG_CONFIG_HOME/plaidml/config or ~/.config/plaidml/config, lines
# `key = value`, `device` for PLAIDML_DEVICE), and the default.
#
#   PLAIDML_DEVICE    the device programs run on ('cpu', 'vulkan:0',
#                     'opencl:0', 'reference'); default 'cpu'
#   PLAIDML_THREADS   threads of CPU code; default 1
#
# Compiled programs go through the compile cache of the C API, under
# $XDG_CACHE_HOME/plaidml or ~/.cache/plaidml (docs/ABI.md).
#
# ===----------------------------------------------------------------------===#

import builtins
import os
import re
import tempfile

_DEFAULTS = {'PLAIDML_DEVICE': 'cpu', 'PLAIDML_THREADS': '1'}
# Setting name -> key of the config file.
_CONFIG_KEYS = {'PLAIDML_DEVICE': 'device'}
_DEVICE_NAME = re.compile(r'^(cpu|reference|(vulkan|opencl):[0-9]+)$')

_overrides = {}


def config_path():
    """The config file plaidml-setup writes, or None when neither
    XDG_CONFIG_HOME nor HOME is an absolute path."""
    xdg = os.environ.get('XDG_CONFIG_HOME', '')
    if os.path.isabs(xdg):
        return os.path.join(xdg, 'plaidml', 'config')
    home = os.environ.get('HOME', '')
    if os.path.isabs(home):
        return os.path.join(home, '.config', 'plaidml', 'config')
    return None


class ConfigError(ValueError):
    """A config file that cannot be parsed (the message names file and line)."""


def read_config(path=None):
    """The config file's `key = value` lines as a dict ({} when it does not
    exist). A malformed line, a repeated key or an invalid device name is a
    ConfigError naming the file and line."""
    path = path or config_path()
    values = {}
    if not path or not os.path.exists(path):
        return values
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith('#'):
                continue
            if '=' not in text:
                raise ConfigError('{}:{}: expected `key = value`, got {!r}'.format(path, number, text))
            key, value = [part.strip() for part in text.split('=', 1)]
            if not key or key in values:
                raise ConfigError('{}:{}: {}'.format(
                    path, number, 'empty key' if not key else 'key {!r} repeated'.format(key)))
            if key == 'device' and not _DEVICE_NAME.match(value):
                raise ConfigError('{}:{}: invalid device name {!r}'.format(path, number, value))
            values[key] = value
    return values


def write_config_device(device, path=None):
    """Sets the config file's `device` line to `device`, keeping every other
    line; atomic (a temporary file renamed into place). Returns the path."""
    if not _DEVICE_NAME.match(device) or device == 'reference':
        raise ValueError("invalid device name '{}' (expected cpu, vulkan:N or opencl:N)".format(device))
    path = path or config_path()
    if not path:
        raise ConfigError('no config file location: neither XDG_CONFIG_HOME nor HOME is an '
                          'absolute path')
    read_config(path)  # refuses a malformed file before rewriting it
    lines = []
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
    out, replaced = [], False
    for line in lines:
        text = line.strip()
        if not text.startswith('#') and '=' in text and text.split('=', 1)[0].strip() == 'device':
            out.append('device = ' + device)
            replaced = True
        else:
            out.append(line)
    if not replaced:
        out.append('device = ' + device)
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.config.')
    with os.fdopen(fd, 'w') as f:
        f.write('\n'.join(out) + '\n')
    os.replace(tmp, path)
    return path


def get(key, default=None):
    """The value of setting `key` (see the module's docstring), or `default`
    when nothing sets it and it has no built-in default."""
    if key in _overrides:
        return _overrides[key]
    if key in os.environ:
        return os.environ[key]
    config_key = _CONFIG_KEYS.get(key)
    if config_key:
        value = read_config().get(config_key)
        if value is not None:
            return value
    return _DEFAULTS.get(key, default)


def set(key, value):  # noqa: A001  (v1's name)
    """Sets `key` for this process (None removes the override)."""
    if value is None:
        _overrides.pop(key, None)
    else:
        _overrides[key] = str(value)


def all():  # noqa: A001  (v1's name)
    """Every known setting and its current value."""
    keys = sorted(builtins.set(_DEFAULTS) | builtins.set(_overrides))
    return {k: get(k) for k in keys}


def save(path=None):
    """Saves the current PLAIDML_DEVICE into the config file (what
    plaidml-setup does). Returns the file's path."""
    return write_config_device(get('PLAIDML_DEVICE'), path)


def default_device():
    return get('PLAIDML_DEVICE')


def threads():
    value = get('PLAIDML_THREADS')
    try:
        count = int(value)
    except ValueError:
        raise ValueError('PLAIDML_THREADS must be a positive integer, not {!r}'.format(value)) from None
    if count < 1:
        raise ValueError('PLAIDML_THREADS must be a positive integer, not {!r}'.format(value))
    return count
