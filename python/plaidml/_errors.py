# ===- _errors.py - PlaidML's Python exceptions ----------------------------===#
#
# The exception classes of the package, one per status of the C API
# (include/plaidml-c/plaidml.h), and the factory the native module calls to
# raise them. Each carries the C API's message; a message from building a
# program (BuildError) is prefixed with the file and line of the user's code
# that built the failing tensor, found by walking the Python stack out of
# the plaidml package.
#
# ===----------------------------------------------------------------------===#

import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PlaidMLError(Exception):
    """Every error PlaidML reports. `status` is the C API's status name and
    `message` the C API's message (with the user's source line first when
    PlaidML can tell it)."""

    status = 'error'

    def __init__(self, message, location=None):
        self.message = message
        self.location = location
        text = message if location is None else '{}: {}'.format(location, message)
        super().__init__(text)


class InvalidArgumentError(PlaidMLError, ValueError):
    """A value out of range, an input of the wrong shape or type."""
    status = 'invalid argument'


class NotFoundError(PlaidMLError, LookupError):
    """No such device, entry, input or output."""
    status = 'not found'


class BuildError(PlaidMLError, ValueError):
    """An ill-formed EDSL program: a rank mismatch, a dimension bound to two
    sizes, an unbounded index. The message names the tensor and the
    dimension."""
    status = 'build error'


class CompileError(PlaidMLError):
    """A program that does not parse, import or compile for the device; the
    message holds the compiler's diagnostics with their source lines."""
    status = 'compile error'


class PlaidMLRuntimeError(PlaidMLError, RuntimeError):
    """Loading or running a compiled program failed (device, driver)."""
    status = 'runtime error'


class UnsupportedError(PlaidMLError, NotImplementedError):
    """Something this build or device cannot do."""
    status = 'unsupported'


class InternalError(PlaidMLError):
    """A bug in PlaidML."""
    status = 'internal error'


for _cls in (PlaidMLError, InvalidArgumentError, NotFoundError, BuildError, CompileError,
             PlaidMLRuntimeError, UnsupportedError, InternalError):
    _cls.__module__ = 'plaidml'

_BY_STATUS = {
    1: InvalidArgumentError,
    2: NotFoundError,
    3: BuildError,
    4: CompileError,
    5: PlaidMLRuntimeError,
    6: UnsupportedError,
    7: InternalError,
}


def user_location():
    """'file:line' of the innermost frame outside the plaidml package (the
    user's code), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_PACKAGE_DIR + os.sep):
            return '{}:{}'.format(frame.f_code.co_filename, frame.f_lineno)
        frame = frame.f_back
    return None


def make_error(status, message):
    """Called by the native module for a failing status."""
    cls = _BY_STATUS.get(status, InternalError)
    location = user_location() if cls is BuildError else None
    return cls(message, location)
