//===- Op.h - The op library: framework ops on EDSL tensors -----*- C++ -*-===//
//
// The layers frameworks use, each a function on EDSL tensors that builds
// Tile ops: convolutions, pooling, matrix products, normalizations,
// activations, shape ops, reductions and resizing, with the attributes of
// ONNX, Keras and PyTorch (layouts, padding modes, strides, dilations,
// groups). Axes may be negative (counted from the end). Bad attributes throw
// plaidml::edsl::Error naming the op and the attribute. docs/EDSL.md has
// the semantics and examples.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_OP_OP_H
#define PLAIDML_OP_OP_H

#include "plaidml/EDSL/EDSL.h"

#include <optional>

namespace plaidml::op {

using edsl::Tensor;

//===----------------------------------------------------------------------===//
// Convolution and pooling (Convolution.cpp, Pooling.cpp)
//===----------------------------------------------------------------------===//

enum class Padding {
  Valid,     // no padding
  SameUpper, // output = ceil(input / stride), extra padding at the end
  SameLower, // output = ceil(input / stride), extra padding at the start
  Explicit   // `pads`
};

/// The layout of an activation: batch, channels, spatial dimensions.
enum class DataLayout { NXC, NCX }; // NHWC-like, NCHW-like
/// The layout of a filter: spatial, input channels (per group), output
/// channels (HWIO), or output, input, spatial (OIHW).
enum class FilterLayout { XIO, OIX };

struct ConvOptions {
  /// One entry per spatial dimension; empty means all 1.
  std::vector<int64_t> strides, dilations;
  Padding padding = Padding::Valid;
  /// Explicit: the padding before each spatial dimension, then after each
  /// (ONNX order: x1_begin, x2_begin, ..., x1_end, x2_end, ...).
  std::vector<int64_t> pads;
  int64_t groups = 1;
  DataLayout layout = DataLayout::NXC;
  FilterLayout filterLayout = FilterLayout::XIO;
  /// Optional bias, one value per output channel.
  Tensor bias;
};

/// N-D convolution (1-3 spatial dimensions). The filter holds
/// CI / groups input channels; the output has the filter's CO channels;
/// depthwise is groups == CI with CO = CI * multiplier.
Tensor convolution(const Tensor &input, const Tensor &filter,
                   const ConvOptions &options = {});

struct ConvTransposeOptions {
  std::vector<int64_t> strides, dilations;
  /// Padding removed from the full output: before each spatial dimension,
  /// then after each.
  std::vector<int64_t> pads;
  /// Extra size added at the end of each spatial dimension.
  std::vector<int64_t> outputPadding;
  DataLayout layout = DataLayout::NXC;
  /// XIO: spatial, CI, CO; OIX here means (CI, CO, spatial), PyTorch's.
  FilterLayout filterLayout = FilterLayout::XIO;
  Tensor bias;
};

/// Transposed convolution (the gradient of convolution with respect to its
/// input): out[i * stride + k * dilation - pad] += in[i] * filter[k].
Tensor convolution_transpose(const Tensor &input, const Tensor &filter,
                             const ConvTransposeOptions &options = {});

enum class PoolMode { Max, Average };

struct PoolOptions {
  /// One entry per spatial dimension; strides and dilations default to 1.
  std::vector<int64_t> window, strides, dilations;
  Padding padding = Padding::Valid;
  std::vector<int64_t> pads;
  DataLayout layout = DataLayout::NXC;
  /// Average pooling divides by the window size (true) or by the number
  /// of input elements inside the window (false).
  bool countIncludePad = false;
  /// Explicit padding only: the output size rounds up (ONNX ceil_mode,
  /// PyTorch): a last, partial window is kept when it starts inside the
  /// input or the padding before it.
  bool ceilMode = false;
};

Tensor pool(const Tensor &input, PoolMode mode, const PoolOptions &options);
/// Max or average over every spatial dimension, keeping them as size 1.
Tensor global_pool(const Tensor &input, PoolMode mode,
                   DataLayout layout = DataLayout::NXC);

/// The output size and padding before, for one spatial dimension.
struct SpatialSize {
  int64_t output, padBefore;
};
SpatialSize computeSpatialSize(int64_t input, int64_t window, int64_t stride,
                               int64_t dilation, Padding padding,
                               int64_t padBefore = 0, int64_t padAfter = 0);

//===----------------------------------------------------------------------===//
// Matrix products (Linear.cpp)
//===----------------------------------------------------------------------===//

/// NumPy matmul: 1-D operands are promoted to matrices, batch dimensions
/// broadcast.
Tensor matmul(const Tensor &a, const Tensor &b);
/// x @ weights (+ bias): weights (in, out).
Tensor dense(const Tensor &x, const Tensor &weights,
             const Tensor &bias = Tensor());
/// alpha * op(A) @ op(B) + beta * C (ONNX Gemm), op = transpose or not.
Tensor gemm(const Tensor &a, const Tensor &b, const Tensor &c = Tensor(),
            double alpha = 1.0, double beta = 1.0, bool transA = false,
            bool transB = false);

//===----------------------------------------------------------------------===//
// Normalization (Normalization.cpp)
//===----------------------------------------------------------------------===//

/// Inference batch norm along `axis`: (x - mean) / sqrt(var + eps) * gamma
/// + beta; the parameters have one value per channel.
Tensor batch_norm(const Tensor &x, const Tensor &mean, const Tensor &variance,
                  const Tensor &gamma, const Tensor &beta,
                  double epsilon = 1e-5, int64_t axis = -1);
/// Normalizes over `axes` (the last one when empty); gamma and beta (may be
/// null) broadcast against x.
Tensor layer_norm(const Tensor &x, std::vector<int64_t> axes = {},
                  const Tensor &gamma = Tensor(), const Tensor &beta = Tensor(),
                  double epsilon = 1e-5);
/// Normalizes over the spatial dimensions and each group of channels;
/// gamma and beta have one value per channel (may be null).
Tensor group_norm(const Tensor &x, int64_t groups,
                  const Tensor &gamma = Tensor(), const Tensor &beta = Tensor(),
                  double epsilon = 1e-5, DataLayout layout = DataLayout::NCX);
/// group_norm with one group per channel.
Tensor instance_norm(const Tensor &x, const Tensor &gamma = Tensor(),
                     const Tensor &beta = Tensor(), double epsilon = 1e-5,
                     DataLayout layout = DataLayout::NCX);

//===----------------------------------------------------------------------===//
// Activations (Activation.cpp)
//===----------------------------------------------------------------------===//

Tensor relu(const Tensor &x);
Tensor relu6(const Tensor &x);
Tensor clip(const Tensor &x, double lo, double hi);
Tensor leaky_relu(const Tensor &x, double alpha = 0.01);
Tensor elu(const Tensor &x, double alpha = 1.0);
Tensor sigmoid(const Tensor &x);
/// max(0, min(1, alpha * x + beta)).
Tensor hard_sigmoid(const Tensor &x, double alpha = 0.2, double beta = 0.5);
/// x * relu6(x + 3) / 6.
Tensor hard_swish(const Tensor &x);
/// x * sigmoid(x) (SiLU).
Tensor swish(const Tensor &x);
/// GELU, exact (erf) or the tanh approximation.
Tensor gelu(const Tensor &x, bool approximateTanh = false);
Tensor tanh(const Tensor &x);
Tensor softmax(const Tensor &x, int64_t axis = -1);
Tensor log_softmax(const Tensor &x, int64_t axis = -1);

//===----------------------------------------------------------------------===//
// Reductions (Reduction.cpp)
//===----------------------------------------------------------------------===//

enum class ReduceKind { Sum, Mean, Max, Min, Prod };
/// Reduces over `axes` (all when empty).
Tensor reduce(const Tensor &x, ReduceKind kind, std::vector<int64_t> axes = {},
              bool keepdims = false);
Tensor sum(const Tensor &x, std::vector<int64_t> axes = {},
           bool keepdims = false);
Tensor mean(const Tensor &x, std::vector<int64_t> axes = {},
            bool keepdims = false);
Tensor max(const Tensor &x, std::vector<int64_t> axes = {},
           bool keepdims = false);
Tensor min(const Tensor &x, std::vector<int64_t> axes = {},
           bool keepdims = false);
Tensor prod(const Tensor &x, std::vector<int64_t> axes = {},
            bool keepdims = false);
/// Running sum along `axis`; exclusive leaves out the element itself.
Tensor cumsum(const Tensor &x, int64_t axis, bool exclusive = false);
/// The index (si32) of the first maximum / minimum along `axis`.
Tensor argmax(const Tensor &x, int64_t axis = -1, bool keepdims = false);
Tensor argmin(const Tensor &x, int64_t axis = -1, bool keepdims = false);

//===----------------------------------------------------------------------===//
// Shape ops (Shape.cpp, Pad.cpp)
//===----------------------------------------------------------------------===//

Tensor reshape(const Tensor &x, const std::vector<int64_t> &shape);
/// 2-D: the dimensions before `axis` times those from it.
Tensor flatten(const Tensor &x, int64_t axis = 1);
/// Dimension i of the result is dimension perm[i] of x (reversed when
/// empty).
Tensor transpose(const Tensor &x, std::vector<int64_t> perm = {});
Tensor concat(const std::vector<Tensor> &xs, int64_t axis);
/// Consecutive pieces along `axis` of the given sizes (which sum to the
/// dimension).
std::vector<Tensor> split(const Tensor &x, int64_t axis,
                          const std::vector<int64_t> &sizes);
/// NumPy x[starts:ends:steps] along `axes` (all axes in order when empty);
/// negative starts and ends count from the end and are clamped.
Tensor slice(const Tensor &x, const std::vector<int64_t> &starts,
             const std::vector<int64_t> &ends, std::vector<int64_t> axes = {},
             std::vector<int64_t> steps = {});
enum class PadMode { Constant, Reflect, Edge, Wrap };
/// Pads (before, after) per dimension: pads has 2 * rank entries, all
/// befores then all afters (ONNX order). Wrap repeats the input
/// periodically (NumPy's 'wrap'), any number of times.
Tensor pad(const Tensor &x, const std::vector<int64_t> &pads,
           PadMode mode = PadMode::Constant, double value = 0.0);
Tensor squeeze(const Tensor &x, std::vector<int64_t> axes = {});
Tensor unsqueeze(const Tensor &x, std::vector<int64_t> axes);
/// NumPy broadcast_to.
Tensor broadcast_to(const Tensor &x, const std::vector<int64_t> &shape);
/// NumPy tile: the whole tensor repeated reps[i] times along axis i.
Tensor tile(const Tensor &x, const std::vector<int64_t> &reps);
/// NumPy repeat: each element repeated `repeats` times along `axis`.
Tensor repeat(const Tensor &x, int64_t repeats, int64_t axis);
/// x.take(indices, axis) (indices clamped).
Tensor gather(const Tensor &x, const Tensor &indices, int64_t axis = 0);
/// One row of `depth` per index: onValue where the class matches.
Tensor one_hot(const Tensor &indices, int64_t depth,
               edsl::DType dtype = edsl::DType::f32, double onValue = 1.0,
               double offValue = 0.0);

//===----------------------------------------------------------------------===//
// Resizing (Resize.cpp)
//===----------------------------------------------------------------------===//

enum class ResizeMode { Nearest, Bilinear };
/// Resizes the spatial dimensions to `sizes`. Nearest reads input
/// floor(o * in / out) (PyTorch's `nearest`); bilinear maps output o to
/// input (o + 0.5) * in / out - 0.5 clamped at 0 (PyTorch align_corners=False),
/// or o * (in - 1) / (out - 1) with alignCorners.
Tensor resize(const Tensor &x, const std::vector<int64_t> &sizes,
              ResizeMode mode, DataLayout layout = DataLayout::NXC,
              bool alignCorners = false);
/// Nearest-neighbour upsampling by integer factors (Keras UpSampling2D).
Tensor upsample(const Tensor &x, const std::vector<int64_t> &factors,
                DataLayout layout = DataLayout::NXC);

/// `axis` counted from the end when negative, checked against `rank`.
int64_t normalizeAxis(int64_t axis, int64_t rank, const char *op);

} // namespace plaidml::op

#endif // PLAIDML_OP_OP_H
