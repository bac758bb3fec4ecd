//===- Run.h - Run EDSL programs on a device --------------------*- C++ -*-===//
//
// Runs a Program on a device: `reference` evaluates its Tile IR with the
// reference interpreter; `cpu`, `vulkan:N` and `opencl:N` compile it
// through the compile cache (the path plaidml-run takes for an .mlir file)
// and run the artifact with the runtime. Errors are Status values with the
// compiler's or the runtime's message.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_EDSL_RUN_H
#define PLAIDML_EDSL_RUN_H

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/Runtime/Status.h"

#include <memory>
#include <random>

namespace plaidml::edsl {

struct RunOptions {
  /// `reference`, `cpu`, `vulkan:N`, `opencl:N`.
  std::string device = "cpu";
  /// Threads of CPU code.
  unsigned threads = 1;
};

/// A program opened on one device.
class Executable {
public:
  ~Executable();
  /// Opens `program` (compiling it unless the device is `reference`).
  static rt::StatusOr<std::unique_ptr<Executable>>
  open(const Program &program, const RunOptions &options = {});

  /// Runs once on `inputs` (one per program input, matching its spec).
  rt::StatusOr<std::vector<rt::HostArray>>
  run(const std::vector<rt::HostArray> &inputs);
  /// Runs `inputs` as prepared by the last run again (for timing).
  rt::Status rerun();
  /// Milliseconds the compilation took (0 for a cache hit or `reference`).
  double getCompileMs() const { return compileMs; }

  struct Impl;

private:
  Executable() = default;
  std::unique_ptr<Impl> impl;
  double compileMs = 0;
};

/// A seeded array of `spec`: floats uniform in [-1, 1), integers in [-8, 8)
/// ([0, 16) unsigned), the same on every machine. Throws Error when the
/// array cannot be allocated.
rt::HostArray randomArray(const TensorSpec &spec, std::mt19937_64 &rng);

/// An array of `dtype` and `shape` from `values` (row-major, missing values
/// are 0): the runtime's, so unqualified calls are not ambiguous.
using rt::makeArray;
/// Every element of an array of any element type, as a double.
std::vector<double> toDoubles(const rt::HostArray &array);

} // namespace plaidml::edsl

#endif // PLAIDML_EDSL_RUN_H
