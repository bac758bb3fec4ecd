//===- GradientsTest.cpp - Unit tests of edsl::gradients ------------------===//
//
// The gradients of a dense layer with a ReLU, built with edsl::gradients,
// run on the reference interpreter and the CPU and checked against the
// same derivatives computed by loops here; the errors gradients() reports
// (an op with no gradient, an integer tensor, a lens). The op-by-op checks
// against finite differences are python/test/test_gradients.py.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/EDSL/Run.h"
#include "plaidml/Op/Op.h"

#include <gtest/gtest.h>

using namespace plaidml;
using namespace plaidml::edsl;

namespace {

template <typename Fn> std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(Gradients, DenseRelu) {
  // loss = sum(relu(x W + b) * r)
  const int N = 2, K = 3, M = 2;
  std::vector<double> x = {1, -2, 0.5, 3, 1, -1},
                      w = {0.5, -1, 2, 1, -0.5, 0.25}, b = {0.1, -0.2},
                      r = {1, 2, -1, 0.5};
  Tensor X = Placeholder(DType::f32, {N, K}, "x");
  Tensor W = Placeholder(DType::f32, {K, M}, "W");
  Tensor B = Placeholder(DType::f32, {M}, "b");
  Tensor R = Placeholder(DType::f32, {N, M}, "r");
  Tensor loss = op::sum(relu(op::matmul(X, W) + B) * R);
  std::vector<Tensor> grads = gradients(loss, {X, W, B});
  ASSERT_EQ(grads.size(), 3u);
  EXPECT_EQ(grads[1].getShape(), (std::vector<int64_t>{K, M}));
  EXPECT_EQ(grads[1].getName(), "d_W");
  Program program("grad", {X, W, B, R}, {grads[0], grads[1], grads[2]});

  // The same derivatives by hand: dz = r where z > 0.
  std::vector<double> dz(N * M), dx(N * K, 0), dw(K * M, 0), db(M, 0);
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      double z = b[m];
      for (int k = 0; k < K; ++k)
        z += x[n * K + k] * w[k * M + m];
      dz[n * M + m] = z > 0 ? r[n * M + m] : 0;
    }
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      db[m] += dz[n * M + m];
      for (int k = 0; k < K; ++k) {
        dx[n * K + k] += dz[n * M + m] * w[k * M + m];
        dw[k * M + m] += dz[n * M + m] * x[n * K + k];
      }
    }
  std::vector<rt::HostArray> inputs = {
      makeArray(DType::f32, {N, K}, x), makeArray(DType::f32, {K, M}, w),
      makeArray(DType::f32, {M}, b), makeArray(DType::f32, {N, M}, r)};
  std::vector<std::vector<double>> expected = {dx, dw, db};
  for (const char *device : {"reference", "cpu"}) {
    RunOptions options;
    options.device = device;
    auto exe = Executable::open(program, options);
    ASSERT_TRUE(exe.ok()) << device << ": " << exe.status().message();
    auto results = (*exe)->run(inputs);
    ASSERT_TRUE(results.ok()) << device << ": " << results.status().message();
    for (size_t j = 0; j < expected.size(); ++j) {
      std::vector<double> got = toDoubles((*results)[j]);
      ASSERT_EQ(got.size(), expected[j].size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], expected[j][i], 1e-5)
            << device << " gradient " << j << " element " << i;
    }
  }
}

TEST(Gradients, Errors) {
  Tensor X = Placeholder(DType::f32, {3, 4}, "X");
  Tensor Y = Placeholder(DType::f32, {4}, "Y");
  TensorIndex i, j;
  Tensor m = Contraction("m").outShape({3}).outAccess({i}).max(X(i, j) * Y(j));
  EXPECT_NE(errorOf([&] { gradients(op::sum(m), {X}); })
                .find("'tile.contract' op has no gradient: aggregation 'max' "
                      "of combination 'mul'"),
            std::string::npos);
  Tensor I = Placeholder(DType::si32, {3}, "I");
  EXPECT_NE(errorOf([&] {
              gradients(op::sum(X), {I});
            }).find("only float tensors have gradients"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              gradients(op::sum(X), {X.use(TensorLens("AB", "BA"))});
            }).find("lens"),
            std::string::npos);
}

} // namespace
