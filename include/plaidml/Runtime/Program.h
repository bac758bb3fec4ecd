//===- Program.h - Loading and running compiled artifacts -------*- C++ -*-===//
//
// A Program is an artifact (docs/ABI.md) loaded for one device: the shared
// library, opened with dlopen, its parsed manifest, the `void wrapper(void
// **buffers)` function of every entry point, resolved at load time, and the
// Executable (Executable.h) the device's driver made of it. Loading refuses
// an artifact of another format version or device kind, or with CPU
// features this machine lacks. run() checks inputs against the manifest,
// makes device buffers for inputs and outputs, and calls the entry;
// prepare() + Invocation::execute() do the same in two steps so that a
// caller can time the execution alone: prepare() writes the inputs to
// device buffers, execute() runs the entry, getOutputs() reads the results
// back. Nothing here depends on the kind of device (docs/Runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_PROGRAM_H
#define PLAIDML_RUNTIME_PROGRAM_H

#include "plaidml/Runtime/Buffer.h"
#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Executable.h"
#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/HostCpu.h"
#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

/// Alignment of the host buffers the runtime passes to entry points.
constexpr size_t kBufferAlignment = 64;

/// Owned host memory aligned to kBufferAlignment (never null, even for zero
/// bytes).
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  AlignedBuffer(AlignedBuffer &&other) noexcept;
  AlignedBuffer &operator=(AlignedBuffer &&other) noexcept;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  ~AlignedBuffer();

  /// Allocates `size` zeroed bytes; `what` names the buffer in the error.
  static StatusOr<AlignedBuffer> allocate(size_t size, const std::string &what);

  void *data() const { return ptr; }
  size_t size() const { return bytes; }

private:
  void *ptr = nullptr;
  size_t bytes = 0;
};

class LoadedLibrary;

/// A call of one entry point with its buffers bound: inputs copied in,
/// outputs allocated on the program's device. execute() may run any number
/// of times; it only calls the entry. An Invocation keeps its artifact
/// loaded and its device open.
class Invocation {
public:
  const EntrySpec &getEntry() const { return *entry; }

  /// Replaces input `index` (its shape and type must match the manifest).
  /// Replacing an input the entry's preparation reads (a `param` input)
  /// makes the next execute() prepare again.
  Status setInput(size_t index, const HostArray &array);
  /// Runs the entry once on the bound buffers. An entry with a preparation
  /// (docs/ABI.md section 2) runs it first on the first call and after a
  /// setInput() of a `param` input; later calls reuse the prepared buffer.
  /// A `param` input's buffer written directly (getBuffers()) is not
  /// noticed: call invalidatePrepared() after such a write.
  Status execute();
  /// Makes the next execute() run the preparation again.
  void invalidatePrepared() { preparedValid = false; }
  /// Reads output `index` from the device into a host array.
  StatusOr<HostArray> getOutput(size_t index) const;
  /// Reads all outputs, in manifest order.
  StatusOr<std::vector<HostArray>> getOutputs() const;
  /// The device buffers: inputs, then outputs (what the entry receives).
  const std::vector<std::unique_ptr<Buffer>> &getBuffers() const {
    return buffers;
  }

private:
  friend class Program;
  Invocation() = default;

  std::shared_ptr<const LoadedLibrary> library;
  const EntrySpec *entry = nullptr;
  size_t entryIndex = 0;
  std::vector<std::unique_ptr<Buffer>> buffers;
  /// The entry's prepared buffer (null without a preparation), and whether
  /// it holds the preparation of the current inputs.
  std::unique_ptr<Buffer> prepared;
  bool preparedValid = false;
};

struct LoadOptions {
  /// The device the program will run on; its driver must be the manifest's
  /// `device`.
  DeviceName device;
  /// The CPU to check the host code's features against; null means this
  /// machine's (HostCpu::get()). Tests substitute a CPU here.
  const HostCpu *hostCpu = nullptr;
  /// Options for the device's driver (Device::loadExecutable), e.g. the
  /// OpenCL driver's {"kernel-format", "spirv"} (docs/Runtime.md).
  ExecutableOptions driverOptions;
};

class Program {
public:
  /// Loads the artifact at `path`. Errors name the file and say what is
  /// wrong (dlopen's message, a missing symbol, a manifest error with its
  /// line, a device or CPU-feature mismatch).
  static StatusOr<std::unique_ptr<Program>>
  load(const std::string &path, const LoadOptions &options = {});

  const std::string &getPath() const;
  const Manifest &getManifest() const;
  /// The device the program runs on.
  Device &getDevice() const;

  /// For a GPU program, one line per kernel module saying what its kernels
  /// are built from and why ("opencl:0 (...): kernel module
  /// 'matmul_kernel': OpenCL C (...)"); empty on the CPU.
  std::vector<std::string> describeKernelModules() const;

  /// The entry named `name`; an empty name means the only entry. Fails,
  /// listing the entries, when there is no such entry (or no single one).
  StatusOr<const EntrySpec *> getEntry(std::string_view name) const;

  /// Checks `inputs` against entry `entryName` (count, shape, element type),
  /// writes them into buffers of the device and allocates the outputs.
  StatusOr<Invocation> prepare(std::string_view entryName,
                               const std::vector<HostArray> &inputs) const;

  /// Runs entry `entryName` once on the caller's `buffers` (buffers of
  /// getDevice(): the inputs, then the outputs, each of its tensor's byte
  /// size) and waits for it. Fails (InvalidArgument) on a wrong count, size
  /// or device. An entry with a preparation runs it on every such call, into
  /// a buffer of its own: keep an Invocation to prepare once.
  Status execute(std::string_view entryName,
                 const std::vector<Buffer *> &buffers) const;

  /// prepare() + execute() + getOutputs().
  StatusOr<std::vector<HostArray>>
  run(std::string_view entryName, const std::vector<HostArray> &inputs) const;

private:
  Program() = default;

  /// The dlopen handle, the manifest, the resolved wrappers, the device and
  /// the executable, shared with the Invocations so that they stay valid
  /// after the Program is gone.
  std::shared_ptr<const LoadedLibrary> library;
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_PROGRAM_H
