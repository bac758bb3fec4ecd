//===- Cases.cpp - The cases of plaidml-bench-cpu -------------------------===//
//
// The case list of docs/Performance.md and the Tile program of each case,
// generated for its sizes: a matmul contraction, a VALID NHWC convolution
// (O[n,h,w,co] += I[n,h+kh,w+kw,ci] * K[kh,kw,ci,co]) on an input that is
// already padded, a depthwise one (O[n,h,w,c] += I[n,h+kh,w+kw,c] *
// K[kh,kw,c]), and the elementwise chain relu(X + Bias) * 0.5. No access
// leaves its tensor, so tile-compute-bounds leaves no constraint behind and
// both sides compute exactly the same sums.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"
#include "Peers.h"

#include <sstream>

using namespace plaidml;
using namespace plaidml::bench;

namespace {
/// "1x58x58x64xf32", the MLIR spelling of an f32 tensor's shape.
std::string f32Shape(const std::vector<int64_t> &shape) {
  return rt::describeShapeAndType(shape, rt::DType::f32);
}

rt::TensorSpec f32Input(const std::string &name,
                        const std::vector<int64_t> &shape) {
  rt::TensorSpec spec;
  spec.name = name;
  spec.dtype = rt::DType::f32;
  spec.shape = shape;
  return spec;
}

const float *data(const rt::HostArray &array) {
  return reinterpret_cast<const float *>(array.bytes.data());
}

/// A function @main(inputs) -> result whose body computes %result from the
/// arguments named in `inputs`.
std::string makeProgram(const std::vector<rt::TensorSpec> &inputs,
                        const std::vector<int64_t> &resultShape,
                        const std::string &body) {
  std::ostringstream os;
  os << "func.func @main(";
  for (size_t i = 0; i < inputs.size(); ++i)
    os << (i ? ", " : "") << "%" << inputs[i].name << ": tensor<"
       << f32Shape(inputs[i].shape) << ">";
  os << ") -> tensor<" << f32Shape(resultShape) << "> {\n"
     << body << "  return %result : tensor<" << f32Shape(resultShape)
     << ">\n}\n";
  return os.str();
}

/// `%result = tile.contract add, mul` of the two inputs, with `idxs` naming
/// the dimensions and the sink and source maps given as their results.
std::string makeContraction(const std::vector<rt::TensorSpec> &inputs,
                            const std::vector<int64_t> &resultShape,
                            const std::string &idxs, const std::string &sink,
                            const std::string &src0, const std::string &src1) {
  std::string quoted, dims = "(" + idxs + ")";
  std::istringstream names(idxs);
  for (std::string name; std::getline(names, name, ',');) {
    name.erase(0, name.find_first_not_of(' '));
    quoted += (quoted.empty() ? "\"" : ", \"") + name + "\"";
  }
  std::ostringstream os;
  os << "  %zero = tile.constant dense<0.0> : tensor<f32>\n"
     << "  %result = tile.contract add, mul, %zero, %" << inputs[0].name
     << ", %" << inputs[1].name << " {idxs = [" << quoted << "],\n"
     << "      sink = affine_map<" << dims << " -> (" << sink << ")>,\n"
     << "      srcs = [affine_map<" << dims << " -> (" << src0 << ")>,\n"
     << "              affine_map<" << dims << " -> (" << src1 << ")>]}\n"
     << "    : tensor<f32>, tensor<" << f32Shape(inputs[0].shape)
     << ">, tensor<" << f32Shape(inputs[1].shape) << "> -> tensor<"
     << f32Shape(resultShape) << ">\n";
  return makeProgram(inputs, resultShape, os.str());
}

/// C[M,N] = A[M,K] * B[K,N] against OpenBLAS.
Case makeSgemm(const std::string &name, int64_t m, int64_t k, int64_t n) {
  Case c;
  c.name = name;
  c.shape = "MxKxN " + std::to_string(m) + "x" + std::to_string(k) + "x" +
            std::to_string(n);
  c.unit = "GFLOP/s";
  c.work = 2.0 * m * n * k;
  c.inputs = {f32Input("A", {m, k}), f32Input("B", {k, n})};
  c.program =
      makeContraction(c.inputs, {m, n}, "m, n, k", "m, n", "m, k", "k, n");
  c.reduction = k;
  c.peerName = "OpenBLAS";
  c.makePeer = [=](const std::vector<rt::HostArray> &inputs,
                   unsigned threads) -> rt::StatusOr<std::unique_ptr<Peer>> {
    return createOpenBlasSgemm(data(inputs[0]), data(inputs[1]), m, k, n,
                               threads);
  };
  return c;
}

/// A VALID convolution (dense or depthwise) of a pre-padded NHWC input
/// against oneDNN.
Case makeConv(const std::string &name, const ConvShape &s) {
  int64_t oh = s.getOutHeight(), ow = s.getOutWidth();
  int64_t co = s.outChannels;
  Case c;
  c.name = name;
  std::vector<int64_t> kernelShape =
      s.depthwise
          ? std::vector<int64_t>{s.kernelHeight, s.kernelWidth, s.channels}
          : std::vector<int64_t>{s.kernelHeight, s.kernelWidth, s.channels, co};
  c.inputs = {f32Input("I", {1, s.height, s.width, s.channels}),
              f32Input("K", kernelShape)};
  c.shape = "I " + f32Shape(c.inputs[0].shape) + " (VALID), K " +
            f32Shape(kernelShape) + " -> " + f32Shape({1, oh, ow, co});
  c.unit = "GFLOP/s";
  int64_t perOutput = s.kernelHeight * s.kernelWidth;
  if (!s.depthwise)
    perOutput *= s.channels;
  c.work = 2.0 * oh * ow * co * perOutput;
  c.reduction = perOutput;
  if (s.depthwise)
    c.program =
        makeContraction(c.inputs, {1, oh, ow, co}, "n, h, w, c, kh, kw",
                        "n, h, w, c", "n, h + kh, w + kw, c", "kh, kw, c");
  else
    c.program = makeContraction(c.inputs, {1, oh, ow, co},
                                "n, h, w, co, kh, kw, ci", "n, h, w, co",
                                "n, h + kh, w + kw, ci", "kh, kw, ci, co");
  c.peerName = "oneDNN";
  c.makePeer = [=](const std::vector<rt::HostArray> &inputs, unsigned threads) {
    return createOneDnnConv(s, data(inputs[0]), data(inputs[1]), threads);
  };
  return c;
}

ConvShape conv(int64_t height, int64_t width, int64_t channels, int64_t kernel,
               int64_t outChannels) {
  ConvShape s;
  s.height = height;
  s.width = width;
  s.channels = channels;
  s.kernelHeight = s.kernelWidth = kernel;
  s.outChannels = outChannels;
  return s;
}

ConvShape depthwise(int64_t height, int64_t width, int64_t channels,
                    int64_t kernel) {
  ConvShape s = conv(height, width, channels, kernel, channels);
  s.depthwise = true;
  return s;
}

/// O = relu(X + Bias) * 0.5 against the triad on as many elements. Bytes
/// counted: X read and O written once (Bias is one row).
Case makeElementwise(const std::string &name, int64_t rows, int64_t cols) {
  Case c;
  c.name = name;
  c.inputs = {f32Input("X", {rows, cols}), f32Input("Bias", {cols})};
  c.shape = "X " + f32Shape({rows, cols}) + ", Bias " + f32Shape({cols});
  c.unit = "GB/s";
  c.work = 2.0 * rows * cols * sizeof(float);
  std::string x = "tensor<" + f32Shape({rows, cols}) + ">";
  c.program = makeProgram(c.inputs, {rows, cols},
                          "  %half = tile.constant dense<0.5> : tensor<f32>\n"
                          "  %sum = tile.add %X, %Bias : " +
                              x + ", tensor<" + f32Shape({cols}) + "> -> " + x +
                              "\n"
                              "  %relu = tile.relu %sum : " +
                              x +
                              "\n"
                              "  %result = tile.mul %relu, %half : " +
                              x + ", tensor<f32> -> " + x + "\n");
  c.peerName = "triad";
  c.makePeer = [=](const std::vector<rt::HostArray> &inputs, unsigned threads) {
    return createTriad(data(inputs[0]), data(inputs[1]), rows, cols, threads);
  };
  return c;
}
} // namespace

std::vector<Case> plaidml::bench::getCases(bool quick) {
  // --quick keeps every kind of case (and its name) at a size that runs in
  // milliseconds, with some odd sizes, for the smoke test.
  auto size = [&](int64_t full, int64_t small) { return quick ? small : full; };
  std::vector<Case> cases;
  for (auto [full, small] : {std::pair<int64_t, int64_t>{256, 16},
                             {512, 24},
                             {1024, 32},
                             {2048, 40}})
    cases.push_back(makeSgemm("sgemm-" + std::to_string(full),
                              size(full, small), size(full, small),
                              size(full, small)));
  cases.push_back(
      makeSgemm("sgemm-1x1024x1024", 1, size(1024, 33), size(1024, 65)));
  cases.push_back(makeSgemm("sgemm-4096x64x4096", size(4096, 70), size(64, 5),
                            size(4096, 62)));
  // ResNet-50 and MobileNetV2 layers, batch 1; a 3x3 input is padded by
  // one on each side beforehand (56 + 2 = 58), so the output is 56x56.
  cases.push_back(
      makeConv("resnet50-conv3x3-56x56x64-64",
               quick ? conv(7, 6, 3, 3, 5) : conv(58, 58, 64, 3, 64)));
  cases.push_back(
      makeConv("resnet50-conv1x1-56x56x64-256",
               quick ? conv(5, 6, 4, 1, 7) : conv(56, 56, 64, 1, 256)));
  cases.push_back(
      makeConv("resnet50-conv3x3-7x7x512-512",
               quick ? conv(5, 5, 9, 3, 11) : conv(9, 9, 512, 3, 512)));
  cases.push_back(
      makeConv("mobilenetv2-dw3x3-112x112x32",
               quick ? depthwise(8, 7, 6, 3) : depthwise(114, 114, 32, 3)));
  cases.push_back(makeElementwise("eltwise-bias-relu-scale-16M", size(4096, 33),
                                  size(4096, 64)));
  return cases;
}
