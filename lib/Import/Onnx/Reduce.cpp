//===- Reduce.cpp - ONNX reductions, ArgMax and ArgMin --------------------===//
//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceLogSumExp with axes as
// an attribute (before opset 13 for ReduceSum, 18 for the others) or as an
// import-time input, keepdims and noop_with_empty_axes; ArgMax and ArgMin
// with select_last_index, returning INT64 indices.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <algorithm>

using namespace plaidml;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;
namespace op = plaidml::op;

namespace {
enum class Kind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  SumSquare,
  LogSum,
  LogSumExp
};
} // namespace

static void reduce(NodeContext &ctx, Kind kind, int64_t axesInputSince) {
  ctx.checkAttrs({"axes", "keepdims", "noop_with_empty_axes"});
  const Value &xv = ctx.value(0);
  int64_t rank = static_cast<int64_t>(xv.shape.size());
  // A channels-last input reduces channels-last (a squeeze-and-excitation
  // block's spatial mean), its axes renumbered.
  bool cl = rank >= 3 && rank <= 5 && ctx.channelsLastEnabled() &&
            ctx.isChannelsLast(0);
  Tensor x = cl ? ctx.inputChannelsLast(0) : ctx.input(0);
  std::vector<int64_t> axes;
  if (ctx.version() < axesInputSince)
    axes = ctx.attrInts("axes");
  else if (ctx.has(1))
    axes = ctx.ints(1, "axes");
  else if (ctx.hasAttr("axes"))
    ctx.fail("axes is an input from version " + std::to_string(axesInputSince));
  bool keep = ctx.attrInt("keepdims", 1) != 0;
  if (axes.empty() && ctx.attrInt("noop_with_empty_axes", 0) != 0) {
    if (cl)
      ctx.setOutputChannelsLast(0, x);
    else
      ctx.setOutput(0, x);
    return;
  }
  std::vector<int64_t> perm = toChannelsLast(rank);
  for (int64_t &a : axes) {
    a = normAxis(ctx, a, rank);
    if (cl)
      a = channelsLastAxis(a, rank);
  }
  for (int64_t d : x.getShape())
    if (d == 0)
      ctx.unsupported("reduction of an empty tensor");
  Tensor y;
  switch (kind) {
  case Kind::Sum:
    y = op::sum(x, axes, keep);
    break;
  case Kind::Mean:
    y = op::mean(x, axes, keep);
    break;
  case Kind::Max:
    y = op::max(x, axes, keep);
    break;
  case Kind::Min:
    y = op::min(x, axes, keep);
    break;
  case Kind::Prod:
    y = op::prod(x, axes, keep);
    break;
  case Kind::L1:
    y = op::sum(edsl::abs(x), axes, keep);
    break;
  case Kind::L2:
    y = edsl::sqrt(op::sum(x * x, axes, keep));
    break;
  case Kind::SumSquare:
    y = op::sum(x * x, axes, keep);
    break;
  case Kind::LogSum:
    y = edsl::log(op::sum(x, axes, keep));
    break;
  case Kind::LogSumExp: {
    Tensor m = op::max(x, axes, true);
    Tensor s = edsl::log(op::sum(edsl::exp(x - m), axes, true)) + m;
    y = keep ? s : op::squeeze(s, axes.empty() ? std::vector<int64_t>{} : axes);
    if (axes.empty() && !keep)
      y = edsl::reshape(s, {});
    break;
  }
  }
  if (y.getDType() != x.getDType())
    y = edsl::cast(y, x.getDType());
  if (!cl) {
    ctx.setOutput(0, y);
    return;
  }
  if (keep) {
    ctx.setOutputChannelsLast(0, y);
    return;
  }
  // Without keepdims the axes left are in channels-last order (original
  // axes `left`); in ONNX's order they are sorted.
  std::vector<int64_t> left, order;
  for (int64_t j = 0; j < rank; ++j)
    if (!axes.empty() && std::find(axes.begin(), axes.end(), j) == axes.end())
      left.push_back(perm[j]);
  std::vector<int64_t> sorted = left;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t a : sorted)
    order.push_back(std::find(left.begin(), left.end(), a) - left.begin());
  ctx.setOutput(0, permuteTensor(y, order));
}

static void argExtreme(NodeContext &ctx, bool isMax) {
  ctx.checkAttrs({"axis", "keepdims", "select_last_index"});
  Tensor x = ctx.input(0);
  int64_t rank = x.getRank();
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", 0), rank);
  bool keep = ctx.attrInt("keepdims", 1) != 0;
  bool last = ctx.attrInt("select_last_index", 0) != 0;
  Tensor y;
  if (last) {
    // The last extreme is the first one of the reversed axis.
    int64_t n = x.getShape()[axis];
    Tensor rev = op::slice(x, {-1}, {-n - 1}, {axis}, {-1});
    Tensor r =
        isMax ? op::argmax(rev, axis, keep) : op::argmin(rev, axis, keep);
    y = edsl::cast(Tensor(n - 1), r.getDType()) - r;
  } else {
    y = isMax ? op::argmax(x, axis, keep) : op::argmin(x, axis, keep);
  }
  ctx.setOutput(0, edsl::cast(y, DType::si64));
}

void plaidml::onnx::detail::registerReduceOps() {
  struct R {
    const char *name;
    Kind kind;
    std::vector<int64_t> history;
    int64_t axesInputSince;
  };
  std::vector<R> rs = {
      {"ReduceSum", Kind::Sum, {1, 11, 13}, 13},
      {"ReduceMean", Kind::Mean, {1, 11, 13, 18}, 18},
      {"ReduceMax", Kind::Max, {1, 11, 12, 13, 18, 20}, 18},
      {"ReduceMin", Kind::Min, {1, 11, 12, 13, 18, 20}, 18},
      {"ReduceProd", Kind::Prod, {1, 11, 13, 18}, 18},
      {"ReduceL1", Kind::L1, {1, 11, 13, 18}, 18},
      {"ReduceL2", Kind::L2, {1, 11, 13, 18}, 18},
      {"ReduceSumSquare", Kind::SumSquare, {1, 11, 13, 18}, 18},
      {"ReduceLogSum", Kind::LogSum, {1, 11, 13, 18}, 18},
      {"ReduceLogSumExp", Kind::LogSumExp, {1, 11, 13, 18}, 18},
  };
  for (const R &r : rs) {
    Kind kind = r.kind;
    int64_t since = r.axesInputSince;
    registerOp(r.name, r.history,
               [kind, since](NodeContext &ctx) { reduce(ctx, kind, since); });
  }
  registerOp("ArgMax", {1, 11, 12, 13},
             [](NodeContext &ctx) { argExtreme(ctx, true); });
  registerOp("ArgMin", {1, 11, 12, 13},
             [](NodeContext &ctx) { argExtreme(ctx, false); });
}
