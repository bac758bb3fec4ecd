//===- Shape.cpp - ONNX shape and data-movement ops -----------------------===//
//
// Shape, Size, Constant, ConstantOfShape and Range give host values (known
// at import time); Reshape, Flatten, Transpose, Concat, Split, Slice,
// Gather, Squeeze, Unsqueeze, Pad, Expand and Tile map to the op library,
// reading their shape-like inputs (shape, starts, axes, pads, repeats) as
// import-time constants. On host inputs the importer folds them.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <algorithm>
#include <cmath>

using namespace plaidml;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;
namespace op = plaidml::op;

static int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The axes of an op that takes them as an attribute before `inputSince`
/// and as input `index` from then on.
static std::vector<int64_t> axesOf(NodeContext &ctx, int64_t inputSince,
                                   size_t index) {
  if (ctx.version() < inputSince)
    return ctx.attrInts("axes");
  if (!ctx.has(index))
    return {};
  return ctx.ints(index, "axes");
}

/// An empty result: a host value PlaidML programs never hold (shape
/// computations such as x.shape[:0]); using it as tensor data fails.
static void emptyResult(NodeContext &ctx, size_t i, DType dtype,
                        const std::vector<int64_t> &shape) {
  rt::HostArray a;
  a.dtype = dtype;
  a.shape = shape;
  ctx.setHostOutput(i, std::move(a));
}

static void reshape(NodeContext &ctx) {
  ctx.checkAttrs({"allowzero"});
  Tensor x = ctx.input(0);
  std::vector<int64_t> shape = ctx.ints(1, "shape");
  bool allowZero = ctx.attrInt("allowzero", 0) != 0;
  std::vector<int64_t> in = x.getShape();
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowZero) {
      if (i >= in.size())
        ctx.fail("shape entry " + std::to_string(i) +
                 " copies a dimension the input does not have");
      shape[i] = in[i];
    }
  }
  ctx.setOutput(0, op::reshape(x, shape));
}

static void squeeze(NodeContext &ctx) {
  ctx.checkAttrs({"axes"});
  Tensor x = ctx.input(0);
  std::vector<int64_t> axes = axesOf(ctx, 13, 1);
  for (int64_t &a : axes)
    a = normAxis(ctx, a, x.getRank());
  ctx.setOutput(0, op::squeeze(x, axes));
}

static void unsqueeze(NodeContext &ctx) {
  ctx.checkAttrs({"axes"});
  Tensor x = ctx.input(0);
  std::vector<int64_t> axes = axesOf(ctx, 13, 1);
  if (axes.empty())
    ctx.fail("axes is missing");
  int64_t outRank = x.getRank() + static_cast<int64_t>(axes.size());
  for (int64_t &a : axes)
    a = normAxis(ctx, a, outRank);
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    ctx.fail("axes has duplicates");
  std::vector<int64_t> shape, in = x.getShape();
  size_t j = 0;
  for (int64_t i = 0; i < outRank; ++i) {
    if (std::binary_search(axes.begin(), axes.end(), i))
      shape.push_back(1);
    else
      shape.push_back(in[j++]);
  }
  ctx.setOutput(0, edsl::reshape(x, shape));
}

static void concat(NodeContext &ctx) {
  ctx.checkAttrs({"axis"});
  if (!ctx.hasAttr("axis"))
    ctx.fail("attribute 'axis' is missing");
  // Empty pieces add nothing.
  std::vector<size_t> pieces;
  bool anyChannelsLast = false;
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (ctx.has(i) && numElements(ctx.value(i).shape) != 0) {
      pieces.push_back(i);
      anyChannelsLast |= ctx.isChannelsLast(i);
    }
  if (pieces.empty())
    ctx.unsupported("concatenation of empty tensors only");
  int64_t rank = static_cast<int64_t>(ctx.value(pieces[0]).shape.size());
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", 0), rank);
  // Channels-last pieces concatenate channels-last (the axis moved with
  // the permutation), the others are permuted to join them.
  bool cl =
      anyChannelsLast && ctx.channelsLastEnabled() && rank >= 3 && rank <= 5;
  std::vector<Tensor> xs;
  for (size_t i : pieces)
    xs.push_back(cl ? ctx.inputChannelsLast(i) : ctx.input(i));
  if (cl) {
    int64_t clAxis = channelsLastAxis(axis, rank);
    ctx.setOutputChannelsLast(0,
                              xs.size() == 1 ? xs[0] : op::concat(xs, clAxis));
    return;
  }
  ctx.setOutput(0, xs.size() == 1 ? xs[0] : op::concat(xs, axis));
}

static void split(NodeContext &ctx) {
  ctx.checkAttrs({"axis", "split", "num_outputs"});
  const Value &xv = ctx.value(0);
  std::vector<int64_t> xShape = xv.shape;
  int64_t rank = static_cast<int64_t>(xShape.size());
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", 0), rank);
  int64_t dim = xShape[axis];
  std::vector<int64_t> sizes;
  if (ctx.version() < 13)
    sizes = ctx.attrInts("split");
  else if (ctx.has(1))
    sizes = ctx.ints(1, "split");
  int64_t n = static_cast<int64_t>(ctx.numOutputs());
  if (sizes.empty()) {
    int64_t parts = ctx.attrInt("num_outputs", n);
    if (parts != n)
      ctx.fail("num_outputs is " + std::to_string(parts) +
               " but the node has " + std::to_string(n) + " outputs");
    if (ctx.version() >= 18 && ctx.hasAttr("num_outputs")) {
      int64_t each = (dim + parts - 1) / parts;
      for (int64_t i = 0; i < parts; ++i)
        sizes.push_back(std::max<int64_t>(0, std::min(each, dim - i * each)));
    } else {
      if (dim % parts != 0)
        ctx.fail("dimension " + std::to_string(dim) + " does not split into " +
                 std::to_string(parts) + " equal parts");
      sizes.assign(parts, dim / parts);
    }
  }
  if (static_cast<int64_t>(sizes.size()) != n)
    ctx.fail("split has " + std::to_string(sizes.size()) +
             " entries but the node has " + std::to_string(n) + " outputs");
  // Empty pieces are host values; the op library splits the rest.
  std::vector<int64_t> nonEmpty;
  for (int64_t s : sizes)
    if (s != 0)
      nonEmpty.push_back(s);
  // A channels-last input splits channels-last, along the axis's
  // channels-last position; the pieces stay channels-last.
  bool cl = rank >= 3 && rank <= 5 && ctx.channelsLastEnabled() &&
            ctx.isChannelsLast(0);
  Tensor x = cl ? ctx.inputChannelsLast(0) : ctx.input(0);
  int64_t at = cl ? channelsLastAxis(axis, rank) : axis;
  std::vector<Tensor> parts = nonEmpty.size() == 1 ? std::vector<Tensor>{x}
                                                   : op::split(x, at, nonEmpty);
  for (size_t i = 0, j = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) {
      std::vector<int64_t> shape = xShape;
      shape[axis] = 0;
      emptyResult(ctx, i, xv.dtype, shape);
    } else if (cl) {
      ctx.setOutputChannelsLast(i, parts[j++]);
    } else {
      ctx.setOutput(i, parts[j++]);
    }
  }
}

static void slice(NodeContext &ctx) {
  ctx.checkAttrs({});
  const Value &xv = ctx.value(0);
  int64_t rank = static_cast<int64_t>(xv.shape.size());
  std::vector<int64_t> starts = ctx.ints(1, "starts"),
                       ends = ctx.ints(2, "ends");
  std::vector<int64_t> axes, steps;
  if (ctx.has(3))
    axes = ctx.ints(3, "axes");
  if (ctx.has(4))
    steps = ctx.ints(4, "steps");
  if (starts.size() != ends.size())
    ctx.fail("starts and ends differ in length");
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  for (int64_t s : steps)
    if (s == 0)
      ctx.fail("a step is 0");
  for (int64_t &a : axes)
    a = normAxis(ctx, a, rank);
  // The op library slices every axis it is given; keep ONNX's INT64 limits
  // within range.
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t dim = xv.shape[axes[i]];
    starts[i] = std::clamp<int64_t>(starts[i], -dim - 1, dim + 1);
    ends[i] = std::clamp<int64_t>(ends[i], -dim - 1, dim + 1);
    if (steps[i] < 0 && ends[i] < -dim)
      ends[i] = -dim - 1;
  }
  // The output shape, for the empty case the op library refuses.
  std::vector<int64_t> outShape = xv.shape;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t dim = outShape[axes[i]];
    auto clampIndex = [&](int64_t v, bool isStart) {
      if (v < 0)
        v += dim;
      if (steps[i] > 0)
        return std::clamp<int64_t>(v, 0, dim);
      return std::clamp<int64_t>(v, -1, dim - 1);
    };
    int64_t b = clampIndex(starts[i], true), e = clampIndex(ends[i], false);
    int64_t n = steps[i] > 0 ? (e - b + steps[i] - 1) / steps[i]
                             : (b - e - steps[i] - 1) / -steps[i];
    outShape[axes[i]] = std::max<int64_t>(n, 0);
  }
  if (numElements(outShape) == 0)
    return emptyResult(ctx, 0, xv.dtype, outShape);
  if (rank >= 3 && rank <= 5 && ctx.channelsLastEnabled() &&
      ctx.isChannelsLast(0)) {
    // Channels-last: the same slices, each axis at its channels-last
    // position.
    std::vector<int64_t> at;
    for (int64_t a : axes)
      at.push_back(channelsLastAxis(a, rank));
    ctx.setOutputChannelsLast(
        0, op::slice(ctx.inputChannelsLast(0), starts, ends, at, steps));
    return;
  }
  ctx.setOutput(0, op::slice(ctx.input(0), starts, ends, axes, steps));
}

static void gather(NodeContext &ctx) {
  ctx.checkAttrs({"axis"});
  Tensor x = ctx.input(0), idx = ctx.input(1);
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", 0), x.getRank());
  if (rt::isFloatDType(idx.getDType()))
    ctx.fail("indices must be integers");
  int64_t dim = x.getShape()[axis];
  // Negative indices count from the end.
  Tensor fixed = edsl::select(idx < 0, idx + dim, idx);
  ctx.setOutput(0, op::gather(x, fixed, axis));
}

static void pad(NodeContext &ctx) {
  ctx.checkAttrs({"mode", "pads", "value"});
  int64_t rank = static_cast<int64_t>(ctx.value(0).shape.size());
  std::string mode = ctx.attrString("mode", "constant");
  op::PadMode m;
  if (mode == "constant")
    m = op::PadMode::Constant;
  else if (mode == "reflect")
    m = op::PadMode::Reflect;
  else if (mode == "edge")
    m = op::PadMode::Edge;
  else if (mode == "wrap")
    m = op::PadMode::Wrap;
  else
    ctx.unsupported("mode '" + mode + "'");
  std::vector<int64_t> pads;
  double value = 0;
  if (ctx.version() < 11) {
    pads = ctx.attrInts("pads");
    value = ctx.attrFloat("value", 0.0);
  } else {
    pads = ctx.ints(1, "pads");
    if (ctx.has(2)) {
      const rt::HostArray &v = ctx.constant(2, "constant_value");
      if (v.getNumElements() != 1)
        ctx.fail("constant_value must be a scalar");
      value = rt::getElementAsDouble(v, 0);
    }
  }
  std::vector<int64_t> axes;
  if (ctx.has(3))
    axes = ctx.ints(3, "axes");
  std::vector<int64_t> full(2 * rank, 0);
  if (axes.empty()) {
    if (static_cast<int64_t>(pads.size()) != 2 * rank)
      ctx.fail("pads has " + std::to_string(pads.size()) +
               " entries for rank " + std::to_string(rank));
    full = pads;
  } else {
    if (pads.size() != 2 * axes.size())
      ctx.fail("pads needs two entries per axis");
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = normAxis(ctx, axes[i], rank);
      full[a] = pads[i];
      full[rank + a] = pads[axes.size() + i];
    }
  }
  for (int64_t p : full)
    if (p < 0)
      ctx.unsupported("negative pads");
  if (rank >= 3 && rank <= 5 && ctx.channelsLastEnabled() &&
      ctx.isChannelsLast(0)) {
    // Padding does not care about the order: the pads follow the axes.
    std::vector<int64_t> perm = toChannelsLast(rank), permuted(2 * rank);
    for (int64_t j = 0; j < rank; ++j) {
      permuted[j] = full[perm[j]];
      permuted[rank + j] = full[rank + perm[j]];
    }
    ctx.setOutputChannelsLast(
        0, op::pad(ctx.inputChannelsLast(0), permuted, m, value));
    return;
  }
  ctx.setOutput(0, op::pad(ctx.input(0), full, m, value));
}

static void expand(NodeContext &ctx) {
  ctx.checkAttrs({});
  Tensor x = ctx.input(0);
  std::vector<int64_t> shape = ctx.ints(1, "shape");
  std::vector<int64_t> in = x.getShape();
  size_t rank = std::max(shape.size(), in.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i + in.size() >= rank ? in[i + in.size() - rank] : 1;
    int64_t b = i + shape.size() >= rank ? shape[i + shape.size() - rank] : 1;
    if (a != b && a != 1 && b != 1)
      ctx.fail("shape does not broadcast with the input " + x.str());
    out[i] = a == 1 ? b : a;
  }
  ctx.setOutput(0, op::broadcast_to(x, out));
}

static void constantNode(NodeContext &ctx) {
  ctx.checkAttrs({"value", "value_float", "value_floats", "value_int",
                  "value_ints", "sparse_value", "value_string",
                  "value_strings"});
  if (const ::onnx::TensorProto *t = ctx.attrTensor("value")) {
    try {
      ctx.setHostOutput(0, tensorFromProto(*t, ""));
    } catch (const ImportError &e) {
      ctx.fail(e.what());
    }
  } else if (ctx.hasAttr("value_float")) {
    ctx.setHostOutput(
        0, rt::makeArray(DType::f32, {}, {ctx.attrFloat("value_float", 0)}));
  } else if (ctx.hasAttr("value_floats")) {
    std::vector<double> v = ctx.attrFloats("value_floats");
    ctx.setHostOutput(0, rt::makeArray(DType::f32, {(int64_t)v.size()}, v));
  } else if (ctx.hasAttr("value_int")) {
    ctx.setHostOutput(
        0, makeHostInts(DType::si64, {}, {ctx.attrInt("value_int", 0)}));
  } else if (ctx.hasAttr("value_ints")) {
    std::vector<int64_t> v = ctx.attrInts("value_ints");
    ctx.setHostOutput(0, makeHostInts(DType::si64, {(int64_t)v.size()}, v));
  } else {
    ctx.unsupported("constant kind (sparse or string)");
  }
}

static void constantOfShape(NodeContext &ctx) {
  ctx.checkAttrs({"value"});
  std::vector<int64_t> shape = ctx.ints(0, "shape");
  rt::HostArray value = rt::makeArray(DType::f32, {}, {0.0});
  if (const ::onnx::TensorProto *t = ctx.attrTensor("value")) {
    try {
      value = tensorFromProto(*t, "");
    } catch (const ImportError &e) {
      ctx.fail(e.what());
    }
    if (value.getNumElements() != 1)
      ctx.fail("value must hold one element");
  }
  for (int64_t d : shape)
    if (d < 0)
      ctx.fail("negative dimension in shape");
  int64_t n = numElements(shape);
  if (n <= (1 << 16)) {
    rt::HostArray a;
    a.dtype = value.dtype;
    a.shape = shape;
    size_t size = rt::getDTypeSize(a.dtype);
    a.bytes.resize(n * size);
    for (int64_t i = 0; i < n; ++i)
      std::copy(value.bytes.begin(), value.bytes.begin() + size,
                a.bytes.begin() + i * size);
    ctx.setHostOutput(0, std::move(a));
    return;
  }
  value.shape.clear();
  ctx.setOutput(0, op::broadcast_to(edsl::Constant(value), shape));
}

static void range(NodeContext &ctx) {
  ctx.checkAttrs({});
  const rt::HostArray &s = ctx.constant(0, "start");
  const rt::HostArray &l = ctx.constant(1, "limit");
  const rt::HostArray &d = ctx.constant(2, "delta");
  if (s.getNumElements() != 1 || l.getNumElements() != 1 ||
      d.getNumElements() != 1)
    ctx.fail("start, limit and delta must be scalars");
  DType type = s.dtype;
  if (rt::isFloatDType(type)) {
    double start = rt::getElementAsDouble(s, 0),
           limit = rt::getElementAsDouble(l, 0),
           delta = rt::getElementAsDouble(d, 0);
    if (delta == 0)
      ctx.fail("delta is 0");
    int64_t n = std::max<int64_t>(
        0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i)
      v.push_back(start + i * delta);
    ctx.setHostOutput(0, rt::makeArray(type, {n}, v));
    return;
  }
  int64_t start = rt::getElementAsInt(s, 0), limit = rt::getElementAsInt(l, 0),
          delta = rt::getElementAsInt(d, 0);
  if (delta == 0)
    ctx.fail("delta is 0");
  std::vector<int64_t> v;
  for (int64_t x = start; delta > 0 ? x < limit : x > limit; x += delta)
    v.push_back(x);
  ctx.setHostOutput(0, makeHostInts(type, {(int64_t)v.size()}, v));
}

void plaidml::onnx::detail::registerShapeOps() {
  registerOp("Reshape", {1, 5, 13, 14, 19, 21, 23, 24, 25}, reshape);
  registerOp("Flatten", {1, 9, 11, 13, 21, 23, 24, 25}, [](NodeContext &ctx) {
    ctx.checkAttrs({"axis"});
    Tensor x = ctx.input(0);
    int64_t axis = ctx.attrInt("axis", 1);
    if (axis != x.getRank())
      axis = normAxis(ctx, axis, x.getRank());
    ctx.setOutput(0, op::flatten(x, axis));
  });
  registerOp("Transpose", {1, 13, 21, 23, 24, 25}, [](NodeContext &ctx) {
    ctx.checkAttrs({"perm"});
    std::vector<int64_t> perm = ctx.attrInts("perm");
    int64_t rank = static_cast<int64_t>(ctx.value(0).shape.size());
    if (perm.empty())
      for (int64_t a = rank - 1; a >= 0; --a)
        perm.push_back(a);
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    bool valid = static_cast<int64_t>(perm.size()) == rank;
    for (int64_t a = 0; valid && a < rank; ++a)
      valid = sorted[a] == a;
    if (valid && ctx.channelsLastEnabled() && ctx.isChannelsLast(0)) {
      // One permutation of the channels-last data (none for NCHW -> NHWC,
      // as models exported from TensorFlow have).
      std::vector<int64_t> back = fromChannelsLast(rank), composed;
      for (int64_t a : perm)
        composed.push_back(back[a]);
      ctx.setOutput(0, permuteTensor(ctx.inputChannelsLast(0), composed));
      return;
    }
    ctx.setOutput(0, op::transpose(ctx.input(0), perm));
  });
  registerOp("Concat", {1, 4, 11, 13}, concat);
  registerOp("Split", {1, 2, 11, 13, 18}, split);
  registerOp("Slice", {1, 10, 11, 13}, slice);
  registerOp("Gather", {1, 11, 13}, gather);
  registerOp("Squeeze", {1, 11, 13, 21, 23, 24, 25}, squeeze);
  registerOp("Unsqueeze", {1, 11, 13, 21, 23, 24, 25}, unsqueeze);
  registerOp("Pad", {1, 2, 11, 13, 18, 19, 21, 23, 24, 25}, pad);
  registerOp("Expand", {8, 13}, expand);
  registerOp("Tile", {1, 6, 13}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    ctx.setOutput(0, op::tile(ctx.input(0), ctx.ints(1, "repeats")));
  });
  // Range-27 adds f16 and bf16.
  registerOp("Range", {11, 27}, range);
  registerOp("Shape", {1, 13, 15, 19, 21, 23, 24, 25}, [](NodeContext &ctx) {
    ctx.checkAttrs({"start", "end"});
    std::vector<int64_t> shape = ctx.value(0).shape;
    int64_t rank = static_cast<int64_t>(shape.size());
    auto clampAxis = [&](int64_t a) {
      if (a < 0)
        a += rank;
      return std::clamp<int64_t>(a, 0, rank);
    };
    int64_t start = clampAxis(ctx.attrInt("start", 0));
    int64_t end = clampAxis(ctx.attrInt("end", rank));
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; ++i)
      dims.push_back(shape[i]);
    ctx.setHostOutput(0,
                      makeHostInts(DType::si64, {(int64_t)dims.size()}, dims));
  });
  registerOp("Size", {1, 13, 19, 21, 23, 24, 25}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    ctx.setHostOutput(
        0, makeHostInts(DType::si64, {}, {numElements(ctx.value(0).shape)}));
  });
  registerOp("Constant", {1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, constantNode);
  registerOp("ConstantOfShape", {9, 20, 21, 23, 24, 25}, constantOfShape);
}
