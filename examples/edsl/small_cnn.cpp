//===- small_cnn.cpp - EDSL example: a small CNN from the op library ------===//
//
// conv 3x3 (16) + ReLU, max pool, depthwise conv 3x3 + batch norm + ReLU6,
// global average pooling, dense, softmax: a classifier of 32x32 RGB images
// with random weights. Runs on the reference interpreter and the CPU, which
// must agree, and checks that each row of probabilities sums to 1.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/EDSL/Run.h"
#include "plaidml/Op/Op.h"

#include <cmath>
#include <cstdio>
#include <iostream>

using namespace plaidml;
using namespace plaidml::edsl;

int main() {
  Tensor image = Placeholder(DType::f32, {2, 32, 32, 3}, "image");
  Tensor w1 = Placeholder(DType::f32, {3, 3, 3, 16}, "w1");
  Tensor b1 = Placeholder(DType::f32, {16}, "b1");
  Tensor dw = Placeholder(DType::f32, {3, 3, 1, 16}, "dw");
  Tensor mean = Placeholder(DType::f32, {16}, "mean");
  Tensor var = Placeholder(DType::f32, {16}, "var");
  Tensor w2 = Placeholder(DType::f32, {16, 10}, "w2");

  op::ConvOptions conv;
  conv.padding = op::Padding::SameUpper;
  conv.bias = b1;
  Tensor x = op::relu(op::convolution(image, w1, conv));
  op::PoolOptions pool;
  pool.window = {2, 2};
  pool.strides = {2, 2};
  x = op::pool(x, op::PoolMode::Max, pool);
  op::ConvOptions depthwise;
  depthwise.padding = op::Padding::SameUpper;
  depthwise.groups = 16;
  x = op::convolution(x, dw, depthwise);
  x = op::relu6(op::batch_norm(x, mean, var * var + 0.5, Tensor(), Tensor()));
  x = op::mean(x, {1, 2});
  Tensor probs = op::softmax(op::dense(x, w2), -1);

  Program program("small_cnn", {image, w1, b1, dw, mean, var, w2}, {probs});
  std::mt19937_64 rng(42);
  std::vector<rt::HostArray> inputs;
  for (const TensorSpec &spec : program.getInputs())
    inputs.push_back(randomArray(spec, rng));

  std::vector<std::vector<double>> outputs;
  for (const char *device : {"reference", "cpu"}) {
    auto exe = Executable::open(program, RunOptions{device});
    auto results = exe.ok()
                       ? (*exe)->run(inputs)
                       : rt::StatusOr<std::vector<rt::HostArray>>(exe.status());
    if (!results.ok()) {
      std::cerr << device << ": " << results.status().message() << "\n";
      return 1;
    }
    outputs.push_back(toDoubles((*results)[0]));
  }
  double diff = 0;
  for (size_t i = 0; i < outputs[0].size(); ++i)
    diff = std::max(diff, std::fabs(outputs[0][i] - outputs[1][i]));
  for (int row = 0; row < 2; ++row) {
    double sum = 0;
    for (int c = 0; c < 10; ++c)
      sum += outputs[1][row * 10 + c];
    std::printf("image %d: probabilities sum to %.6f\n", row, sum);
    if (std::fabs(sum - 1) > 1e-5)
      return 1;
  }
  std::printf("cpu vs reference: max difference %g\n", diff);
  return diff < 1e-5 ? 0 : 1;
}
