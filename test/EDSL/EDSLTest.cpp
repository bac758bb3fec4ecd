//===- EDSLTest.cpp - Unit tests of the C++ EDSL --------------------------===//
//
// Programs built with the EDSL are printed, compiled and run on the
// reference interpreter and the CPU with hand-worked values; every error
// the EDSL reports is checked for the tensor and dimension it names.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/Compiler/Compiler.h"
#include "plaidml/EDSL/MLIR.h"
#include "plaidml/EDSL/Run.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

using namespace plaidml;
using namespace plaidml::edsl;

namespace {

/// Runs `program` on reference and cpu and checks both give `expected`
/// for output `j` (each device's outputs returned for further checks).
void expectOutputs(const Program &program,
                   const std::vector<rt::HostArray> &inputs,
                   const std::vector<std::vector<double>> &expected) {
  for (const char *device : {"reference", "cpu"}) {
    RunOptions options;
    options.device = device;
    auto exe = Executable::open(program, options);
    ASSERT_TRUE(exe.ok()) << device << ": " << exe.status().message();
    auto results = (*exe)->run(inputs);
    ASSERT_TRUE(results.ok()) << device << ": " << results.status().message();
    ASSERT_EQ(results->size(), expected.size());
    for (size_t j = 0; j < expected.size(); ++j) {
      std::vector<double> got = toDoubles((*results)[j]);
      ASSERT_EQ(got.size(), expected[j].size()) << device;
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], expected[j][i], 1e-5)
            << device << " output " << j << " element " << i;
    }
  }
}

/// The message of the Error `fn` throws ("" when it does not throw).
template <typename Fn> std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(EDSL, Matmul) {
  resetTensors();
  Tensor A = Placeholder(DType::f32, {2, 3}, "A");
  Tensor B = Placeholder(DType::f32, {3, 2}, "B");
  TensorDim M, K, N;
  A.bind_dims(M, K);
  B.bind_dims(K, N);
  TensorIndex i("i"), j("j"), k("k");
  Tensor C = Contraction("C").outShape({M, N}).outAccess({i, j}).sum(A(i, k) *
                                                                     B(k, j));
  Program program("matmul", {A, B}, {C});
  EXPECT_NE(program.str().find("tile.contract add, mul"), std::string::npos);
  EXPECT_NE(program.str().find("idxs = [\"i\", \"j\", \"k\"]"),
            std::string::npos);
  EXPECT_EQ(program.getOutputs()[0].shape, (std::vector<int64_t>{2, 2}));
  expectOutputs(program,
                {makeArray(DType::f32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                 makeArray(DType::f32, {3, 2}, {1, 0, 0, 1, 1, 1})},
                {{4, 5, 10, 11}});
}

TEST(EDSL, DimArithmeticConstraintsAndInit) {
  resetTensors();
  // Max pooling 2 wide with stride 2, and a strided copy with an init.
  Tensor I = Placeholder(DType::f32, {5}, "I");
  TensorDim N;
  I.bind_dims(N);
  TensorIndex x("x"), w("w");
  Tensor P = Contraction("P")
                 .outShape({N / 2})
                 .outAccess({x})
                 .max(I(x * 2 + w))
                 .add_constraint(w < 2);
  Tensor Z = Placeholder(DType::f32, {}, "Z");
  Tensor R =
      Contraction("R").outShape({N + 1}).outAccess({x + 1}).assign(I(x)).init(
          Z);
  Tensor S = Contraction("S").outShape({N}).outAccess({x}).sum(
      I(N - 1 - x)); // reversal through a TensorDim in an index
  Program program("dims", {I, Z}, {P, R, S});
  expectOutputs(program,
                {makeArray(DType::f32, {5}, {3, 1, 4, 1, 5}),
                 makeArray(DType::f32, {}, {-7})},
                {{3, 4}, {-7, 3, 1, 4, 1, 5}, {5, 1, 4, 1, 3}});
}

TEST(EDSL, ElementwiseScalarsAndIntrinsics) {
  resetTensors();
  Tensor X = Placeholder(DType::f32, {2, 3}, "X");
  Tensor V = Placeholder(DType::si32, {3}, "V");
  Tensor a = X * 2 + 1;               // int scalars take f32
  Tensor b = select(X > 0.0, X, -X);  // abs via select
  Tensor c = cast(V, DType::f32) / 2; // cast
  Tensor d = index({2, 3}, 1) + V;    // index, broadcasting
  Tensor e = reshape(X, {3, 2});      // reshape
  Tensor idx = Constant(makeArray(DType::si32, {2}, {2, 0}));
  Tensor f = gather(X, idx, 1); // gather along an axis
  Tensor U = Placeholder(DType::f32, {2}, "U");
  Tensor g = scatter(U, idx, {4}, 0);          // scatter into zeros
  Tensor h = logical_not(X < 0.0) && (V > 15); // i1 results broadcast
  Program program("ew", {X, V, U}, {a, b, c, d, e, f, g, cast(h, DType::si32)});
  EXPECT_EQ(a.getDType(), DType::f32);
  EXPECT_EQ(d.getDType(), DType::si32);
  expectOutputs(program,
                {makeArray(DType::f32, {2, 3}, {1, -2, 3, -4, 5, -6}),
                 makeArray(DType::si32, {3}, {10, 20, 30}),
                 makeArray(DType::f32, {2}, {0.5, 8})},
                {{3, -3, 7, -7, 11, -11},
                 {1, 2, 3, 4, 5, 6},
                 {5, 10, 15},
                 {10, 21, 32, 10, 21, 32},
                 {1, -2, 3, -4, 5, -6},
                 {3, 1, -6, -4},
                 {8, 0, 0.5, 0},
                 {0, 0, 1, 0, 1, 0}});
}

TEST(EDSL, ScalarTyping) {
  resetTensors();
  Tensor H = Placeholder(DType::f16, {2}, "H");
  Tensor I = Placeholder(DType::ui8, {2}, "I");
  EXPECT_EQ((H * 2).getDType(), DType::f16);
  EXPECT_EQ((H + 0.5).getDType(), DType::f16);
  EXPECT_EQ((I + 1).getDType(), DType::ui8);
  EXPECT_EQ((I * 0.5).getDType(), DType::f32);
  EXPECT_EQ((I + 1000).getDType(), DType::si32);
  EXPECT_EQ((H < 1).getDType(), DType::i1);
}

TEST(EDSL, Lens) {
  resetTensors();
  // An NCHW tensor read as NHWC; a contraction writing NHWC-ordered indices
  // into NCHW storage.
  Tensor X = Placeholder(DType::f32, {1, 2, 1, 3}, "X"); // N C H W
  Tensor V = X.use(TensorLens("NCHW", "NHWC"));
  EXPECT_EQ(V.getShape(), (std::vector<int64_t>{1, 1, 3, 2}));
  TensorDim N, H, W, C;
  V.bind_dims(N, H, W, C);
  EXPECT_EQ(C.value(), 2);
  TensorIndex n, h, w, c;
  // Sum over the channels, in NHWC order.
  Tensor S = Contraction("S")
                 .outShape({N, H, W, 1})
                 .outAccess({n, h, w, 0})
                 .sum(V(n, h, w, c));
  // Copy back through a lens: the output is stored NCHW.
  Tensor Y = Contraction(TensorLens("NCHW", "NHWC"), "Y")
                 .outShape({N, H, W, C})
                 .outAccess({n, h, w, c})
                 .assign(V(n, h, w, c));
  EXPECT_EQ(Y.getShape(), (std::vector<int64_t>{1, 1, 3, 2}));
  Program program("lens", {X}, {S, Tensor::fromImpl(Y.getImpl())});
  EXPECT_EQ(program.getOutputs()[1].shape, (std::vector<int64_t>{1, 2, 1, 3}));
  expectOutputs(program,
                {makeArray(DType::f32, {1, 2, 1, 3}, {1, 2, 3, 10, 20, 30})},
                {{11, 22, 33}, {1, 2, 3, 10, 20, 30}});
}

TEST(EDSL, CondAndEq) {
  resetTensors();
  // argmax with ties to the last index (the Tile-language cookbook's).
  Tensor X = Placeholder(DType::f32, {2, 3}, "X");
  TensorIndex n, d;
  Tensor M = Contraction().outShape({2}).outAccess({n}).max(X(n, d));
  Tensor Idx = index({2, 3}, 1);
  Tensor A = Contraction("A").outShape({2}).outAccess({n}).max(
      cond(X(n, d) == M(n), Idx(n, d)));
  Tensor Count =
      Contraction("Count").outShape({2}).outAccess({n}).sum(X(n, d) == M(n));
  EXPECT_EQ(Count.getDType(), DType::si32);
  Program program("argmax", {X}, {A, Count});
  expectOutputs(program, {makeArray(DType::f32, {2, 3}, {1, 5, 5, 7, 0, 2})},
                {{2, 0}, {2, 1}});
}

TEST(EDSL, Errors) {
  resetTensors();
  Tensor A = Placeholder(DType::f32, {2, 3}, "A");
  TensorDim M, N, K;
  std::string e = errorOf([&] { A.bind_dims(M); });
  EXPECT_NE(e.find("rank mismatch"), std::string::npos) << e;
  EXPECT_NE(e.find("'A'"), std::string::npos) << e;

  TensorDim P("P");
  A.bind_dims(M, P);
  TensorDim Q("Q");
  Q = TensorDim(4);
  e = errorOf([&] { A.bind_dims(M, Q); });
  EXPECT_NE(e.find("dimension 1 of 'A'"), std::string::npos) << e;
  EXPECT_NE(e.find("is 3"), std::string::npos) << e;

  TensorDim U("U");
  TensorIndex i("i"), j("j"), k("k");
  e = errorOf([&] {
    Contraction("O").outShape({U}).outAccess({i}).sum(A(i, j)).build();
  });
  EXPECT_NE(e.find("contraction 'O'"), std::string::npos) << e;
  EXPECT_NE(e.find("dimension 'U' is not bound"), std::string::npos) << e;

  e = errorOf(
      [&] { Contraction("O").outShape({M}).outAccess({i}).sum(A(i)).build(); });
  EXPECT_NE(e.find("rank mismatch"), std::string::npos) << e;
  EXPECT_NE(e.find("'A' of shape 2x3xf32 has rank 2"), std::string::npos) << e;

  e = errorOf([&] {
    Contraction("O").outShape({M}).outAccess({i}).sum(A(i, j * k)).build();
  });
  EXPECT_NE(e.find("is not affine"), std::string::npos) << e;

  e = errorOf([&] {
    Contraction("Unb").outShape({M}).outAccess({i}).sum(A(i, j - k)).build();
  });
  EXPECT_NE(e.find("contraction 'Unb'"), std::string::npos) << e;
  EXPECT_NE(e.find("unbounded"), std::string::npos) << e;

  e = errorOf([&] {
    Contraction("O")
        .outShape({M})
        .outAccess({i})
        .sum(A(i, j))
        .add_constraint(k < 2)
        .build();
  });
  EXPECT_NE(e.find("index 'k' is used only in constraints"), std::string::npos)
      << e;

  e = errorOf([&] { A + Placeholder(DType::f32, {4}, "B"); });
  EXPECT_NE(e.find("do not broadcast"), std::string::npos) << e;
  EXPECT_NE(e.find("'B'"), std::string::npos) << e;

  e = errorOf([&] { exp(Placeholder(DType::si32, {4}, "I")); });
  EXPECT_NE(e.find("exp of 'I'"), std::string::npos) << e;

  e = errorOf([&] { reshape(A, {4, 2}); });
  EXPECT_NE(e.find("element counts differ"), std::string::npos) << e;

  Tensor hidden = Placeholder(DType::f32, {2, 3}, "Hidden");
  e = errorOf([&] { Program("p", {A}, {A + hidden}); });
  EXPECT_NE(e.find("placeholder 'Hidden'"), std::string::npos) << e;

  e = errorOf([&] { A.use(TensorLens("NCHW", "NHWC")); });
  EXPECT_NE(e.find("rank"), std::string::npos) << e;
  e = errorOf([&] { TensorLens("NCHW", "NHWX"); });
  EXPECT_NE(e.find("permutations"), std::string::npos) << e;
}

TEST(EDSL, ArgsortAndPrng) {
  resetTensors();
  Tensor X = Placeholder(DType::f32, {2, 3}, "X");
  Tensor asc = argsort(X);
  Tensor desc = argsort(X, 0, SortDirection::Desc);
  EXPECT_EQ(asc.getDType(), DType::si32);
  PrngResult r = prng(prngSeed(0), {2, 2}, DType::ui32);
  EXPECT_EQ(r.state.getShape(), std::vector<int64_t>{6});
  PrngResult f = prng(r.state, {3});
  Program program("sort_random", {X}, {asc, desc, r.values, r.state, f.values});
  EXPECT_NE(program.str().find("tile.argsort desc"), std::string::npos);
  EXPECT_NE(program.str().find("tile.prng"), std::string::npos);
  // Rows [3, 1, 2] and [1, 1, 0]: ascending [1, 2, 0] and [2, 0, 1] (the
  // tie keeps its order); down the columns, descending: [0, 0, 0], [1, 1,
  // 1] (3 > 1; 1 == 1 keeps its order; 2 > 0). Key (0, 0), counter 0:
  // Random123's known answer; the state advances by one block, and the next
  // call's f32 values come from the block at counter 1.
  std::vector<rt::HostArray> inputs{
      makeArray(DType::f32, {2, 3}, {3, 1, 2, 1, 1, 0})};
  for (const char *device : {"reference", "cpu"}) {
    RunOptions options;
    options.device = device;
    auto exe = Executable::open(program, options);
    ASSERT_TRUE(exe.ok()) << device << ": " << exe.status().message();
    auto results = (*exe)->run(inputs);
    ASSERT_TRUE(results.ok()) << device << ": " << results.status().message();
    EXPECT_EQ(toDoubles((*results)[0]), (std::vector<double>{1, 2, 0, 2, 0, 1}))
        << device;
    EXPECT_EQ(toDoubles((*results)[1]), (std::vector<double>{0, 0, 0, 1, 1, 1}))
        << device;
    EXPECT_EQ(toDoubles((*results)[2]),
              (std::vector<double>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                                   0x9b00dbd8u}))
        << device;
    EXPECT_EQ(toDoubles((*results)[3]), (std::vector<double>{0, 0, 1, 0, 0, 0}))
        << device;
    for (double v : toDoubles((*results)[4])) {
      EXPECT_GE(v, 0.0) << device;
      EXPECT_LT(v, 1.0) << device;
    }
  }
  // Errors name the tensor.
  std::string e = errorOf([&] { argsort(X, 2); });
  EXPECT_NE(e.find("argsort of 'X'"), std::string::npos) << e;
  EXPECT_NE(e.find("axis 2 is out of range for rank 2"), std::string::npos)
      << e;
  e = errorOf([&] { prng(X, {4}); });
  EXPECT_NE(e.find("prng: the state 'X'"), std::string::npos) << e;
  EXPECT_NE(e.find("must be 6 32-bit integers"), std::string::npos) << e;
  e = errorOf([&] { prng(prngSeed(1), {4}, DType::si8); });
  EXPECT_NE(e.find("values of element type si8 are not generated"),
            std::string::npos)
      << e;
  e = errorOf([&] { prng(prngSeed(1), {0, 2}); });
  EXPECT_NE(e.find("has a dimension that is not positive"), std::string::npos)
      << e;
}

TEST(EDSL, CompileProgram) {
  resetTensors();
  Tensor A = Placeholder(DType::f32, {4}, "A");
  Program program("twice", {A}, {A * 2});
  mlir::plaidml::CompileOptions options;
  std::string path = (std::filesystem::temp_directory_path() /
                      ("edsl-test-" + std::to_string(::getpid()) + ".so"))
                         .string();
  std::string error = compileProgram(program, options, path);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove(path);
  // The program's own module is untouched by compiling.
  EXPECT_NE(program.str().find("tile.mul"), std::string::npos);
}
} // namespace
