//===- EDSLHandles.h - The EDSL handle types of the C API -------*- C++ -*-===//
//
// The definitions of the opaque EDSL handles of include/plaidml-c/edsl.h
// that more than one file of lib/CAPI opens: dimensions, indices and
// tensors (EDSL.cpp builds them, Op.cpp passes tensors to the op library).
// Each holds one EDSL value; EDSL values share their nodes, so handles are
// independent of each other.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_CAPI_EDSLHANDLES_H
#define PLAIDML_LIB_CAPI_EDSLHANDLES_H

#include "plaidml-c/edsl.h"

#include "plaidml/EDSL/EDSL.h"

struct plaidml_dim {
  plaidml::edsl::TensorDim dim;
};
struct plaidml_index {
  plaidml::edsl::TensorIndex index;
};
struct plaidml_tensor {
  plaidml::edsl::Tensor tensor;
};

namespace plaidml::capi {
/// A plaidml_program handle for a built Program (EDSL.cpp; Networks.cpp
/// uses it for the networks it builds).
plaidml_program *makeProgram(edsl::Program program);
} // namespace plaidml::capi

#endif // PLAIDML_LIB_CAPI_EDSLHANDLES_H
