//===- Common.h - Helpers shared by the op library --------------*- C++ -*-===//
//
// Axis normalization, index lists, spatial-dimension bookkeeping for the
// layouts, and small constructors used by several op files.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_OP_COMMON_H
#define PLAIDML_LIB_OP_COMMON_H

#include "plaidml/Op/Op.h"

#include <string>

namespace plaidml::op::detail {

using edsl::Contraction;
using edsl::DType;
using edsl::Error;
using edsl::TensorDim;
using edsl::TensorIndex;

/// `n` fresh indices named `prefix`0, `prefix`1, ...
std::vector<TensorIndex> makeIndices(size_t n, const std::string &prefix = "i");
/// The distinct axes of `axes` normalized against `rank`, sorted; all axes
/// when `axes` is empty.
std::vector<int64_t> normalizeAxes(std::vector<int64_t> axes, int64_t rank,
                                   const char *op);
/// The per-spatial-dimension attribute `v` (all `fallback` when empty),
/// checked to have `n` entries.
std::vector<int64_t> spatialAttr(const std::vector<int64_t> &v, size_t n,
                                 int64_t fallback, const char *op,
                                 const char *name);
/// Whether a tensor's dtype is a float type.
bool isFloat(DType dtype);
/// A float tensor of x's type (f32 for integers).
Tensor toFloat(const Tensor &x);
/// `layout` as the lens string of rank `rank`: NXC is "NABC..Z" style.
/// Returns (layout string, canonical NXC string).
std::pair<std::string, std::string> layoutStrings(DataLayout layout,
                                                  int64_t rank);
/// x seen in NXC order.
Tensor toNXC(const Tensor &x, DataLayout layout);
/// The channel axis of a tensor of `rank` in `layout`.
int64_t channelAxis(DataLayout layout, int64_t rank);
/// A constant f32/f64 (x's float type) tensor of `shape` from `values`.
Tensor floatConstant(DType dtype, const std::vector<int64_t> &shape,
                     const std::vector<double> &values);
/// A constant si32 tensor of `shape`.
Tensor intConstant(const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &values);

/// The tensor without its lens (its storage order).
Tensor storage(const Tensor &x);

} // namespace plaidml::op::detail

#endif // PLAIDML_LIB_OP_COMMON_H
