//===- Resize.cpp - Nearest and bilinear resizing, upsampling -------------===//
//
// Resizing is separable: one spatial axis at a time, the source positions
// are computed here from the static sizes. Nearest gathers one source
// index per output position; bilinear gathers the two neighbours and blends
// them with constant weights broadcast along the axis. Integer upsampling
// repeats elements.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cmath>

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

Tensor plaidml::op::resize(const Tensor &x, const std::vector<int64_t> &sizes,
                           ResizeMode mode, DataLayout layout,
                           bool alignCorners) {
  int64_t rank = x.getRank();
  size_t ns = rank - 2;
  if (rank < 3 || sizes.size() != ns)
    throw Error("resize: " + std::to_string(sizes.size()) +
                " sizes for the input " + x.str());
  Tensor r = mode == ResizeMode::Bilinear ? toFloat(x) : x;
  for (size_t i = 0; i < ns; ++i) {
    int64_t axis = layout == DataLayout::NXC ? 1 + i : 2 + i;
    int64_t in = r.getShape()[axis], out = sizes[i];
    if (out <= 0)
      throw Error("resize: size " + std::to_string(out) + " of spatial " +
                  "dimension " + std::to_string(i) + " must be positive");
    if (in == out)
      continue;
    double scale = static_cast<double>(in) / static_cast<double>(out);
    if (mode == ResizeMode::Nearest) {
      std::vector<int64_t> idx;
      for (int64_t o = 0; o < out; ++o)
        idx.push_back(std::min<int64_t>(
            static_cast<int64_t>(std::floor(o * scale)), in - 1));
      r = edsl::gather(r, intConstant({out}, idx), axis);
      continue;
    }
    std::vector<int64_t> lo, hi;
    std::vector<double> w;
    for (int64_t o = 0; o < out; ++o) {
      double src;
      if (alignCorners)
        src = out == 1 ? 0.0 : static_cast<double>(o) * (in - 1) / (out - 1);
      else
        src = std::max((o + 0.5) * scale - 0.5, 0.0);
      int64_t l =
          std::min<int64_t>(static_cast<int64_t>(std::floor(src)), in - 1);
      lo.push_back(l);
      hi.push_back(std::min<int64_t>(l + 1, in - 1));
      w.push_back(src - static_cast<double>(l));
    }
    std::vector<int64_t> wShape(rank - axis, 1);
    wShape[0] = out;
    Tensor weight = floatConstant(r.getDType(), wShape, w);
    Tensor a = edsl::gather(r, intConstant({out}, lo), axis);
    Tensor b = edsl::gather(r, intConstant({out}, hi), axis);
    r = a + (b - a) * weight;
  }
  return r;
}

Tensor plaidml::op::upsample(const Tensor &x,
                             const std::vector<int64_t> &factors,
                             DataLayout layout) {
  int64_t rank = x.getRank();
  if (rank < 3 || factors.size() != static_cast<size_t>(rank - 2))
    throw Error("upsample: " + std::to_string(factors.size()) +
                " factors for the input " + x.str());
  Tensor r = x;
  for (size_t i = 0; i < factors.size(); ++i)
    if (factors[i] != 1)
      r = repeat(r, factors[i], layout == DataLayout::NXC ? 1 + i : 2 + i);
  return r;
}
