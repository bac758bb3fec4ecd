//===- Pooling.cpp - Max and average pooling ------------------------------===//
//
// A window contraction in the NXC order (a lens presents NCX inputs), with
// the window indices constrained to the window. Padding is implicit: reads
// outside the input are not valid points, so max pooling ignores them and
// average pooling divides by a constant tensor of counts, computed here from
// the static shapes (the window size with count-include-pad, else the
// number of input elements each window covers).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <limits>

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

Tensor plaidml::op::pool(const Tensor &input, PoolMode mode,
                         const PoolOptions &o) {
  const char *op = mode == PoolMode::Max ? "max pool" : "average pool";
  int64_t rank = input.getRank();
  size_t ns = rank - 2;
  if (rank < 3 || rank > 5)
    throw Error(std::string(op) + ": the input " + input.str() +
                " must have 1 to 3 spatial dimensions");
  if (o.window.size() != ns)
    throw Error(std::string(op) + ": the window has " +
                std::to_string(o.window.size()) + " entries but the input " +
                input.str() + " has " + std::to_string(ns) +
                " spatial dimensions");
  std::vector<int64_t> window = spatialAttr(o.window, ns, 1, op, "window");
  std::vector<int64_t> strides = spatialAttr(o.strides, ns, 1, op, "strides");
  std::vector<int64_t> dilations =
      spatialAttr(o.dilations, ns, 1, op, "dilations");
  if (o.ceilMode && o.padding != Padding::Explicit)
    throw Error(std::string(op) + ": ceilMode needs explicit padding");
  std::vector<int64_t> pads = o.pads;
  if (o.padding != Padding::Explicit && pads.empty())
    pads.assign(2 * ns, 0);
  if (pads.size() != 2 * ns)
    throw Error(std::string(op) + ": pads has " + std::to_string(pads.size()) +
                " entries but " + std::to_string(2 * ns) + " are needed");
  // Average pooling with countIncludePad divides by the window clipped to
  // the explicitly padded input (ONNX, PyTorch): the padding added for
  // ceilMode does not count.
  std::vector<int64_t> countPads = pads;
  // Convert before the lens: elementwise ops see the stored order.
  Tensor in =
      toNXC(mode == PoolMode::Average ? toFloat(input) : input, o.layout);
  std::vector<int64_t> shape = in.getShape();

  TensorIndex n("n"), c("c");
  std::vector<TensorIndex> x = makeIndices(ns, "x"), k = makeIndices(ns, "k");
  std::vector<TensorIndex> inIdx{n}, outIdx{n};
  std::vector<TensorDim> outShape{shape[0]};
  std::vector<SpatialSize> sizes;
  Contraction con(edsl::TensorLens(layoutStrings(o.layout, rank).first,
                                   layoutStrings(o.layout, rank).second),
                  mode == PoolMode::Max ? "max_pool" : "avg_pool");
  for (size_t i = 0; i < ns; ++i) {
    SpatialSize s;
    try {
      int64_t padAfter = pads[ns + i];
      if (o.ceilMode) {
        // Extra padding after, so that the floor of the division rounds up;
        // then drop a last window that would start in the padding after.
        int64_t effective = (window[i] - 1) * dilations[i] + 1;
        int64_t span = shape[1 + i] + pads[i] + padAfter - effective;
        if (span >= 0) {
          int64_t out = (span + strides[i] - 1) / strides[i] + 1;
          if ((out - 1) * strides[i] >= shape[1 + i] + pads[i])
            --out;
          padAfter =
              (out - 1) * strides[i] + effective - shape[1 + i] - pads[i];
        }
      }
      s = computeSpatialSize(shape[1 + i], window[i], strides[i], dilations[i],
                             o.padding, pads[i], padAfter);
    } catch (const Error &e) {
      throw Error(std::string(op) + ": spatial dimension " + std::to_string(i) +
                  ": " + e.what());
    }
    sizes.push_back(s);
  }
  // Floating-point max pooling reads an input padded with -inf, which no
  // window's maximum can take (every window holds an input element): the
  // contraction then has no constraint on its reads, which the code
  // generators turn into guards (the CPU's scalar path).
  std::vector<int64_t> readPads(ns, 0);
  for (size_t i = 0; i < ns; ++i)
    readPads[i] = sizes[i].padBefore;
  if (mode == PoolMode::Max && isFloat(in.getDType())) {
    std::vector<int64_t> padding(2 * rank, 0);
    bool any = false;
    for (size_t i = 0; i < ns; ++i) {
      int64_t effective = (window[i] - 1) * dilations[i] + 1;
      int64_t end = (sizes[i].output - 1) * strides[i] + effective;
      padding[1 + i] = sizes[i].padBefore;
      padding[rank + 1 + i] =
          std::max<int64_t>(0, end - sizes[i].padBefore - shape[1 + i]);
      any |= padding[1 + i] > 0 || padding[rank + 1 + i] > 0;
      readPads[i] = 0;
    }
    if (any)
      in = pad(in, padding, PadMode::Constant,
               -std::numeric_limits<double>::infinity());
  }
  for (size_t i = 0; i < ns; ++i) {
    inIdx.push_back(x[i] * strides[i] + k[i] * dilations[i] - readPads[i]);
    outIdx.push_back(x[i]);
    outShape.emplace_back(sizes[i].output);
    con.add_constraint(k[i] < window[i]);
  }
  inIdx.push_back(c);
  outIdx.push_back(c);
  outShape.emplace_back(shape[rank - 1]);
  con.outShape(outShape).outAccess(outIdx);
  if (mode == PoolMode::Max) {
    con.max(in(inIdx));
    return storage(con.build());
  }
  con.sum(in(inIdx));
  Tensor total = storage(con.build());
  if (o.countIncludePad && !o.ceilMode) {
    int64_t count = 1;
    for (int64_t w : window)
      count *= w;
    return total / static_cast<double>(count);
  }
  // counts[x...] = product over dimensions of the window elements inside.
  std::vector<int64_t> countShape;
  int64_t numPositions = 1;
  for (const SpatialSize &s : sizes) {
    countShape.push_back(s.output);
    numPositions *= s.output;
  }
  std::vector<double> counts(numPositions, 1.0);
  for (int64_t p = 0; p < numPositions; ++p) {
    int64_t rest = p;
    for (int64_t i = static_cast<int64_t>(ns) - 1; i >= 0; --i) {
      int64_t xi = rest % sizes[i].output;
      rest /= sizes[i].output;
      int64_t inside = 0;
      // With countIncludePad, the explicit padding counts as inside.
      int64_t lo = o.countIncludePad ? -countPads[i] : 0;
      int64_t hi = shape[1 + i] + (o.countIncludePad ? countPads[ns + i] : 0);
      for (int64_t kk = 0; kk < window[i]; ++kk) {
        int64_t pos = xi * strides[i] + kk * dilations[i] - sizes[i].padBefore;
        inside += pos >= lo && pos < hi;
      }
      counts[p] *= static_cast<double>(inside);
    }
  }
  if (o.layout == DataLayout::NXC)
    countShape.push_back(1);
  return total / floatConstant(total.getDType(), countShape, counts);
}

Tensor plaidml::op::global_pool(const Tensor &input, PoolMode mode,
                                DataLayout layout) {
  int64_t rank = input.getRank();
  if (rank < 3)
    throw Error("global pool: the input " + input.str() +
                " has no spatial dimensions");
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < rank - 2; ++i)
    axes.push_back(layout == DataLayout::NXC ? 1 + i : 2 + i);
  return reduce(input,
                mode == PoolMode::Max ? ReduceKind::Max : ReduceKind::Mean,
                axes, true);
}
