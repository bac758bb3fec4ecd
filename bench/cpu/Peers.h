//===- Peers.h - The libraries PlaidML is measured against ------*- C++ -*-===//
//
// The peers of plaidml-bench-cpu: OpenBLAS's cblas_sgemm, oneDNN's
// convolution (memory format `any`, reorders outside the timed run), and a
// STREAM-style triad that gives the memory bandwidth the elementwise chain
// is compared with. Each lives in its own file because each needs its own
// compile flags (oneDNN's C++ API throws; the triad is built for this
// machine's ISA).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_BENCH_CPU_PEERS_H
#define PLAIDML_BENCH_CPU_PEERS_H

#include "Cases.h"

#include <cstdint>
#include <memory>
#include <string>

namespace plaidml::bench {

/// C[M,N] = A[M,K] * B[K,N], row-major, with `threads` OpenBLAS threads.
std::unique_ptr<Peer> createOpenBlasSgemm(const float *a, const float *b,
                                          int64_t m, int64_t k, int64_t n,
                                          unsigned threads);

/// OpenBLAS's version, the core its kernels are for, and its build config.
std::string describeOpenBlas();

/// A VALID (unpadded, stride 1) convolution of an NHWC input with batch 1.
struct ConvShape {
  int64_t height = 0, width = 0, channels = 0;
  int64_t kernelHeight = 0, kernelWidth = 0;
  /// Output channels; equal to `channels` for a depthwise convolution.
  int64_t outChannels = 0;
  /// Depthwise: one filter per channel (a grouped convolution with
  /// groups = channels); the kernel is KH x KW x C.
  bool depthwise = false;

  int64_t getOutHeight() const { return height - kernelHeight + 1; }
  int64_t getOutWidth() const { return width - kernelWidth + 1; }
};

/// The convolution of `shape` on `input` (1 x H x W x C) and `kernel`
/// (KH x KW x C x CO, or KH x KW x C for depthwise) with oneDNN, on
/// `threads` OpenMP threads. Fails with oneDNN's message when it rejects
/// the convolution.
rt::StatusOr<std::unique_ptr<Peer>> createOneDnnConv(const ConvShape &shape,
                                                     const float *input,
                                                     const float *kernel,
                                                     unsigned threads);

/// oneDNN's version, threading runtime and the ISA it dispatches to.
std::string describeOneDnn();

/// The triad a[i] = b[i] + s * c[i] over `elements` floats on `threads`
/// threads. Its getExpected() is the elementwise chain relu(X + Bias) * 0.5
/// on `x` (rows x cols) and `bias` (cols), computed by a plain loop. Fails
/// when the arrays cannot be allocated.
rt::StatusOr<std::unique_ptr<Peer>> createTriad(const float *x,
                                                const float *bias, int64_t rows,
                                                int64_t cols, unsigned threads);

} // namespace plaidml::bench

#endif // PLAIDML_BENCH_CPU_PEERS_H
