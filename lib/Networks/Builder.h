//===- Builder.h - Layers with seeded weights for the networks --*- C++ -*-===//
//
// NetBuilder creates each layer's weights as a named placeholder and fills
// the matching host array from the seed (uniform, scaled by the fan-in so
// activations keep their size through deep networks; batch-norm variances
// positive), and offers the layers the networks share: convolution with
// batch norm and an activation, depthwise convolution, pooling, dense.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_NETWORKS_BUILDER_H
#define PLAIDML_LIB_NETWORKS_BUILDER_H

#include "plaidml/Networks/Networks.h"
#include "plaidml/Op/Op.h"

#include <random>

namespace plaidml::networks::detail {

using edsl::Tensor;

enum class Act { None, Relu, Relu6 };

class NetBuilder {
public:
  explicit NetBuilder(const NetworkOptions &options);

  /// The image placeholder.
  Tensor getImage() const { return image; }
  /// `c` scaled by the width multiplier (at least 1).
  int64_t ch(int64_t c) const;

  /// A weight of `shape` uniform in [-scale, scale).
  Tensor weight(const std::vector<int64_t> &shape, double scale,
                const std::string &name);
  /// conv (HWIO, stride, same or valid padding), batch norm, activation.
  Tensor convBn(const Tensor &x, int64_t kh, int64_t kw, int64_t out,
                int64_t stride, Act act, op::Padding padding,
                const std::string &name);
  /// Depthwise 3x3 (or k x k) conv, batch norm, activation.
  Tensor depthwiseBn(const Tensor &x, int64_t k, int64_t stride, Act act,
                     const std::string &name);
  /// Conv with a bias and an activation, no batch norm (VGG).
  Tensor convBias(const Tensor &x, int64_t k, int64_t out, Act act,
                  const std::string &name);
  Tensor dense(const Tensor &x, int64_t out, const std::string &name);
  Tensor maxPool(const Tensor &x, int64_t k, int64_t stride,
                 op::Padding padding);
  Tensor avgPool(const Tensor &x, int64_t k, int64_t stride,
                 op::Padding padding);
  /// Global average pooling to batch x channels, dense, softmax.
  Tensor classifier(const Tensor &x);

  Network finish(const std::string &name, const Tensor &output);

private:
  Tensor activate(const Tensor &x, Act act);

  NetworkOptions options;
  std::mt19937_64 rng;
  Tensor image;
  std::vector<Tensor> inputs;
  std::vector<rt::HostArray> weights;
};

Network buildMobileNet(const NetworkOptions &options);
Network buildMobileNetV2(const NetworkOptions &options);
Network buildResNet50(const NetworkOptions &options);
Network buildVgg16(const NetworkOptions &options);
Network buildInceptionV3(const NetworkOptions &options);

} // namespace plaidml::networks::detail

#endif // PLAIDML_LIB_NETWORKS_BUILDER_H
