//===- Resize.cpp - ONNX Resize -------------------------------------------===//
//
// Resize with every mode (nearest with its four rounding rules, linear,
// cubic with cubic_coeff_a and exclude_outside), the coordinate
// transformations half_pixel, half_pixel_symmetric, pytorch_half_pixel,
// align_corners and asymmetric, scales or sizes (keep_aspect_ratio_policy)
// and axes. The sizes are static, so for each resized axis the importer
// computes on the host, per output position, the source rows and their
// weights (edge rows repeat, as ONNX's reference pads with the edge), and
// the program gathers those rows and sums them weighted: one gather per tap
// and axis. tf_crop_and_resize and antialias are not supported.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <algorithm>
#include <cmath>

using namespace plaidml;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;
namespace op = plaidml::op;

namespace {
struct Taps {
  /// taps[k][o]: the k-th source row of output o, and its weight.
  std::vector<std::vector<int64_t>> index;
  std::vector<std::vector<double>> weight;
};
} // namespace

/// The source coordinate of output `o`. As in ONNX's reference, the output
/// length in the formulas is `scale * in`, not rounded (with sizes given,
/// scale is out / in, so it is `out`).
static double sourceCoordinate(NodeContext &ctx, const std::string &mode,
                               int64_t o, int64_t in, int64_t out,
                               double scale) {
  double outLength = scale * in;
  if (mode == "half_pixel")
    return (o + 0.5) / scale - 0.5;
  if (mode == "pytorch_half_pixel")
    return outLength > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (mode == "align_corners")
    return outLength == 1 ? 0.0
                          : static_cast<double>(o) * (in - 1) / (outLength - 1);
  if (mode == "asymmetric")
    return o / scale;
  if (mode == "half_pixel_symmetric") {
    double adjustment = out / (scale * in);
    double center = in / 2.0;
    double offset = center * (1 - adjustment);
    return offset + (o + 0.5) / scale - 0.5;
  }
  ctx.unsupported("coordinate_transformation_mode '" + mode + "'");
}

static Taps computeTaps(NodeContext &ctx, int64_t in, int64_t out,
                        double scale) {
  std::string mode = ctx.attrString("mode", "nearest");
  std::string coord =
      ctx.attrString("coordinate_transformation_mode",
                     ctx.version() < 11 ? "asymmetric" : "half_pixel");
  std::string nearest = ctx.attrString("nearest_mode", "round_prefer_floor");
  double a = ctx.attrFloat("cubic_coeff_a", -0.75);
  bool excludeOutside = ctx.attrInt("exclude_outside", 0) != 0;
  auto clampIndex = [&](int64_t i) {
    return std::clamp<int64_t>(i, 0, in - 1);
  };
  Taps t;
  int64_t numTaps = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    ctx.unsupported("mode '" + mode + "'");
  t.index.assign(numTaps, std::vector<int64_t>(out));
  t.weight.assign(numTaps, std::vector<double>(out));
  for (int64_t o = 0; o < out; ++o) {
    double x = sourceCoordinate(ctx, coord, o, in, out, scale);
    if (mode == "nearest") {
      double f = std::floor(x);
      double frac = x - f;
      int64_t i;
      if (nearest == "round_prefer_floor")
        i = static_cast<int64_t>(frac <= 0.5 ? f : f + 1);
      else if (nearest == "round_prefer_ceil")
        i = static_cast<int64_t>(frac < 0.5 ? f : f + 1);
      else if (nearest == "floor")
        i = static_cast<int64_t>(f);
      else if (nearest == "ceil")
        i = static_cast<int64_t>(std::ceil(x));
      else
        ctx.unsupported("nearest_mode '" + nearest + "'");
      t.index[0][o] = clampIndex(i);
      t.weight[0][o] = 1.0;
    } else if (mode == "linear") {
      double f = std::floor(x);
      double r = x - f;
      int64_t i = static_cast<int64_t>(f);
      t.index[0][o] = clampIndex(i);
      t.index[1][o] = clampIndex(i + 1);
      t.weight[0][o] = 1 - r;
      t.weight[1][o] = r;
    } else {
      double f = std::floor(x);
      double r = x - f;
      int64_t i = static_cast<int64_t>(f);
      double c[4] = {
          ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1,
          ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
          ((a * (2 - r) - 5 * a) * (2 - r) + 8 * a) * (2 - r) - 4 * a};
      double total = 0;
      for (int k = 0; k < 4; ++k) {
        int64_t src = i - 1 + k;
        if (excludeOutside && (src < 0 || src >= in))
          c[k] = 0;
        total += c[k];
      }
      for (int k = 0; k < 4; ++k) {
        t.index[k][o] = clampIndex(i - 1 + k);
        t.weight[k][o] = excludeOutside && total != 0 ? c[k] / total : c[k];
      }
    }
  }
  return t;
}

static void resize(NodeContext &ctx) {
  ctx.checkAttrs({"antialias", "axes", "coordinate_transformation_mode",
                  "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                  "keep_aspect_ratio_policy", "mode", "nearest_mode"});
  if (ctx.attrInt("antialias", 0) != 0)
    ctx.unsupported("antialias 1");
  const Value &xv = ctx.value(0);
  if (!rt::isFloatDType(xv.dtype))
    ctx.unsupported("a non-float input");
  int64_t rank = static_cast<int64_t>(xv.shape.size());
  std::vector<int64_t> inShape = xv.shape;
  std::vector<int64_t> axes = ctx.attrInts("axes");
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  for (int64_t &a : axes)
    a = normAxis(ctx, a, rank);

  std::vector<double> scales(rank, 1.0);
  std::vector<int64_t> outShape = inShape;
  size_t scalesInput = ctx.version() < 11 ? 1 : 2;
  bool haveSizes = ctx.version() >= 11 && ctx.has(3);
  bool haveScales = false;
  if (ctx.has(scalesInput)) {
    const rt::HostArray &s = ctx.constant(scalesInput, "scales");
    haveScales = s.getNumElements() > 0;
    if (haveScales) {
      if (s.getNumElements() != static_cast<int64_t>(axes.size()))
        ctx.fail("scales has " + std::to_string(s.getNumElements()) +
                 " entries for " + std::to_string(axes.size()) + " axes");
      for (size_t i = 0; i < axes.size(); ++i) {
        scales[axes[i]] = rt::getElementAsDouble(s, i);
        if (scales[axes[i]] <= 0)
          ctx.fail("scales must be positive");
        outShape[axes[i]] = static_cast<int64_t>(
            std::floor(inShape[axes[i]] * scales[axes[i]]));
      }
    }
  }
  if (haveSizes) {
    if (haveScales)
      ctx.fail("both scales and sizes are given");
    std::vector<int64_t> sizes = ctx.ints(3, "sizes");
    if (sizes.size() != axes.size())
      ctx.fail("sizes has " + std::to_string(sizes.size()) + " entries for " +
               std::to_string(axes.size()) + " axes");
    std::string policy = ctx.attrString("keep_aspect_ratio_policy", "stretch");
    if (policy == "stretch") {
      for (size_t i = 0; i < axes.size(); ++i) {
        outShape[axes[i]] = sizes[i];
        scales[axes[i]] = static_cast<double>(sizes[i]) / inShape[axes[i]];
      }
    } else if (policy == "not_larger" || policy == "not_smaller") {
      double s = policy == "not_larger" ? INFINITY : 0;
      for (size_t i = 0; i < axes.size(); ++i) {
        double r = static_cast<double>(sizes[i]) / inShape[axes[i]];
        s = policy == "not_larger" ? std::min(s, r) : std::max(s, r);
      }
      for (int64_t a : axes) {
        scales[a] = s;
        outShape[a] = static_cast<int64_t>(std::floor(inShape[a] * s + 0.5));
      }
    } else {
      ctx.unsupported("keep_aspect_ratio_policy '" + policy + "'");
    }
  } else if (!haveScales) {
    ctx.fail("neither scales nor sizes is given");
  }
  if (ctx.attrString("coordinate_transformation_mode", "") ==
      "tf_crop_and_resize")
    ctx.unsupported("coordinate_transformation_mode 'tf_crop_and_resize'");
  for (int64_t d : outShape)
    if (d <= 0)
      ctx.unsupported("an empty output");

  // A channels-last input resizes channels-last: the same taps, each axis
  // at its channels-last position (`at`).
  bool cl = rank >= 3 && rank <= 5 && ctx.channelsLastEnabled() &&
            ctx.isChannelsLast(0);
  auto at = [&](int64_t a) { return cl ? channelsLastAxis(a, rank) : a; };
  Tensor y = cl ? ctx.inputChannelsLast(0) : ctx.input(0);
  for (int64_t a : axes) {
    if (outShape[a] == inShape[a] && scales[a] == 1.0)
      continue;
    Taps t = computeTaps(ctx, inShape[a], outShape[a], scales[a]);
    std::vector<int64_t> wShape(rank, 1);
    wShape[at(a)] = outShape[a];
    Tensor sum;
    for (size_t k = 0; k < t.index.size(); ++k) {
      rt::HostArray idx = makeHostInts(DType::si32, {outShape[a]}, t.index[k]);
      Tensor rows = op::gather(y, edsl::Constant(idx), at(a));
      if (t.index.size() == 1) {
        sum = rows;
        break;
      }
      rt::HostArray w = rt::makeArray(y.getDType(), wShape, t.weight[k]);
      Tensor term = rows * edsl::Constant(w);
      sum = k == 0 ? term : sum + term;
    }
    y = sum;
  }
  if (cl)
    ctx.setOutputChannelsLast(0, y);
  else
    ctx.setOutput(0, y);
}

void plaidml::onnx::detail::registerResizeOps() {
  registerOp("Resize", {10, 11, 13, 18, 19}, resize);
}
