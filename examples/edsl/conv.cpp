//===- conv.cpp - EDSL example: a convolution by hand and from the op library
//
// A 3x3 "same" convolution of an NHWC image with an HWIO filter written as a
// contraction (the padding is implicit: reads outside the image are not
// valid points), next to op::convolution with the same attributes. Both run
// on the CPU and must agree; exits 1 otherwise.
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
  Tensor I = Placeholder(DType::f32, {1, 5, 5, 2}, "I");
  Tensor F = Placeholder(DType::f32, {3, 3, 2, 4}, "F");
  TensorDim N, H, W, CI, KH, KW, CO;
  I.bind_dims(N, H, W, CI);
  F.bind_dims(KH, KW, CI, CO);
  TensorIndex n("n"), x("x"), y("y"), kx("kx"), ky("ky"), ci("ci"), co("co");
  Tensor byHand =
      Contraction("conv")
          .outShape({N, H, W, CO})
          .outAccess({n, x, y, co})
          .sum(I(n, x + kx - (KH - 1) / 2, y + ky - (KW - 1) / 2, ci) *
               F(kx, ky, ci, co));

  op::ConvOptions options;
  options.padding = op::Padding::SameUpper;
  Tensor fromLibrary = op::convolution(I, F, options);

  Program program("conv", {I, F}, {byHand, fromLibrary});
  std::mt19937_64 rng(7);
  std::vector<rt::HostArray> inputs;
  for (const TensorSpec &spec : program.getInputs())
    inputs.push_back(randomArray(spec, rng));
  auto exe = Executable::open(program, RunOptions{"cpu"});
  if (!exe.ok()) {
    std::cerr << exe.status().message() << "\n";
    return 1;
  }
  auto results = (*exe)->run(inputs);
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return 1;
  }
  std::vector<double> a = toDoubles((*results)[0]);
  std::vector<double> b = toDoubles((*results)[1]);
  double diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    diff = std::max(diff, std::fabs(a[i] - b[i]));
  std::printf("conv: %zu outputs, max difference %g\n", a.size(), diff);
  return diff < 1e-5 ? 0 : 1;
}
