//===- Builder.cpp - Layers with seeded weights for the networks ----------===//
//
// NetBuilder (Builder.h) and buildNetwork, the entry point by name.
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

#include <cmath>

using namespace plaidml;
using namespace plaidml::networks;
using namespace plaidml::networks::detail;
namespace edsl = plaidml::edsl;

NetBuilder::NetBuilder(const NetworkOptions &options)
    : options(options), rng(options.seed) {
  if (options.batch <= 0 || options.imageSize <= 0 || options.classes <= 0 ||
      options.width <= 0)
    throw edsl::Error("network options: batch, image size, classes and width "
                      "must be positive");
  image = edsl::Placeholder(
      edsl::DType::f32,
      {options.batch, options.imageSize, options.imageSize, 3}, "image");
  inputs.push_back(image);
}

int64_t NetBuilder::ch(int64_t c) const {
  return std::max<int64_t>(
      1, static_cast<int64_t>(std::lround(c * options.width)));
}

Tensor NetBuilder::weight(const std::vector<int64_t> &shape, double scale,
                          const std::string &name) {
  rt::HostArray a;
  a.dtype = edsl::DType::f32;
  a.shape = shape;
  a.bytes.resize(a.getNumElements() * 4);
  float *p = reinterpret_cast<float *>(a.bytes.data());
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    p[i] = static_cast<float>(
        (std::ldexp(static_cast<double>(rng() >> 11), -52) - 1.0) * scale);
  Tensor t = edsl::Placeholder(edsl::DType::f32, shape, name);
  inputs.push_back(t);
  weights.push_back(std::move(a));
  return t;
}

Tensor NetBuilder::activate(const Tensor &x, Act act) {
  switch (act) {
  case Act::None:
    return x;
  case Act::Relu:
    return op::relu(x);
  case Act::Relu6:
    return op::relu6(x);
  }
  return x;
}

/// Batch-norm parameters near the identity: gamma in [0.5, 1.5), beta and
/// mean in [-0.1, 0.1), variance in [0.5, 1.5).
static Tensor batchNorm(NetBuilder &b, const Tensor &x, int64_t c,
                        const std::string &name) {
  Tensor gamma = b.weight({c}, 0.5, name + "_gamma") + 1.0;
  Tensor beta = b.weight({c}, 0.1, name + "_beta");
  Tensor mean = b.weight({c}, 0.1, name + "_mean");
  Tensor var = b.weight({c}, 0.5, name + "_var") + 1.0;
  return op::batch_norm(x, mean, var, gamma, beta, 1e-3, -1);
}

Tensor NetBuilder::convBn(const Tensor &x, int64_t kh, int64_t kw, int64_t out,
                          int64_t stride, Act act, op::Padding padding,
                          const std::string &name) {
  int64_t in = x.getShape().back();
  Tensor w =
      weight({kh, kw, in, out},
             std::sqrt(6.0 / static_cast<double>(kh * kw * in)), name + "_w");
  op::ConvOptions o;
  o.strides = {stride, stride};
  o.padding = padding;
  return activate(batchNorm(*this, op::convolution(x, w, o), out, name), act);
}

Tensor NetBuilder::depthwiseBn(const Tensor &x, int64_t k, int64_t stride,
                               Act act, const std::string &name) {
  int64_t c = x.getShape().back();
  Tensor w = weight({k, k, 1, c}, std::sqrt(6.0 / static_cast<double>(k * k)),
                    name + "_w");
  op::ConvOptions o;
  o.strides = {stride, stride};
  o.padding = op::Padding::SameUpper;
  o.groups = c;
  return activate(batchNorm(*this, op::convolution(x, w, o), c, name), act);
}

Tensor NetBuilder::convBias(const Tensor &x, int64_t k, int64_t out, Act act,
                            const std::string &name) {
  int64_t in = x.getShape().back();
  op::ConvOptions o;
  o.padding = op::Padding::SameUpper;
  o.bias = weight({out}, 0.1, name + "_b");
  Tensor w =
      weight({k, k, in, out}, std::sqrt(6.0 / static_cast<double>(k * k * in)),
             name + "_w");
  return activate(op::convolution(x, w, o), act);
}

Tensor NetBuilder::dense(const Tensor &x, int64_t out,
                         const std::string &name) {
  int64_t in = x.getShape().back();
  Tensor w =
      weight({in, out}, std::sqrt(6.0 / static_cast<double>(in)), name + "_w");
  Tensor b = weight({out}, 0.1, name + "_b");
  return op::dense(x, w, b);
}

Tensor NetBuilder::maxPool(const Tensor &x, int64_t k, int64_t stride,
                           op::Padding padding) {
  op::PoolOptions o;
  o.window = {k, k};
  o.strides = {stride, stride};
  o.padding = padding;
  return op::pool(x, op::PoolMode::Max, o);
}

Tensor NetBuilder::avgPool(const Tensor &x, int64_t k, int64_t stride,
                           op::Padding padding) {
  op::PoolOptions o;
  o.window = {k, k};
  o.strides = {stride, stride};
  o.padding = padding;
  return op::pool(x, op::PoolMode::Average, o);
}

Tensor NetBuilder::classifier(const Tensor &x) {
  Tensor pooled = op::mean(x, {1, 2});
  return op::softmax(dense(pooled, options.classes, "logits"), -1);
}

Network NetBuilder::finish(const std::string &name, const Tensor &output) {
  // The weights are parameters: the same values on every run, so the CPU
  // code packs them once (docs/ABI.md section 2).
  std::vector<Tensor> parameters(inputs.begin() + 1, inputs.end());
  return Network{
      edsl::Program(name, {image}, {output.named("probabilities")}, parameters),
      std::move(weights)};
}

std::vector<std::string> plaidml::networks::getNetworkNames() {
  return {"mobilenet", "mobilenet_v2", "resnet50", "vgg16", "inception_v3"};
}

Network plaidml::networks::buildNetwork(const std::string &name,
                                        const NetworkOptions &options) {
  if (name == "mobilenet")
    return buildMobileNet(options);
  if (name == "mobilenet_v2")
    return buildMobileNetV2(options);
  if (name == "resnet50")
    return buildResNet50(options);
  if (name == "vgg16")
    return buildVgg16(options);
  if (name == "inception_v3")
    return buildInceptionV3(options);
  std::string names;
  for (const std::string &n : getNetworkNames())
    names += (names.empty() ? "" : ", ") + n;
  throw edsl::Error("unknown network '" + name + "' (known: " + names + ")");
}
