//===- Program.h - Loading and running compiled artifacts -------*- C++ -*-===//
//
// A Program is a loaded artifact (docs/ABI.md): the shared library, opened
// with dlopen, its parsed manifest, and the `void wrapper(void **buffers)`
// function of every entry point, resolved at load time. Loading refuses an
// artifact of another format version, device kind or with CPU features this
// machine lacks. run() checks inputs against the manifest, allocates 64-byte
// aligned outputs and calls the entry; prepare() + Invocation::execute() do
// the same in two steps so that a caller can time the execution alone. On a
// Vulkan device, prepare() copies the inputs to device buffers, execute()
// runs the kernels and getOutputs() copies the results back.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_PROGRAM_H
#define PLAIDML_RUNTIME_PROGRAM_H

#include "plaidml/Runtime/Device.h"
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

/// The signature of `_plaidml_entry_<f>`.
using EntryFunction = void (*)(void **buffers);

/// Alignment of the buffers the runtime passes to entry points.
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
class DeviceBuffers;

/// A call of one entry point with its buffers bound: inputs copied in,
/// outputs allocated. execute() may run any number of times; it only calls
/// the entry. An Invocation keeps its artifact loaded.
class Invocation {
public:
  const EntrySpec &getEntry() const { return *entry; }

  /// Replaces input `index` (its shape and type must match the manifest).
  Status setInput(size_t index, const HostArray &array);
  /// Runs the entry once on the bound buffers.
  Status execute();
  /// Copies output `index` into a host array (from the device, for a GPU
  /// program).
  StatusOr<HostArray> getOutput(size_t index) const;
  /// Copies all outputs, in manifest order.
  StatusOr<std::vector<HostArray>> getOutputs() const;
  /// The raw host buffers: inputs, then outputs (what the entry receives);
  /// empty for a GPU program, whose buffers live on the device.
  const std::vector<AlignedBuffer> &getBuffers() const { return buffers; }

private:
  friend class Program;
  Invocation() = default;

  std::shared_ptr<const LoadedLibrary> library;
  const EntrySpec *entry = nullptr;
  EntryFunction function = nullptr;
  std::vector<AlignedBuffer> buffers;
  /// A GPU program's device buffers (inputs, then outputs); null on the CPU.
  std::shared_ptr<DeviceBuffers> device;
  /// What the entry receives: host pointers, or device buffer handles.
  std::vector<void *> pointers;
};

struct LoadOptions {
  /// The device the program will run on; its kind must match the manifest.
  DeviceName device;
  /// The CPU to check features against; null means this machine's
  /// (HostCpu::get()). Tests substitute a CPU here.
  const HostCpu *hostCpu = nullptr;
  /// On an OpenCL device, the format kernel modules are built from:
  /// "spirv", "opencl-c" or "auto" (per device: SPIR-V where the device
  /// takes it and the artifact has it, else OpenCL C). Empty means the
  /// PLAIDML_OPENCL_KERNEL_FORMAT environment variable, else "auto".
  std::string openclKernelFormat;
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

  /// For a GPU program, one line per kernel module saying what its kernels
  /// are built from and why ("opencl:0 (...): kernel module
  /// 'matmul_kernel': OpenCL C (...)"); empty on the CPU.
  std::vector<std::string> describeKernelModules() const;

  /// The entry named `name`; an empty name means the only entry. Fails,
  /// listing the entries, when there is no such entry (or no single one).
  StatusOr<const EntrySpec *> getEntry(std::string_view name) const;

  /// Checks `inputs` against entry `entryName` (count, shape, element type),
  /// copies them into aligned buffers and allocates the outputs.
  StatusOr<Invocation> prepare(std::string_view entryName,
                               const std::vector<HostArray> &inputs) const;

  /// prepare() + execute() + getOutputs().
  StatusOr<std::vector<HostArray>>
  run(std::string_view entryName, const std::vector<HostArray> &inputs) const;

private:
  Program() = default;

  /// The dlopen handle, the manifest and the resolved wrappers, shared with
  /// the Invocations so that they stay valid after the Program is gone.
  std::shared_ptr<const LoadedLibrary> library;
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_PROGRAM_H
