//===- Normalization.cpp - Batch, layer, group and instance norm ----------===//
//
// Normalizations from reductions with kept dimensions (so they broadcast
// back) and elementwise ops. Group norm reshapes the channels into
// (groups, channels per group) and normalizes each group with the spatial
// dimensions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

/// `p` reshaped to broadcast along `axis` of a rank-`rank` tensor.
static Tensor alongAxis(const Tensor &p, int64_t axis, int64_t rank,
                        int64_t size, const char *op, const char *name) {
  if (p.isNull())
    return p;
  if (p.getShape() != std::vector<int64_t>{size})
    throw Error(std::string(op) + ": " + name + " is " + p.str() +
                " but there are " + std::to_string(size) + " channels");
  std::vector<int64_t> shape(rank - axis, 1);
  shape[0] = size;
  return edsl::reshape(p, shape);
}

Tensor plaidml::op::batch_norm(const Tensor &x, const Tensor &mean,
                               const Tensor &variance, const Tensor &gamma,
                               const Tensor &beta, double epsilon,
                               int64_t axis) {
  const char *op = "batch_norm";
  int64_t rank = x.getRank();
  int64_t a = normalizeAxis(axis, rank, op);
  int64_t c = x.getShape()[a];
  Tensor m = alongAxis(mean, a, rank, c, op, "the mean");
  Tensor v = alongAxis(variance, a, rank, c, op, "the variance");
  if (m.isNull() || v.isNull())
    throw Error("batch_norm: the mean and the variance are required");
  Tensor y = (x - m) / edsl::sqrt(v + epsilon);
  if (!gamma.isNull())
    y = y * alongAxis(gamma, a, rank, c, op, "gamma");
  if (!beta.isNull())
    y = y + alongAxis(beta, a, rank, c, op, "beta");
  return y;
}

/// (x - mean) / sqrt(var + eps) over `axes`.
static Tensor normalize(const Tensor &x, const std::vector<int64_t> &axes,
                        double epsilon) {
  Tensor xf = toFloat(x);
  Tensor centered = xf - mean(xf, axes, true);
  Tensor var = mean(centered * centered, axes, true);
  return centered / edsl::sqrt(var + epsilon);
}

Tensor plaidml::op::layer_norm(const Tensor &x, std::vector<int64_t> axes,
                               const Tensor &gamma, const Tensor &beta,
                               double epsilon) {
  if (axes.empty())
    axes.push_back(-1);
  Tensor y =
      normalize(x, normalizeAxes(axes, x.getRank(), "layer_norm"), epsilon);
  if (!gamma.isNull())
    y = y * gamma;
  if (!beta.isNull())
    y = y + beta;
  return y;
}

Tensor plaidml::op::group_norm(const Tensor &x, int64_t groups,
                               const Tensor &gamma, const Tensor &beta,
                               double epsilon, DataLayout layout) {
  const char *op = "group_norm";
  int64_t rank = x.getRank();
  if (rank < 2)
    throw Error("group_norm: the input " + x.str() + " has no channels");
  std::vector<int64_t> shape = x.getShape();
  int64_t ca = channelAxis(layout, rank);
  int64_t c = shape[ca];
  if (groups <= 0 || c % groups != 0)
    throw Error("group_norm: " + std::to_string(c) +
                " channels do not split into " + std::to_string(groups) +
                " groups");
  // Split the channel axis into (groups, c / groups).
  std::vector<int64_t> split(shape.begin(), shape.begin() + ca);
  split.push_back(groups);
  split.push_back(c / groups);
  split.insert(split.end(), shape.begin() + ca + 1, shape.end());
  std::vector<int64_t> axes;
  for (int64_t i = 1; i < rank + 1; ++i)
    if (i != ca)
      axes.push_back(i);
  Tensor y =
      edsl::reshape(normalize(edsl::reshape(x, split), axes, epsilon), shape);
  if (!gamma.isNull())
    y = y * alongAxis(gamma, ca, rank, c, op, "gamma");
  if (!beta.isNull())
    y = y + alongAxis(beta, ca, rank, c, op, "beta");
  return y;
}

Tensor plaidml::op::instance_norm(const Tensor &x, const Tensor &gamma,
                                  const Tensor &beta, double epsilon,
                                  DataLayout layout) {
  int64_t c = x.getShape()[channelAxis(layout, x.getRank())];
  return group_norm(x, c, gamma, beta, epsilon, layout);
}
