//===- Cases.h - What plaidml-bench-cpu measures ----------------*- C++ -*-===//
//
// A case is one computation measured twice on the same seeded inputs: as a
// Tile program compiled by PlaidML, and by a peer (OpenBLAS, oneDNN, or, for
// the memory-bound elementwise chain, a bandwidth triad). A case knows the
// work of one run (FLOPs or bytes), how to build its peer for a thread
// count, and what PlaidML's output must match. Peers.h has the peers.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_BENCH_CPU_CASES_H
#define PLAIDML_BENCH_CPU_CASES_H

#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::bench {

/// The peer side of a case, built for one thread count on the case's inputs
/// (which outlive it).
class Peer {
public:
  virtual ~Peer() = default;
  /// The peer in the table: the library, and the kernel it chose when it
  /// says ("oneDNN brg:avx512_core").
  virtual std::string getName() const = 0;
  /// One run: the part that is timed.
  virtual rt::Status run() = 0;
  /// What PlaidML's output must equal, in PlaidML's layout, after run().
  /// Untimed: a oneDNN result is reordered back to NHWC here. A peer that
  /// computes something else (the triad) returns the case computed by a
  /// plain loop.
  virtual rt::StatusOr<std::vector<float>> getExpected() = 0;
};

using PeerFactory = std::function<rt::StatusOr<std::unique_ptr<Peer>>(
    const std::vector<rt::HostArray> &inputs, unsigned threads)>;

struct Case {
  /// "sgemm-1024", "resnet50-conv3x3-56x56x64-64", ...: what --filter
  /// matches.
  std::string name;
  /// The shapes in words, for the table.
  std::string shape;
  /// "GFLOP/s" or "GB/s".
  std::string unit;
  /// FLOPs (or bytes) of one run: rate = work / seconds / 1e9.
  double work = 0;
  /// The Tile program; its entry is @main.
  std::string program;
  /// The inputs of @main (all f32), filled with seeded random values.
  std::vector<rt::TensorSpec> inputs;
  /// Terms summed into each output element (K of a matmul, KH*KW*CI of a
  /// convolution, 1 for the elementwise chain): scales the tolerance.
  int64_t reduction = 1;
  /// The peer library ("OpenBLAS", "oneDNN", "triad"), for messages about
  /// a peer that could not be built.
  std::string peerName;
  PeerFactory makePeer;
};

/// The cases in table order: the sizes of docs/Performance.md, or tiny ones
/// with the same names for --quick.
std::vector<Case> getCases(bool quick);

} // namespace plaidml::bench

#endif // PLAIDML_BENCH_CPU_CASES_H
