//===- Activation.cpp - Activation functions ------------------------------===//
//
// Elementwise activations composed from Tile elementwise ops, and softmax /
// log-softmax along any axis (stabilized by the maximum along the axis).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cmath>

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

Tensor plaidml::op::relu(const Tensor &x) { return edsl::relu(x); }

Tensor plaidml::op::clip(const Tensor &x, double lo, double hi) {
  if (lo > hi)
    throw Error("clip: the lower bound " + std::to_string(lo) +
                " is above the upper bound " + std::to_string(hi));
  return edsl::min(edsl::max(x, lo), hi);
}

Tensor plaidml::op::relu6(const Tensor &x) { return clip(x, 0.0, 6.0); }

Tensor plaidml::op::leaky_relu(const Tensor &x, double alpha) {
  return edsl::select(x < 0.0, x * alpha, x);
}

Tensor plaidml::op::elu(const Tensor &x, double alpha) {
  return edsl::select(x < 0.0, (edsl::exp(x) - 1.0) * alpha, x);
}

Tensor plaidml::op::sigmoid(const Tensor &x) { return edsl::sigmoid(x); }

Tensor plaidml::op::hard_sigmoid(const Tensor &x, double alpha, double beta) {
  return clip(x * alpha + beta, 0.0, 1.0);
}

Tensor plaidml::op::hard_swish(const Tensor &x) {
  return x * relu6(x + 3.0) / 6.0;
}

Tensor plaidml::op::swish(const Tensor &x) { return x * edsl::sigmoid(x); }

Tensor plaidml::op::gelu(const Tensor &x, bool approximateTanh) {
  if (approximateTanh) {
    double k = std::sqrt(2.0 / M_PI);
    return x * 0.5 * (edsl::tanh((x + x * x * x * 0.044715) * k) + 1.0);
  }
  return x * 0.5 * (edsl::erf(x * (1.0 / std::sqrt(2.0))) + 1.0);
}

Tensor plaidml::op::tanh(const Tensor &x) { return edsl::tanh(x); }

Tensor plaidml::op::softmax(const Tensor &x, int64_t axis) {
  int64_t a = normalizeAxis(axis, x.getRank(), "softmax");
  Tensor e = edsl::exp(x - max(x, {a}, true));
  return e / sum(e, {a}, true);
}

Tensor plaidml::op::log_softmax(const Tensor &x, int64_t axis) {
  int64_t a = normalizeAxis(axis, x.getRank(), "log_softmax");
  Tensor shifted = x - max(x, {a}, true);
  return shifted - edsl::log(sum(edsl::exp(shifted), {a}, true));
}
