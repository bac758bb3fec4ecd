//===- Shape.cpp - Shape ops ----------------------------------------------===//
//
// Reshapes, transposes, concatenation, splitting, slicing with steps,
// squeeze/unsqueeze, broadcasting, tiling, repeating, gathering and one-hot.
// Data movement is an `assign` contraction: each output element is written
// by exactly one index point, and concatenation chains them through init.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

static std::vector<TensorDim> toDims(const std::vector<int64_t> &shape) {
  return std::vector<TensorDim>(shape.begin(), shape.end());
}

Tensor plaidml::op::reshape(const Tensor &x,
                            const std::vector<int64_t> &shape) {
  return edsl::reshape(x, shape);
}

Tensor plaidml::op::flatten(const Tensor &x, int64_t axis) {
  int64_t rank = x.getRank();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    throw Error("flatten: axis " + std::to_string(axis) +
                " is out of range for rank " + std::to_string(rank));
  std::vector<int64_t> shape = x.getShape();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= shape[i];
  return edsl::reshape(x, {outer, inner});
}

Tensor plaidml::op::transpose(const Tensor &x, std::vector<int64_t> perm) {
  int64_t rank = x.getRank();
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != rank)
    throw Error("transpose: the permutation has " +
                std::to_string(perm.size()) +
                " entries but the tensor has "
                "rank " +
                std::to_string(rank));
  std::vector<int64_t> axes = normalizeAxes(perm, rank, "transpose");
  (void)axes;
  std::vector<int64_t> shape = x.getShape(), outShape;
  std::vector<TensorIndex> idx = makeIndices(rank, "t"), outIdx;
  for (int64_t p : perm) {
    int64_t a = normalizeAxis(p, rank, "transpose");
    outShape.push_back(shape[a]);
    outIdx.push_back(idx[a]);
  }
  return Contraction("transpose")
      .outShape(toDims(outShape))
      .outAccess(outIdx)
      .assign(x(idx))
      .build();
}

/// x placed into `into` (or zeros of `shape`) at `offset` along `axis`.
static Tensor placeAt(const Tensor &x, const std::vector<int64_t> &shape,
                      int64_t axis, int64_t offset, const Tensor &into) {
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "p");
  std::vector<TensorIndex> outIdx = idx;
  outIdx[axis] = idx[axis] + offset;
  Contraction c("concat");
  c.outShape(toDims(shape)).outAccess(outIdx).assign(x(idx));
  if (!into.isNull())
    c.init(into);
  return c.build();
}

Tensor plaidml::op::concat(const std::vector<Tensor> &xs, int64_t axis) {
  if (xs.empty())
    throw Error("concat: no tensors");
  int64_t rank = xs[0].getRank();
  int64_t a = normalizeAxis(axis, rank, "concat");
  std::vector<int64_t> shape = xs[0].getShape();
  shape[a] = 0;
  DType dtype = xs[0].getDType();
  for (auto &x : xs) {
    std::vector<int64_t> s = x.getShape();
    if (static_cast<int64_t>(s.size()) != rank)
      throw Error("concat: rank mismatch: " + x.str() + " and " + xs[0].str());
    for (int64_t i = 0; i < rank; ++i)
      if (i != a && s[i] != shape[i])
        throw Error("concat: dimension " + std::to_string(i) + " of " +
                    x.str() + " differs from " + xs[0].str());
    if (x.getDType() != dtype)
      throw Error("concat: element types differ: " + x.str() + " and " +
                  xs[0].str());
    shape[a] += s[a];
  }
  if (xs.size() == 1)
    return xs[0];
  Tensor result;
  int64_t offset = 0;
  for (const Tensor &x : xs) {
    result = placeAt(x, shape, a, offset, result);
    offset += x.getShape()[a];
  }
  return result;
}

std::vector<Tensor> plaidml::op::split(const Tensor &x, int64_t axis,
                                       const std::vector<int64_t> &sizes) {
  int64_t a = normalizeAxis(axis, x.getRank(), "split");
  std::vector<int64_t> shape = x.getShape();
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0)
      throw Error("split: piece sizes must be positive, not " +
                  std::to_string(s));
    total += s;
  }
  if (total != shape[a])
    throw Error("split: the pieces sum to " + std::to_string(total) +
                " but dimension " + std::to_string(a) + " of " + x.str() +
                " is " + std::to_string(shape[a]));
  std::vector<Tensor> r;
  int64_t start = 0;
  for (int64_t s : sizes) {
    r.push_back(slice(x, {start}, {start + s}, {a}));
    start += s;
  }
  return r;
}

Tensor plaidml::op::slice(const Tensor &x, const std::vector<int64_t> &starts,
                          const std::vector<int64_t> &ends,
                          std::vector<int64_t> axes,
                          std::vector<int64_t> steps) {
  int64_t rank = x.getRank();
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() ||
      steps.size() != starts.size())
    throw Error("slice: starts, ends, axes and steps must have as many "
                "entries each");
  std::vector<int64_t> shape = x.getShape(), outShape = shape;
  std::vector<TensorIndex> idx = makeIndices(rank, "s"), inIdx = idx;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a = normalizeAxis(axes[k], rank, "slice");
    int64_t n = shape[a], step = steps[k];
    if (step == 0)
      throw Error("slice: step 0 along axis " + std::to_string(a));
    // NumPy's clamping of starts and ends.
    auto clampIndex = [&](int64_t v, bool isStart) {
      if (v < 0)
        v += n;
      if (step > 0)
        return std::clamp<int64_t>(v, 0, n);
      (void)isStart;
      return std::clamp<int64_t>(v, -1, n - 1);
    };
    int64_t start = clampIndex(starts[k], true);
    int64_t end = clampIndex(ends[k], false);
    int64_t count = step > 0 ? (end - start + step - 1) / step
                             : (start - end + (-step) - 1) / (-step);
    if (count <= 0)
      throw Error("slice: the slice along axis " + std::to_string(a) + " of " +
                  x.str() + " is empty");
    outShape[a] = count;
    inIdx[a] = idx[a] * step + start;
  }
  return Contraction("slice")
      .outShape(toDims(outShape))
      .outAccess(idx)
      .assign(x(inIdx))
      .build();
}

Tensor plaidml::op::squeeze(const Tensor &x, std::vector<int64_t> axes) {
  std::vector<int64_t> shape = x.getShape(), out;
  int64_t rank = x.getRank();
  std::vector<int64_t> as;
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i)
      if (shape[i] == 1)
        as.push_back(i);
  } else {
    as = normalizeAxes(axes, rank, "squeeze");
  }
  for (int64_t i = 0; i < rank; ++i) {
    bool drop = std::find(as.begin(), as.end(), i) != as.end();
    if (drop && shape[i] != 1)
      throw Error("squeeze: dimension " + std::to_string(i) + " of " + x.str() +
                  " is not 1");
    if (!drop)
      out.push_back(shape[i]);
  }
  return edsl::reshape(x, out);
}

Tensor plaidml::op::unsqueeze(const Tensor &x, std::vector<int64_t> axes) {
  int64_t outRank = x.getRank() + static_cast<int64_t>(axes.size());
  std::vector<int64_t> as = normalizeAxes(axes, outRank, "unsqueeze");
  if (axes.empty())
    return x;
  std::vector<int64_t> shape = x.getShape(), out;
  size_t next = 0;
  for (int64_t i = 0; i < outRank; ++i)
    out.push_back(
        std::find(as.begin(), as.end(), i) != as.end() ? 1 : shape[next++]);
  return edsl::reshape(x, out);
}

Tensor plaidml::op::broadcast_to(const Tensor &x,
                                 const std::vector<int64_t> &shape) {
  std::vector<int64_t> in = x.getShape();
  if (in.size() > shape.size())
    throw Error("broadcast_to: " + x.str() +
                " has more dimensions than the "
                "target shape");
  size_t lead = shape.size() - in.size();
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "b"), inIdx;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == shape[lead + i]) {
      inIdx.push_back(idx[lead + i]);
    } else if (in[i] == 1) {
      inIdx.emplace_back(0);
    } else {
      throw Error("broadcast_to: dimension " + std::to_string(i) + " of " +
                  x.str() + " does not broadcast to " +
                  std::to_string(shape[lead + i]));
    }
  }
  return Contraction("broadcast")
      .outShape(toDims(shape))
      .outAccess(idx)
      .assign(x(inIdx))
      .build();
}

Tensor plaidml::op::tile(const Tensor &x, const std::vector<int64_t> &reps) {
  std::vector<int64_t> shape = x.getShape();
  if (reps.size() != shape.size())
    throw Error("tile: reps has " + std::to_string(reps.size()) +
                " entries but " + x.str() + " has rank " +
                std::to_string(shape.size()));
  // out[r * N + i] = x[i] with the repetition r as an index.
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "t");
  std::vector<TensorIndex> rep = makeIndices(shape.size(), "r");
  std::vector<TensorIndex> outIdx;
  std::vector<int64_t> outShape;
  Contraction c("tile");
  for (size_t i = 0; i < shape.size(); ++i) {
    if (reps[i] <= 0)
      throw Error("tile: reps must be positive");
    outIdx.push_back(rep[i] * shape[i] + idx[i]);
    outShape.push_back(shape[i] * reps[i]);
    c.add_constraint(rep[i] < reps[i]);
  }
  return c.outShape(toDims(outShape)).outAccess(outIdx).assign(x(idx)).build();
}

Tensor plaidml::op::repeat(const Tensor &x, int64_t repeats, int64_t axis) {
  int64_t a = normalizeAxis(axis, x.getRank(), "repeat");
  if (repeats <= 0)
    throw Error("repeat: repeats must be positive");
  std::vector<int64_t> shape = x.getShape();
  std::vector<TensorIndex> idx = makeIndices(shape.size(), "e");
  std::vector<TensorIndex> outIdx = idx;
  TensorIndex r("r");
  outIdx[a] = idx[a] * repeats + r;
  shape[a] *= repeats;
  return Contraction("repeat")
      .outShape(toDims(shape))
      .outAccess(outIdx)
      .assign(x(idx))
      .add_constraint(r < repeats)
      .build();
}

Tensor plaidml::op::gather(const Tensor &x, const Tensor &indices,
                           int64_t axis) {
  return edsl::gather(x, indices, normalizeAxis(axis, x.getRank(), "gather"));
}

Tensor plaidml::op::one_hot(const Tensor &indices, int64_t depth, DType dtype,
                            double onValue, double offValue) {
  if (depth <= 0)
    throw Error("one_hot: depth must be positive");
  Tensor classes = edsl::index({depth}, 0, DType::si32);
  std::vector<int64_t> shape = indices.getShape();
  shape.push_back(1);
  Tensor hit = edsl::reshape(indices, shape) == classes;
  return edsl::select(hit, edsl::Constant(dtype, onValue),
                      edsl::Constant(dtype, offValue));
}
