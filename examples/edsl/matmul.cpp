//===- matmul.cpp - EDSL example: a matrix multiplication -----------------===//
//
// docs/EDSL.md walks through this program: bind the dimensions of two
// placeholders, write C[i, j] = sum over k of A[i, k] * B[k, j] as a
// contraction, print its Tile IR, and run it on the reference interpreter
// and the CPU. Exits 1 when a device gives a wrong value.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/EDSL/Run.h"

#include <cstdio>
#include <iostream>

using namespace plaidml;
using namespace plaidml::edsl;

int main() {
  Tensor A = Placeholder(DType::f32, {2, 3}, "A");
  Tensor B = Placeholder(DType::f32, {3, 2}, "B");
  TensorDim M, K, N;
  A.bind_dims(M, K);
  B.bind_dims(K, N);
  TensorIndex i("i"), j("j"), k("k");
  Tensor C = Contraction("C").outShape({M, N}).outAccess({i, j}).sum(A(i, k) *
                                                                     B(k, j));
  Program program("matmul", {A, B}, {C});
  std::cout << program.str();

  std::vector<rt::HostArray> inputs = {
      makeArray(DType::f32, {2, 3}, {1, 2, 3, 4, 5, 6}),
      makeArray(DType::f32, {3, 2}, {1, 0, 0, 1, 1, 1})};
  const std::vector<double> expected = {4, 5, 10, 11};
  for (const char *device : {"reference", "cpu"}) {
    auto exe = Executable::open(program, RunOptions{device});
    if (!exe.ok()) {
      std::cerr << device << ": " << exe.status().message() << "\n";
      return 1;
    }
    auto results = (*exe)->run(inputs);
    if (!results.ok()) {
      std::cerr << device << ": " << results.status().message() << "\n";
      return 1;
    }
    std::vector<double> c = toDoubles((*results)[0]);
    std::printf("%s: C = [[%g, %g], [%g, %g]]\n", device, c[0], c[1], c[2],
                c[3]);
    if (c != expected)
      return 1;
  }
  return 0;
}
