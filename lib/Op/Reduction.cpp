//===- Reduction.cpp - Reductions, cumulative sums, argmax ----------------===//
//
// Reductions are one contraction each: every axis gets an index, reduced
// axes appear only in the input access (or at position 0 of a kept size-1
// axis). cumsum sums the prefix with a constraint; argmax / argmin keep the
// first extreme index with the `cond` combination (docs/EDSL.md).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

namespace {
/// The reduction of x over `axes` with the contraction aggregation `agg`.
Tensor contract(const Tensor &x, ReduceKind kind,
                const std::vector<int64_t> &axes, bool keepdims) {
  std::vector<int64_t> shape = x.getShape();
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "r");
  std::vector<TensorIndex> outIdx;
  std::vector<TensorDim> outShape;
  for (size_t i = 0; i < shape.size(); ++i) {
    bool reduced =
        std::find(axes.begin(), axes.end(), int64_t(i)) != axes.end();
    if (!reduced) {
      outIdx.push_back(idx[i]);
      outShape.emplace_back(shape[i]);
    } else if (keepdims) {
      outIdx.emplace_back(0);
      outShape.emplace_back(1);
    }
  }
  Contraction c;
  c.outShape(outShape).outAccess(outIdx);
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    c.sum(x(idx));
    break;
  case ReduceKind::Max:
    c.max(x(idx));
    break;
  case ReduceKind::Min:
    c.min(x(idx));
    break;
  case ReduceKind::Prod:
    c.product(x(idx));
    break;
  }
  return c.build();
}
} // namespace

Tensor plaidml::op::reduce(const Tensor &x, ReduceKind kind,
                           std::vector<int64_t> axes, bool keepdims) {
  std::vector<int64_t> as = normalizeAxes(axes, x.getRank(), "reduce");
  Tensor r = contract(x, kind, as, keepdims);
  if (kind != ReduceKind::Mean)
    return r;
  int64_t count = 1;
  std::vector<int64_t> shape = x.getShape();
  for (int64_t a : as)
    count *= shape[a];
  return toFloat(r) / static_cast<double>(count);
}

Tensor plaidml::op::sum(const Tensor &x, std::vector<int64_t> axes,
                        bool keepdims) {
  return reduce(x, ReduceKind::Sum, axes, keepdims);
}
Tensor plaidml::op::mean(const Tensor &x, std::vector<int64_t> axes,
                         bool keepdims) {
  return reduce(x, ReduceKind::Mean, axes, keepdims);
}
Tensor plaidml::op::max(const Tensor &x, std::vector<int64_t> axes,
                        bool keepdims) {
  return reduce(x, ReduceKind::Max, axes, keepdims);
}
Tensor plaidml::op::min(const Tensor &x, std::vector<int64_t> axes,
                        bool keepdims) {
  return reduce(x, ReduceKind::Min, axes, keepdims);
}
Tensor plaidml::op::prod(const Tensor &x, std::vector<int64_t> axes,
                         bool keepdims) {
  return reduce(x, ReduceKind::Prod, axes, keepdims);
}

Tensor plaidml::op::cumsum(const Tensor &x, int64_t axis, bool exclusive) {
  int64_t a = normalizeAxis(axis, x.getRank(), "cumsum");
  std::vector<int64_t> shape = x.getShape();
  std::vector<TensorIndex> out = makeIndices(shape.size(), "c");
  std::vector<TensorIndex> in = out;
  TensorIndex k("k");
  in[a] = k;
  std::vector<TensorDim> dims(shape.begin(), shape.end());
  // Sum over k <= i (exclusive: k < i): 0 <= i - k (- 1) < N.
  TensorIndex gap = exclusive ? out[a] - k - 1 : out[a] - k;
  return Contraction("cumsum")
      .outShape(dims)
      .outAccess(out)
      .sum(x(in))
      .add_constraint(gap < shape[a])
      .build();
}

static Tensor argExtreme(const Tensor &x, int64_t axis, bool keepdims,
                         bool isMax, const char *name) {
  int64_t a = normalizeAxis(axis, x.getRank(), name);
  std::vector<int64_t> shape = x.getShape();
  Tensor m = reduce(x, isMax ? ReduceKind::Max : ReduceKind::Min, {a}, true);
  // Reversed positions, so that the maximum over the matches is the first.
  Tensor rev = edsl::index(shape, a, DType::si32);
  rev = (shape[a] - 1) - rev;
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "a");
  std::vector<TensorIndex> mIdx = idx;
  mIdx[a] = 0;
  std::vector<TensorIndex> outIdx;
  std::vector<TensorDim> outShape;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (int64_t(i) != a) {
      outIdx.push_back(idx[i]);
      outShape.emplace_back(shape[i]);
    } else if (keepdims) {
      outIdx.emplace_back(0);
      outShape.emplace_back(1);
    }
  }
  Tensor best = Contraction(name)
                    .outShape(outShape)
                    .outAccess(outIdx)
                    .max(edsl::cond(x(idx) == m(mIdx), rev(idx)))
                    .build();
  return edsl::cast((shape[a] - 1) - best, DType::si32);
}

Tensor plaidml::op::argmax(const Tensor &x, int64_t axis, bool keepdims) {
  return argExtreme(x, axis, keepdims, true, "argmax");
}
Tensor plaidml::op::argmin(const Tensor &x, int64_t axis, bool keepdims) {
  return argExtreme(x, axis, keepdims, false, "argmin");
}
