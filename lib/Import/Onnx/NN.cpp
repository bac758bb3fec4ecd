//===- NN.cpp - ONNX convolutions, pooling, products, normalizations ------===//
//
// Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool,
// GlobalMaxPool, Gemm, MatMul, BatchNormalization, LayerNormalization,
// InstanceNormalization and Dropout (inference): ONNX's NCHW activations
// and OIHW filters map to the op library's NCX layout and OIX filters.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <cmath>

using namespace plaidml;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;
namespace op = plaidml::op;

/// auto_pad as the op library's padding mode (NOTSET is explicit pads).
static op::Padding autoPad(NodeContext &ctx) {
  std::string s = ctx.attrString("auto_pad", "NOTSET");
  if (s == "NOTSET")
    return op::Padding::Explicit;
  if (s == "VALID")
    return op::Padding::Valid;
  if (s == "SAME_UPPER")
    return op::Padding::SameUpper;
  if (s == "SAME_LOWER")
    return op::Padding::SameLower;
  ctx.unsupported("auto_pad '" + s + "'");
}

static size_t spatialRank(NodeContext &ctx, int64_t r) {
  if (r < 3 || r > 5)
    ctx.unsupported("input rank " + std::to_string(r) +
                    " (1 to 3 spatial dimensions are supported)");
  return static_cast<size_t>(r - 2);
}

static size_t spatialRank(NodeContext &ctx, const Tensor &x) {
  return spatialRank(ctx, x.getRank());
}

/// The `pads` attribute (zeros when absent), checked to have 2 * n entries.
static std::vector<int64_t> padsAttr(NodeContext &ctx, size_t n) {
  std::vector<int64_t> pads = ctx.attrInts("pads", std::vector<int64_t>(2 * n));
  if (pads.size() != 2 * n)
    ctx.fail("pads has " + std::to_string(pads.size()) + " entries, " +
             std::to_string(2 * n) + " expected");
  for (int64_t p : pads)
    if (p < 0)
      ctx.unsupported("negative pads");
  return pads;
}

static void checkKernelShape(NodeContext &ctx, const Tensor &w, size_t n) {
  std::vector<int64_t> ks = ctx.attrInts("kernel_shape");
  if (ks.empty())
    return;
  std::vector<int64_t> shape = w.getShape();
  for (size_t i = 0; i < n; ++i)
    if (i >= ks.size() || ks[i] != shape[2 + i])
      ctx.fail("kernel_shape does not match the weights " + w.str());
}

/// Whether a node's data input (input 0) is computed channels-last: the
/// import option is on and the input has a channels-last form or a
/// convolution, pool or normalization wants one anyway (`always`).
static bool channelsLast(NodeContext &ctx, bool always) {
  return ctx.channelsLastEnabled() && (always || ctx.isChannelsLast(0));
}

static void conv(NodeContext &ctx) {
  ctx.checkAttrs(
      {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
  size_t n = spatialRank(ctx, ctx.value(0).shape.size());
  const Value &wv = ctx.value(1);
  std::string weights = rt::describeShapeAndType(wv.shape, wv.dtype);
  if (wv.shape.size() != n + 2)
    ctx.fail("the weights " + weights + " do not have rank " +
             std::to_string(n + 2) + " as the input does");
  std::vector<int64_t> ks = ctx.attrInts("kernel_shape");
  if (!ks.empty() && (ks.size() != n ||
                      !std::equal(ks.begin(), ks.end(), wv.shape.begin() + 2)))
    ctx.fail("kernel_shape does not match the weights " + weights);
  op::ConvOptions o;
  o.strides = ctx.attrInts("strides");
  o.dilations = ctx.attrInts("dilations");
  o.padding = autoPad(ctx);
  if (o.padding == op::Padding::Explicit)
    o.pads = padsAttr(ctx, n);
  o.groups = ctx.attrInt("group", 1);
  if (ctx.has(2))
    o.bias = ctx.input(2);
  if (channelsLast(ctx, true)) {
    // Channels-last, with the OIHW weights permuted to HWIO (at import
    // when they are initializers): the output channels are contiguous in
    // both the output and the filter, so the code generators vectorize
    // them, whatever the size of the image.
    std::vector<int64_t> hwio;
    for (size_t a = 2; a < n + 2; ++a)
      hwio.push_back(static_cast<int64_t>(a));
    hwio.push_back(1);
    hwio.push_back(0);
    o.layout = op::DataLayout::NXC;
    o.filterLayout = op::FilterLayout::XIO;
    ctx.setOutputChannelsLast(0,
                              op::convolution(ctx.inputChannelsLast(0),
                                              ctx.inputPermuted(1, hwio), o));
    return;
  }
  o.layout = op::DataLayout::NCX;
  o.filterLayout = op::FilterLayout::OIX;
  ctx.setOutput(0, op::convolution(ctx.input(0), ctx.input(1), o));
}

static void convTranspose(NodeContext &ctx) {
  ctx.checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                  "output_padding", "output_shape", "pads", "strides"});
  Tensor x = ctx.input(0), w = ctx.input(1);
  size_t n = spatialRank(ctx, x);
  checkKernelShape(ctx, w, n);
  std::vector<int64_t> strides =
      ctx.attrInts("strides", std::vector<int64_t>(n, 1));
  std::vector<int64_t> dilations =
      ctx.attrInts("dilations", std::vector<int64_t>(n, 1));
  std::vector<int64_t> outPad =
      ctx.attrInts("output_padding", std::vector<int64_t>(n, 0));
  if (strides.size() != n || dilations.size() != n || outPad.size() != n)
    ctx.fail("strides, dilations and output_padding need one entry per "
             "spatial dimension");
  std::string autoPadMode = ctx.attrString("auto_pad", "NOTSET");
  std::vector<int64_t> xs = x.getShape(), ws = w.getShape();
  std::vector<int64_t> pads(2 * n, 0);
  std::vector<int64_t> outputShape = ctx.attrInts("output_shape");
  if (!outputShape.empty() && outputShape.size() == n + 2)
    outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
  if (!outputShape.empty() || autoPadMode == "SAME_UPPER" ||
      autoPadMode == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      int64_t full = strides[i] * (xs[2 + i] - 1) + outPad[i] +
                     (ws[2 + i] - 1) * dilations[i] + 1;
      int64_t want =
          outputShape.empty() ? xs[2 + i] * strides[i] : outputShape.at(i);
      // Negative when the output is larger than the full one: then the
      // side with a negative pad gets that many more outputs (zeros plus
      // the bias), as in ONNX's reference (which floors the halves).
      int64_t total = full - want;
      int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      bool upper = autoPadMode == "SAME_UPPER";
      pads[i] = upper ? half : total - half;
      pads[n + i] = total - pads[i];
    }
  } else if (autoPadMode == "NOTSET") {
    pads = padsAttr(ctx, n);
  } else if (autoPadMode != "VALID") {
    ctx.unsupported("auto_pad '" + autoPadMode + "'");
  }
  // Negative pads: computed without them, the output padded with zeros
  // there (before the bias is added).
  std::vector<int64_t> extend(2 * (n + 2), 0);
  bool extended = false;
  for (size_t i = 0; i < 2 * n; ++i) {
    if (pads[i] >= 0)
      continue;
    extended = true;
    extend[(i < n ? 0 : n + 2) + 2 + i % n] = -pads[i];
    pads[i] = 0;
  }
  op::ConvTransposeOptions o;
  o.strides = strides;
  o.dilations = dilations;
  o.pads = pads;
  o.outputPadding = outPad;
  o.layout = op::DataLayout::NCX;
  o.filterLayout = op::FilterLayout::OIX;
  int64_t groups = ctx.attrInt("group", 1);
  Tensor bias = ctx.has(2) ? ctx.input(2) : Tensor();
  if (groups == 1 && !extended) {
    o.bias = bias;
    ctx.setOutput(0, op::convolution_transpose(x, w, o));
    return;
  }
  Tensor y;
  if (groups == 1) {
    y = op::convolution_transpose(x, w, o);
  } else {
    // Groups: one transposed convolution per group, concatenated.
    if (groups < 1 || xs[1] % groups != 0)
      ctx.fail("group " + std::to_string(groups) + " does not divide the " +
               std::to_string(xs[1]) + " input channels");
    std::vector<int64_t> sizes(groups, xs[1] / groups);
    std::vector<Tensor> xg = op::split(x, 1, sizes),
                        wg = op::split(w, 0, sizes);
    std::vector<Tensor> outs;
    for (int64_t g = 0; g < groups; ++g)
      outs.push_back(op::convolution_transpose(xg[g], wg[g], o));
    y = op::concat(outs, 1);
  }
  if (extended)
    y = op::pad(y, extend);
  if (!bias.isNull()) {
    std::vector<int64_t> bshape(y.getRank(), 1);
    bshape[1] = bias.getShape()[0];
    y = y + edsl::reshape(bias, bshape);
  }
  ctx.setOutput(0, y);
}

static void pool(NodeContext &ctx, op::PoolMode mode) {
  bool isMax = mode == op::PoolMode::Max;
  if (isMax)
    ctx.checkAttrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape",
                    "pads", "storage_order", "strides"});
  else
    ctx.checkAttrs({"auto_pad", "ceil_mode", "count_include_pad", "dilations",
                    "kernel_shape", "pads", "strides"});
  if (ctx.hasOutput(1))
    ctx.unsupported("output 'Indices'");
  size_t n = spatialRank(ctx, ctx.value(0).shape.size());
  op::PoolOptions o;
  o.window = ctx.attrInts("kernel_shape");
  if (o.window.size() != n)
    ctx.fail("kernel_shape needs one entry per spatial dimension");
  o.strides = ctx.attrInts("strides");
  o.dilations = ctx.attrInts("dilations");
  o.padding = autoPad(ctx);
  if (o.padding == op::Padding::Explicit)
    o.pads = padsAttr(ctx, n);
  o.countIncludePad = ctx.attrInt("count_include_pad", 0) != 0;
  o.ceilMode = ctx.attrInt("ceil_mode", 0) != 0;
  if (o.ceilMode && o.padding != op::Padding::Explicit)
    o.ceilMode = false; // auto_pad fixes the output size
  if (channelsLast(ctx, false)) {
    o.layout = op::DataLayout::NXC;
    ctx.setOutputChannelsLast(0, op::pool(ctx.inputChannelsLast(0), mode, o));
    return;
  }
  o.layout = op::DataLayout::NCX;
  ctx.setOutput(0, op::pool(ctx.input(0), mode, o));
}

static void globalPool(NodeContext &ctx, op::PoolMode mode) {
  ctx.checkAttrs({});
  spatialRank(ctx, ctx.value(0).shape.size());
  if (channelsLast(ctx, false)) {
    ctx.setOutputChannelsLast(0, op::global_pool(ctx.inputChannelsLast(0), mode,
                                                 op::DataLayout::NXC));
    return;
  }
  ctx.setOutput(0, op::global_pool(ctx.input(0), mode, op::DataLayout::NCX));
}

static void batchNorm(NodeContext &ctx) {
  ctx.checkAttrs(
      {"epsilon", "momentum", "training_mode", "spatial", "is_test"});
  double eps = ctx.attrFloat("epsilon", 1e-5);
  const Value &xv = ctx.value(0);
  size_t rank = xv.shape.size();
  if (ctx.attrInt("training_mode", 0) != 0) {
    // Training: normalized by the batch's own statistics (the population
    // variance over every axis but the channels'), and the running
    // statistics updated: input * momentum + batch * (1 - momentum).
    if (rank < 2)
      ctx.fail("the input needs a channel axis (rank 2 or more)");
    if (!rt::isFloatDType(xv.dtype))
      ctx.unsupported("a non-float input");
    double momentum = ctx.attrFloat("momentum", 0.9);
    Tensor x = ctx.input(0);
    std::vector<int64_t> axes{0};
    for (int64_t a = 2; a < static_cast<int64_t>(rank); ++a)
      axes.push_back(a);
    Tensor mean = op::mean(x, axes);
    std::vector<int64_t> along(rank, 1);
    along[1] = xv.shape[1];
    Tensor centered = x - edsl::reshape(mean, along);
    Tensor var = op::mean(centered * centered, axes);
    ctx.setOutput(
        0, op::batch_norm(x, mean, var, ctx.input(1), ctx.input(2), eps, 1));
    if (ctx.hasOutput(1))
      ctx.setOutput(1, ctx.input(3) * momentum + mean * (1 - momentum));
    if (ctx.hasOutput(2))
      ctx.setOutput(2, ctx.input(4) * momentum + var * (1 - momentum));
    return;
  }
  if (ctx.hasOutput(1) || ctx.hasOutput(2))
    ctx.unsupported("outputs running_mean and running_var without "
                    "training_mode");
  bool cl = rank >= 3 && rank <= 5 && channelsLast(ctx, false);
  // Parameters known at import (inference): y = x * scale + shift with
  // scale = gamma / sqrt(var + eps) and shift = beta - mean * scale
  // computed here, one multiply-add per element instead of a subtraction,
  // a division, a multiplication and an addition.
  bool known = rt::isFloatDType(xv.dtype) && rank >= 2;
  for (size_t i = 1; known && i <= 4; ++i)
    known = ctx.isConstant(i) && ctx.value(i).shape.size() == 1 &&
            ctx.value(i).shape[0] == xv.shape[1];
  if (known) {
    int64_t c = xv.shape[1];
    const rt::HostArray &gamma = ctx.constant(1, "scale"),
                        &beta = ctx.constant(2, "B"),
                        &mean = ctx.constant(3, "input_mean"),
                        &var = ctx.constant(4, "input_var");
    rt::HostArray scale = rt::makeArray(xv.dtype, {c}, {}),
                  shift = rt::makeArray(xv.dtype, {c}, {});
    for (int64_t i = 0; i < c; ++i) {
      double s = rt::getElementAsDouble(gamma, i) /
                 std::sqrt(rt::getElementAsDouble(var, i) + eps);
      rt::setElementFromDouble(scale, i, s);
      rt::setElementFromDouble(shift, i,
                               rt::getElementAsDouble(beta, i) -
                                   rt::getElementAsDouble(mean, i) * s);
    }
    Tensor s = ctx.hostTensor(scale, "scale"),
           t = ctx.hostTensor(shift, "shift");
    if (cl) {
      ctx.setOutputChannelsLast(0, ctx.inputChannelsLast(0) * s + t);
      return;
    }
    std::vector<int64_t> along(rank - 1, 1);
    along[0] = c;
    ctx.setOutput(0, ctx.input(0) * edsl::reshape(s, along) +
                         edsl::reshape(t, along));
    return;
  }
  if (cl) {
    ctx.setOutputChannelsLast(
        0, op::batch_norm(ctx.inputChannelsLast(0), ctx.input(3), ctx.input(4),
                          ctx.input(1), ctx.input(2), eps, -1));
    return;
  }
  ctx.setOutput(0, op::batch_norm(ctx.input(0), ctx.input(3), ctx.input(4),
                                  ctx.input(1), ctx.input(2), eps, 1));
}

static void layerNorm(NodeContext &ctx) {
  ctx.checkAttrs({"axis", "epsilon", "stash_type"});
  Tensor x = ctx.input(0);
  int64_t rank = x.getRank();
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", -1), rank);
  int64_t stash = ctx.attrInt("stash_type", 1);
  DType type = x.getDType();
  if (!rt::isFloatDType(type))
    ctx.unsupported("a non-float input");
  Tensor xs = x;
  if (stash == 1 && type != DType::f32 && type != DType::f64)
    xs = edsl::cast(x, DType::f32);
  else if (stash != 1 && stash != toOnnxType(type))
    ctx.unsupported("stash_type " + std::to_string(stash));
  std::vector<int64_t> axes;
  for (int64_t a = axis; a < rank; ++a)
    axes.push_back(a);
  Tensor mean = op::mean(xs, axes, true);
  Tensor d = xs - mean;
  Tensor var = op::mean(d * d, axes, true);
  Tensor inv = 1.0 / edsl::sqrt(var + ctx.attrFloat("epsilon", 1e-5));
  Tensor y = d * inv;
  if (y.getDType() != type)
    y = edsl::cast(y, type);
  y = y * ctx.input(1);
  if (ctx.has(2))
    y = y + ctx.input(2);
  ctx.setOutput(0, y);
  ctx.setOutput(1, mean);
  ctx.setOutput(2, inv);
}

void plaidml::onnx::detail::registerNNOps() {
  registerOp("Conv", {1, 11, 22}, conv);
  registerOp("ConvTranspose", {1, 11, 22}, convTranspose);
  registerOp("MaxPool", {1, 8, 10, 11, 12, 22}, [](NodeContext &ctx) {
    if (ctx.attrInt("storage_order", 0) != 0)
      ctx.unsupported("storage_order 1");
    pool(ctx, op::PoolMode::Max);
  });
  registerOp("AveragePool", {1, 7, 10, 11, 19, 22}, [](NodeContext &ctx) {
    if (ctx.version() < 19 && ctx.hasAttr("dilations"))
      ctx.fail("dilations needs AveragePool-19");
    pool(ctx, op::PoolMode::Average);
  });
  registerOp("GlobalAveragePool", {1, 22},
             [](NodeContext &ctx) { globalPool(ctx, op::PoolMode::Average); });
  registerOp("GlobalMaxPool", {1, 22},
             [](NodeContext &ctx) { globalPool(ctx, op::PoolMode::Max); });
  registerOp("Gemm", {1, 6, 7, 9, 11, 13}, [](NodeContext &ctx) {
    ctx.checkAttrs({"alpha", "beta", "transA", "transB"});
    bool transB = ctx.attrInt("transB", 0) != 0;
    // A fully connected layer's weights are usually stored N x K (transB):
    // an initializer is transposed to K x N at import, so that the outputs
    // are contiguous in the weights and the code generators vectorize them
    // (a dot product along K is a serial scalar sum on the CPU).
    Tensor b;
    if (transB && ctx.isConstant(1) && ctx.value(1).shape.size() == 2) {
      b = ctx.inputPermuted(1, {1, 0});
      transB = false;
    } else {
      b = ctx.input(1);
    }
    ctx.setOutput(
        0, op::gemm(ctx.input(0), b, ctx.has(2) ? ctx.input(2) : Tensor(),
                    ctx.attrFloat("alpha", 1.0), ctx.attrFloat("beta", 1.0),
                    ctx.attrInt("transA", 0) != 0, transB));
  });
  registerOp("MatMul", {1, 9, 13}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    ctx.setOutput(0, op::matmul(ctx.input(0), ctx.input(1)));
  });
  registerOp("BatchNormalization", {1, 6, 7, 9, 14, 15}, batchNorm);
  registerOp("LayerNormalization", {17}, layerNorm);
  registerOp("InstanceNormalization", {1, 6, 22}, [](NodeContext &ctx) {
    ctx.checkAttrs({"epsilon"});
    ctx.setOutput(0, op::instance_norm(ctx.input(0), ctx.input(1), ctx.input(2),
                                       ctx.attrFloat("epsilon", 1e-5),
                                       op::DataLayout::NCX));
  });
  registerOp("Dropout", {1, 6, 7, 10, 12, 13, 22}, [](NodeContext &ctx) {
    ctx.checkAttrs({"seed", "ratio", "is_test"});
    if (ctx.has(2)) {
      std::vector<int64_t> training = ctx.ints(2, "training_mode");
      if (!training.empty() && training[0] != 0) {
        double ratio = ctx.has(1)
                           ? rt::getElementAsDouble(ctx.constant(1, "ratio"), 0)
                           : 0.5;
        if (ratio != 0)
          ctx.unsupported("training_mode true (random dropout)");
      }
    }
    std::vector<int64_t> shape = ctx.value(0).shape;
    if (channelsLast(ctx, false))
      ctx.setOutputChannelsLast(0, ctx.inputChannelsLast(0));
    else
      ctx.setOutput(0, ctx.input(0));
    if (ctx.hasOutput(1)) {
      rt::HostArray ones = makeHostInts(DType::i1, shape,
                                        std::vector<int64_t>(
                                            [&] {
                                              int64_t e = 1;
                                              for (int64_t d : shape)
                                                e *= d;
                                              return e;
                                            }(),
                                            1));
      ctx.setHostOutput(1, std::move(ones));
    }
  });
}
