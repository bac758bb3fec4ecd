//===- Manifest.h - The manifest of a compiled artifact ---------*- C++ -*-===//
//
// Every artifact exports a string `plaidml_manifest` (docs/ABI.md section 3)
// that records the format version, the compiler, the target device kind,
// triple, CPU and features, and each entry point with its wrapper symbol and
// the names, shapes and element types of its inputs and outputs. This header
// holds the parsed form and the parser, whose errors give the line number and
// what is wrong with that line.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_MANIFEST_H
#define PLAIDML_RUNTIME_MANIFEST_H

#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

/// The artifact format version this runtime reads.
constexpr int kArtifactFormatVersion = 1;

/// One input or output of an entry point.
struct TensorSpec {
  std::string name;
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
  /// An input the entry's preparation reads (`param` on its manifest line):
  /// changing it makes the prepared data stale (docs/ABI.md section 2).
  bool param = false;

  int64_t getNumElements() const;
  size_t getByteSize() const;
  /// "2x3xf32" (or "f32" for a scalar).
  std::string describe() const;
  /// Whether `array` has this shape and element type.
  bool matches(const HostArray &array) const;
};

/// One entry point: `name` is the function, `symbol` its
/// `void symbol(void **buffers)` wrapper.
struct EntrySpec {
  std::string name;
  std::string symbol;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  /// Bytes of the workspace the entry's temporaries live in (CPU code
  /// only), which the caller allocates and passes after the outputs; 0:
  /// none (docs/ABI.md section 2).
  uint64_t workspaceBytes = 0;
  /// The preparation (CPU code only): `void prepareSymbol(void **buffers)`
  /// fills the prepared buffer of `preparedBytes` bytes from the inputs,
  /// of which it reads the `param` ones; the entry then reads that buffer,
  /// passed after the outputs. Empty / 0: none (docs/ABI.md section 2).
  std::string prepareSymbol;
  uint64_t preparedBytes = 0;
};

struct Manifest {
  int version = kArtifactFormatVersion;
  std::string compiler;
  /// The driver the artifact was compiled for ("cpu", "vulkan", "opencl"),
  /// a registered one (Driver.h).
  std::string device = "cpu";
  /// Empty when the manifest has no such line.
  std::string triple;
  std::string cpu;
  /// LLVM target features, e.g. {"+avx2", "-avx512f"}.
  std::vector<std::string> features;
  /// What a GPU artifact's kernels need of the device: SPIR-V capabilities
  /// and extensions ("Shader", "Float64", "SPV_KHR_8bit_storage").
  std::vector<std::string> requirements;
  std::vector<EntrySpec> entries;

  /// The entry named `name`, or null.
  const EntrySpec *findEntry(std::string_view name) const;
  /// The architecture part of the triple ("x86_64"), or empty.
  std::string getArch() const;

  /// Parses manifest text. Errors read "line N: <what is wrong>".
  static StatusOr<Manifest> parse(std::string_view text);
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_MANIFEST_H
