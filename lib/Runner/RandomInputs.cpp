//===- RandomInputs.cpp - Seeded inputs for --random-inputs ---------------===//
//
// The seeded data that plaidml-run's --random-inputs and plaidml-setup's
// check feed to programs: a fixed generator (std::mt19937_64, whose sequence
// the C++ standard fixes) and a fixed mapping to values, so a seed gives the
// same inputs on every machine and device. Links no MLIR.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include <cmath>

using namespace plaidml;

rt::HostArray plaidml::run::randomArray(const rt::TensorSpec &spec,
                                        std::mt19937_64 &rng) {
  rt::HostArray array;
  array.dtype = spec.dtype;
  array.shape = spec.shape;
  array.bytes.assign(spec.getByteSize(), 0);
  for (int64_t i = 0, e = spec.getNumElements(); i < e; ++i) {
    uint64_t r = rng();
    double v;
    switch (spec.dtype) {
    case rt::DType::i1:
      v = static_cast<double>(r & 1);
      break;
    case rt::DType::ui8:
    case rt::DType::ui16:
    case rt::DType::ui32:
    case rt::DType::ui64:
      v = static_cast<double>(r % 16);
      break;
    case rt::DType::f16:
    case rt::DType::bf16:
    case rt::DType::f32:
    case rt::DType::f64:
      v = std::ldexp(static_cast<double>(r >> 11), -52) - 1.0;
      break;
    default:
      v = static_cast<double>(static_cast<int64_t>(r % 16) - 8);
      break;
    }
    rt::setElementFromDouble(array, i, v);
  }
  return array;
}
