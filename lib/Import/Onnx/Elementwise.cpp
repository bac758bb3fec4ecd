//===- Elementwise.cpp - ONNX elementwise ops and activations -------------===//
//
// Unary math (Abs, Neg, Sqrt, Exp, Log, Erf, ...), the broadcasting binary
// arithmetic and comparison ops, the variadic Min/Max/Sum/Mean, Where, Cast,
// Clip and the activations (Relu, LeakyRelu, Sigmoid, HardSigmoid,
// HardSwish, Gelu, Elu, Softmax, LogSoftmax, ...), mapped to EDSL
// operators and op-library activations.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <cmath>

using namespace plaidml;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;
namespace op = plaidml::op;

static bool isFloat(DType d) { return rt::isFloatDType(d); }

static void requireFloat(NodeContext &ctx, const Tensor &x) {
  if (!isFloat(x.getDType()))
    ctx.unsupported(std::string("element type ") +
                    rt::getDTypeName(x.getDType()) + " (" + ctx.opType() +
                    " takes floats)");
}

/// Sets output 0 to `fn` of the node's inputs (a null tensor for an input
/// not given): channels-last when an input is stored so (docs/Onnx.md,
/// "Layouts"; elementwise ops do not care about the order of the data), else
/// in ONNX's order.
template <typename Fn> static void elementwise(NodeContext &ctx, Fn fn) {
  if (auto ins = ctx.elementwiseChannelsLast()) {
    ctx.setOutputChannelsLast(0, fn(*ins));
    return;
  }
  std::vector<Tensor> ins;
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    ins.push_back(ctx.has(i) ? ctx.input(i) : Tensor());
  ctx.setOutput(0, fn(ins));
}

using Inputs = const std::vector<Tensor> &;
using UnaryFn = Tensor (*)(const Tensor &);

static void unary(const char *name, std::vector<int64_t> history, UnaryFn fn,
                  bool floatOnly = true) {
  registerOp(name, std::move(history), [fn, floatOnly](NodeContext &ctx) {
    ctx.checkAttrs({});
    elementwise(ctx, [&](Inputs in) {
      if (floatOnly)
        requireFloat(ctx, in[0]);
      return fn(in[0]);
    });
  });
}

/// a and b with b converted to a's element type when they differ (ONNX
/// binary ops take one type, so a difference is only in folded integers).
static Tensor sameType(const Tensor &a, const Tensor &b) {
  return a.getDType() == b.getDType() ? b : edsl::cast(b, a.getDType());
}

using BinaryFn = Tensor (*)(const Tensor &, const Tensor &);

static void binary(const char *name, std::vector<int64_t> history,
                   BinaryFn fn) {
  registerOp(name, std::move(history), [fn](NodeContext &ctx) {
    if (ctx.version() < 7)
      ctx.unsupported("legacy broadcast attributes");
    ctx.checkAttrs({});
    elementwise(ctx,
                [&](Inputs in) { return fn(in[0], sameType(in[0], in[1])); });
  });
}

static Tensor powOp(NodeContext &ctx) {
  Tensor a = ctx.input(0), b = ctx.input(1);
  DType t = a.getDType();
  if (!isFloat(t)) {
    // An integer base: compute in f64 and convert back (exact for the
    // ranges ONNX tests use).
    Tensor r = edsl::pow(edsl::cast(a, DType::f64), edsl::cast(b, DType::f64));
    return edsl::cast(edsl::round(r), t);
  }
  return edsl::pow(a, sameType(a, b));
}

static void variadic(const char *name, std::vector<int64_t> history,
                     BinaryFn fn, bool mean = false) {
  registerOp(name, std::move(history), [fn, mean](NodeContext &ctx) {
    ctx.checkAttrs({});
    if (ctx.numInputs() == 0)
      ctx.fail("needs at least one input");
    elementwise(ctx, [&](Inputs in) {
      Tensor acc = in[0];
      for (size_t i = 1; i < in.size(); ++i)
        acc = fn(acc, sameType(acc, in[i]));
      if (mean)
        acc = acc / static_cast<double>(in.size());
      return acc;
    });
  });
}

static Tensor softmaxLike(NodeContext &ctx, bool log) {
  ctx.checkAttrs({"axis"});
  Tensor x = ctx.input(0);
  requireFloat(ctx, x);
  int64_t rank = x.getRank();
  if (ctx.version() >= 13) {
    int64_t axis = normAxis(ctx, ctx.attrInt("axis", -1), rank);
    return log ? op::log_softmax(x, axis) : op::softmax(x, axis);
  }
  // Before opset 13: the input is coerced to 2-D at `axis` (default 1).
  int64_t axis = normAxis(ctx, ctx.attrInt("axis", 1), rank);
  std::vector<int64_t> shape = x.getShape();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= shape[i];
  Tensor flat = edsl::reshape(x, {outer, inner});
  Tensor y = log ? op::log_softmax(flat, 1) : op::softmax(flat, 1);
  return edsl::reshape(y, shape);
}

static Tensor castTo(NodeContext &ctx, const Tensor &x, int64_t onnxType) {
  std::optional<DType> d = toDType(static_cast<int32_t>(onnxType));
  if (!d)
    ctx.unsupported("element type " +
                    onnxTypeName(static_cast<int32_t>(onnxType)));
  // Floats convert to integers toward zero (C's conversion).
  return x.getDType() == *d ? x : edsl::cast(x, *d);
}

void plaidml::onnx::detail::registerElementwiseOps() {
  unary("Abs", {1, 6, 13}, [](const Tensor &x) { return edsl::abs(x); }, false);
  unary("Neg", {1, 6, 13}, [](const Tensor &x) { return -x; }, false);
  unary("Sqrt", {1, 6, 13}, [](const Tensor &x) { return edsl::sqrt(x); });
  unary("Exp", {1, 6, 13}, [](const Tensor &x) { return edsl::exp(x); });
  unary("Log", {1, 6, 13}, [](const Tensor &x) { return edsl::log(x); });
  unary("Erf", {9, 13}, [](const Tensor &x) { return edsl::erf(x); });
  unary("Tanh", {1, 6, 13}, [](const Tensor &x) { return edsl::tanh(x); });
  unary("Sigmoid", {1, 6, 13},
        [](const Tensor &x) { return edsl::sigmoid(x); });
  unary(
      "Relu", {1, 6, 13, 14}, [](const Tensor &x) { return edsl::relu(x); },
      false);
  unary("Floor", {1, 6, 13}, [](const Tensor &x) { return edsl::floor(x); });
  unary("Ceil", {1, 6, 13}, [](const Tensor &x) { return edsl::ceil(x); });
  unary("Sin", {7}, [](const Tensor &x) { return edsl::sin(x); });
  unary("Cos", {7}, [](const Tensor &x) { return edsl::cos(x); });
  unary("Reciprocal", {1, 6, 13}, [](const Tensor &x) { return 1.0 / x; });
  unary(
      "Not", {1}, [](const Tensor &x) { return edsl::logical_not(x); }, false);
  unary("HardSwish", {14, 22},
        [](const Tensor &x) { return op::hard_swish(x); });
  unary("Softsign", {1, 22},
        [](const Tensor &x) { return x / (edsl::abs(x) + 1.0); });
  unary("Softplus", {1, 22}, [](const Tensor &x) {
    // log(1 + exp(x)), without overflow for large x.
    return edsl::relu(x) + edsl::log(edsl::exp(-edsl::abs(x)) + 1.0);
  });
  unary(
      "Sign", {9, 13},
      [](const Tensor &x) {
        Tensor zero = edsl::cast(Tensor(0), x.getDType());
        Tensor one = edsl::cast(Tensor(1), x.getDType());
        return edsl::select(x > zero, one, edsl::select(x < zero, -one, zero));
      },
      false);

  binary("Add", {1, 6, 7, 13, 14},
         [](const Tensor &a, const Tensor &b) { return a + b; });
  binary("Sub", {1, 6, 7, 13, 14},
         [](const Tensor &a, const Tensor &b) { return a - b; });
  binary("Mul", {1, 6, 7, 13, 14},
         [](const Tensor &a, const Tensor &b) { return a * b; });
  // Integers divide toward zero in the Tile dialect, as in ONNX.
  binary("Div", {1, 6, 7, 13, 14},
         [](const Tensor &a, const Tensor &b) { return a / b; });
  binary("Equal", {1, 7, 11, 13, 19},
         [](const Tensor &a, const Tensor &b) { return a == b; });
  binary("Less", {1, 7, 9, 13},
         [](const Tensor &a, const Tensor &b) { return a < b; });
  binary("LessOrEqual", {12, 16},
         [](const Tensor &a, const Tensor &b) { return a <= b; });
  binary("Greater", {1, 7, 9, 13},
         [](const Tensor &a, const Tensor &b) { return a > b; });
  binary("GreaterOrEqual", {12, 16},
         [](const Tensor &a, const Tensor &b) { return a >= b; });
  binary("And", {1, 7},
         [](const Tensor &a, const Tensor &b) { return a && b; });
  binary("Or", {1, 7}, [](const Tensor &a, const Tensor &b) { return a || b; });
  binary("Xor", {1, 7}, [](const Tensor &a, const Tensor &b) {
    return edsl::logical_xor(a, b);
  });
  registerOp("Pow", {1, 7, 12, 13, 15}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    ctx.setOutput(0, powOp(ctx));
  });
  variadic("Min", {1, 6, 8, 12, 13},
           [](const Tensor &a, const Tensor &b) { return edsl::min(a, b); });
  variadic("Max", {1, 6, 8, 12, 13},
           [](const Tensor &a, const Tensor &b) { return edsl::max(a, b); });
  variadic("Sum", {1, 6, 8, 13},
           [](const Tensor &a, const Tensor &b) { return a + b; });
  variadic(
      "Mean", {1, 6, 8, 13},
      [](const Tensor &a, const Tensor &b) { return a + b; }, true);

  registerOp("Where", {9, 16}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    elementwise(ctx, [](Inputs in) {
      return edsl::select(in[0], in[1], sameType(in[1], in[2]));
    });
  });
  registerOp("Cast", {1, 6, 9, 13, 19, 21, 23, 24, 25, 28},
             [](NodeContext &ctx) {
               ctx.checkAttrs({"to", "saturate", "round_mode"});
               if (!ctx.hasAttr("to"))
                 ctx.fail("attribute 'to' is missing");
               if (ctx.attrString("round_mode", "up") != "up")
                 ctx.unsupported("round_mode '" +
                                 ctx.attrString("round_mode", "") + "'");
               elementwise(ctx, [&](Inputs in) {
                 return castTo(ctx, in[0], ctx.attrInt("to", 1));
               });
             });
  registerOp("CastLike", {15, 19, 21, 23, 24, 25}, [](NodeContext &ctx) {
    ctx.checkAttrs({"saturate"});
    ctx.setOutput(0, castTo(ctx, ctx.input(0), toOnnxType(ctx.value(1).dtype)));
  });
  registerOp("Clip", {1, 6, 11, 12, 13}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    elementwise(ctx, [&](Inputs in) {
      Tensor x = in[0];
      if (ctx.version() < 12)
        requireFloat(ctx, x);
      if (in.size() > 1 && !in[1].isNull())
        x = edsl::max(x, sameType(x, in[1]));
      if (in.size() > 2 && !in[2].isNull())
        x = edsl::min(x, sameType(x, in[2]));
      return x;
    });
  });
  registerOp("LeakyRelu", {1, 6, 16}, [](NodeContext &ctx) {
    ctx.checkAttrs({"alpha"});
    elementwise(ctx, [&](Inputs in) {
      requireFloat(ctx, in[0]);
      return op::leaky_relu(in[0], ctx.attrFloat("alpha", 0.01));
    });
  });
  registerOp("PRelu", {1, 6, 7, 9, 16}, [](NodeContext &ctx) {
    ctx.checkAttrs({});
    elementwise(ctx, [](Inputs in) {
      return edsl::select(in[0] < 0.0, in[0] * sameType(in[0], in[1]), in[0]);
    });
  });
  registerOp("Elu", {1, 6, 22}, [](NodeContext &ctx) {
    ctx.checkAttrs({"alpha"});
    elementwise(ctx, [&](Inputs in) {
      requireFloat(ctx, in[0]);
      return op::elu(in[0], ctx.attrFloat("alpha", 1.0));
    });
  });
  registerOp("Selu", {1, 6, 22}, [](NodeContext &ctx) {
    ctx.checkAttrs({"alpha", "gamma"});
    Tensor x = ctx.input(0);
    requireFloat(ctx, x);
    double alpha = ctx.attrFloat("alpha", 1.67326319217681884765625);
    double gamma = ctx.attrFloat("gamma", 1.05070102214813232421875);
    ctx.setOutput(0, op::elu(x, alpha) * gamma);
  });
  registerOp("HardSigmoid", {1, 6, 22}, [](NodeContext &ctx) {
    ctx.checkAttrs({"alpha", "beta"});
    elementwise(ctx, [&](Inputs in) {
      requireFloat(ctx, in[0]);
      return op::hard_sigmoid(in[0], ctx.attrFloat("alpha", 0.2),
                              ctx.attrFloat("beta", 0.5));
    });
  });
  registerOp("Gelu", {20}, [](NodeContext &ctx) {
    ctx.checkAttrs({"approximate"});
    Tensor x = ctx.input(0);
    requireFloat(ctx, x);
    std::string approx = ctx.attrString("approximate", "none");
    if (approx != "none" && approx != "tanh")
      ctx.unsupported("approximate '" + approx + "'");
    ctx.setOutput(0, op::gelu(x, approx == "tanh"));
  });
  registerOp("Softmax", {1, 11, 13}, [](NodeContext &ctx) {
    ctx.setOutput(0, softmaxLike(ctx, false));
  });
  registerOp("LogSoftmax", {1, 11, 13}, [](NodeContext &ctx) {
    ctx.setOutput(0, softmaxLike(ctx, true));
  });
  registerOp("Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25},
             [](NodeContext &ctx) {
               ctx.checkAttrs({});
               const Value &v = ctx.value(0);
               if (v.host)
                 ctx.setHostOutput(0, *v.host);
               else
                 elementwise(ctx, [](Inputs in) { return in[0]; });
             });
}
