//===- Common.cpp - Helpers shared by the op library ----------------------===//
//
// Axis normalization, index lists, layouts and constants (Common.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <set>

using namespace plaidml::op;
using namespace plaidml::op::detail;

int64_t plaidml::op::normalizeAxis(int64_t axis, int64_t rank, const char *op) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw Error(std::string(op) + ": axis " + std::to_string(axis) +
                " is out of range for rank " + std::to_string(rank));
  return a;
}

std::vector<TensorIndex> detail::makeIndices(size_t n,
                                             const std::string &prefix) {
  std::vector<TensorIndex> r;
  for (size_t i = 0; i < n; ++i)
    r.emplace_back(prefix + std::to_string(i));
  return r;
}

std::vector<int64_t> detail::normalizeAxes(std::vector<int64_t> axes,
                                           int64_t rank, const char *op) {
  std::set<int64_t> r;
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      r.insert(i);
  for (int64_t a : axes)
    if (!r.insert(normalizeAxis(a, rank, op)).second)
      throw Error(std::string(op) + ": axis " + std::to_string(a) +
                  " is given twice");
  return std::vector<int64_t>(r.begin(), r.end());
}

std::vector<int64_t> detail::spatialAttr(const std::vector<int64_t> &v,
                                         size_t n, int64_t fallback,
                                         const char *op, const char *name) {
  if (v.empty())
    return std::vector<int64_t>(n, fallback);
  if (v.size() != n)
    throw Error(std::string(op) + ": " + name + " has " +
                std::to_string(v.size()) + " entries but there are " +
                std::to_string(n) + " spatial dimensions");
  for (int64_t x : v)
    if (x <= 0 && std::string(name) != "pads" &&
        std::string(name) != "output padding")
      throw Error(std::string(op) + ": " + name + " must be positive, not " +
                  std::to_string(x));
  return v;
}

bool detail::isFloat(DType d) {
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 ||
         d == DType::f64;
}

Tensor detail::toFloat(const Tensor &x) {
  return isFloat(x.getDType()) ? x : edsl::cast(x, DType::f32);
}

std::pair<std::string, std::string> detail::layoutStrings(DataLayout layout,
                                                          int64_t rank) {
  std::string spatial;
  for (int64_t i = 0; i + 2 < rank; ++i)
    spatial += static_cast<char>('D' + i);
  std::string nxc = "N" + spatial + "C";
  return {layout == DataLayout::NXC ? nxc : "NC" + spatial, nxc};
}

Tensor detail::toNXC(const Tensor &x, DataLayout layout) {
  if (layout == DataLayout::NXC)
    return x;
  auto [source, target] = layoutStrings(layout, x.getRank());
  return x.use(edsl::TensorLens(source, target));
}

int64_t detail::channelAxis(DataLayout layout, int64_t rank) {
  return layout == DataLayout::NXC ? rank - 1 : 1;
}

Tensor detail::floatConstant(DType dtype, const std::vector<int64_t> &shape,
                             const std::vector<double> &values) {
  return edsl::Constant(
      rt::makeArray(isFloat(dtype) ? dtype : DType::f32, shape, values));
}

Tensor detail::intConstant(const std::vector<int64_t> &shape,
                           const std::vector<int64_t> &values) {
  rt::HostArray a;
  a.dtype = DType::si32;
  a.shape = shape;
  a.bytes.assign(a.getNumElements() * 4, 0);
  for (size_t i = 0; i < values.size(); ++i)
    rt::setElementFromDouble(a, static_cast<int64_t>(i),
                             static_cast<double>(values[i]));
  return edsl::Constant(a);
}

Tensor detail::storage(const Tensor &x) {
  return Tensor::fromImpl(x.getImpl(), x.getName());
}
