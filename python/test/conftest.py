# ===- conftest.py - Devices for the plaidml pytest suite -----------------===#
#
# DEVICES: the devices the execution tests run on: cpu, and vulkan:0 and
# opencl:0 when this machine has them. PLAIDML_REQUIRE_VULKAN=1 /
# PLAIDML_REQUIRE_OPENCL=1 (CI) make a missing one a failure instead of a
# skip. The `device` fixture is parametrized over them.
#
# ===----------------------------------------------------------------------===#

import os

import pytest

import plaidml.exec

_AVAILABLE = plaidml.exec.list_devices()
_WANTED = [('cpu', None), ('vulkan:0', 'PLAIDML_REQUIRE_VULKAN'),
           ('opencl:0', 'PLAIDML_REQUIRE_OPENCL')]


def _params():
    params = []
    for name, require in _WANTED:
        if name in _AVAILABLE:
            params.append(pytest.param(name, id=name))
        elif require and os.environ.get(require) == '1':
            params.append(pytest.param(name, id=name))  # fails in the fixture
        else:
            params.append(
                pytest.param(name, id=name,
                             marks=pytest.mark.skip(reason='{} is not on this machine'.format(name))))
    return params


@pytest.fixture(params=_params())
def device(request):
    name = request.param
    if name not in _AVAILABLE:
        pytest.fail('{} is required ({}) but this machine has only {}'.format(
            name, dict(_WANTED)[name], _AVAILABLE))
    return name
