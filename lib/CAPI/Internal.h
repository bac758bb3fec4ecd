//===- Internal.h - Shared pieces of the C API implementation ---*- C++ -*-===//
//
// What the files of lib/CAPI share: the definitions of the opaque handle
// types of include/plaidml-c (each wraps C++ objects the C side never
// sees), the thread-local last error and the helpers that set it, and the
// conversions between plaidml_dtype and the runtime's DType. Every exported
// function is `extern "C"` and catches nothing (the project builds without
// exceptions): failures are values all the way up.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_CAPI_INTERNAL_H
#define PLAIDML_LIB_CAPI_INTERNAL_H

#include "plaidml-c/plaidml.h"

#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/Status.h"

#include <map>
#include <string>
#include <vector>

namespace plaidml::capi {

/// Records `message` as the calling thread's last error and returns
/// `status`.
plaidml_status fail(plaidml_status status, std::string message);
/// fail(PLAIDML_INVALID_ARGUMENT, "<function>: <what> is null").
plaidml_status failNull(const char *function, const char *what);
/// PLAIDML_OK for a successful `status`, else fail(code, its message).
plaidml_status fromStatus(const rt::Status &status, plaidml_status code);

rt::DType toDType(plaidml_dtype dtype);
plaidml_dtype fromDType(rt::DType dtype);
/// True for the values of the plaidml_dtype enumeration.
bool isValidDType(int dtype);

} // namespace plaidml::capi

/// A host tensor.
struct plaidml_buffer {
  plaidml::rt::HostArray array;
  /// plaidml_buffer_describe's text, made on demand.
  std::string description;
};

struct plaidml_compile_options {
  std::string device;
  std::string entry;
  unsigned threads = 1;
  std::map<std::string, std::string> bindings;
};

#endif // PLAIDML_LIB_CAPI_INTERNAL_H
