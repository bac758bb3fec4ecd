//===- Networks.h - Image classifiers built from the op library -*- C++ -*-===//
//
// The networks PlaidML's plaidbench ran, as EDSL programs built from the op
// library: MobileNet v1, MobileNetV2, ResNet-50, VGG-16 and Inception-v3,
// inference only, NHWC images and HWIO filters. The weights are program
// inputs (after the image), filled from a seed, so one compiled program
// runs with any weights and the IR stays small.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_NETWORKS_NETWORKS_H
#define PLAIDML_NETWORKS_NETWORKS_H

#include "plaidml/EDSL/EDSL.h"

#include <cstdint>
#include <string>
#include <vector>

namespace plaidml::networks {

struct NetworkOptions {
  int64_t batch = 1;
  /// Height and width of the input image (224 for most, 299 for
  /// Inception-v3; Inception-v3 needs at least 75).
  int64_t imageSize = 224;
  int64_t classes = 1000;
  /// Scales every layer's channel count (at least 1 channel; 1.0 is the
  /// published network). Tests use smaller networks.
  double width = 1.0;
  /// Seed of the weights.
  uint64_t seed = 1;
};

/// A program and its weights: program inputs are the image
/// (batch x size x size x 3, f32) followed by `weights`, in order. The
/// output is the class probabilities (batch x classes).
struct Network {
  edsl::Program program;
  std::vector<rt::HostArray> weights;
};

/// "mobilenet", "mobilenet_v2", "resnet50", "vgg16", "inception_v3".
std::vector<std::string> getNetworkNames();
/// Builds the network `name`; throws edsl::Error for an unknown name or
/// an input size the network cannot take.
Network buildNetwork(const std::string &name, const NetworkOptions &options);

} // namespace plaidml::networks

#endif // PLAIDML_NETWORKS_NETWORKS_H
