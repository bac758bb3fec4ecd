//===- Pad.cpp - Padding: constant, reflect, edge, wrap -------------------===//
//
// Constant padding writes the input into an output initialized with the
// value. Reflect, edge and wrap padding go axis by axis: the border pieces
// are slices of the input (reflected, repeated, or its other end and whole
// copies of it) concatenated with it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

Tensor plaidml::op::pad(const Tensor &x, const std::vector<int64_t> &pads,
                        PadMode mode, double value) {
  int64_t rank = x.getRank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    throw Error("pad: pads has " + std::to_string(pads.size()) +
                " entries but " + x.str() +
                " needs 2 * rank = " + std::to_string(2 * rank));
  for (int64_t p : pads)
    if (p < 0)
      throw Error("pad: negative padding " + std::to_string(p));
  std::vector<int64_t> shape = x.getShape();
  if (mode == PadMode::Constant) {
    std::vector<TensorIndex> idx = makeIndices(rank, "q"), outIdx;
    std::vector<TensorDim> outShape;
    for (int64_t i = 0; i < rank; ++i) {
      outIdx.push_back(idx[i] + pads[i]);
      outShape.emplace_back(shape[i] + pads[i] + pads[rank + i]);
    }
    return Contraction("pad")
        .outShape(outShape)
        .outAccess(outIdx)
        .assign(x(idx))
        .init(edsl::Constant(x.getDType(), value))
        .build();
  }
  Tensor r = x;
  for (int64_t a = 0; a < rank; ++a) {
    int64_t before = pads[a], after = pads[rank + a], n = shape[a];
    if (before == 0 && after == 0)
      continue;
    if (mode == PadMode::Reflect && (before >= n || after >= n))
      throw Error("pad: reflect padding of " + std::to_string(before) + ", " +
                  std::to_string(after) + " needs dimension " +
                  std::to_string(a) + " of " + x.str() +
                  " to be larger than both");
    std::vector<Tensor> pieces;
    if (mode == PadMode::Wrap) {
      // The periodic extension: before the input its last before % n
      // elements, then before / n copies of it; after it after / n copies,
      // then its first after % n elements.
      if (before % n)
        pieces.push_back(slice(r, {n - before % n}, {n}, {a}));
      pieces.insert(pieces.end(), before / n + 1 + after / n, r);
      if (after % n)
        pieces.push_back(slice(r, {0}, {after % n}, {a}));
      r = concat(pieces, a);
      continue;
    }
    if (before > 0)
      pieces.push_back(mode == PadMode::Reflect
                           ? slice(r, {before}, {0}, {a}, {-1})
                           : repeat(slice(r, {0}, {1}, {a}), before, a));
    pieces.push_back(r);
    if (after > 0)
      pieces.push_back(mode == PadMode::Reflect
                           ? slice(r, {n - 2}, {-2 - after}, {a}, {-1})
                           : repeat(slice(r, {n - 1}, {n}, {a}), after, a));
    r = concat(pieces, a);
  }
  return r;
}
