//===- GpuProgram.h - A GPU artifact attached to a device -------*- C++ -*-===//
//
// The runtime half of the launch ABI (include/plaidml/Runtime/GpuAbi.h,
// docs/ABI.md section 6), for any GpuDevice (Vulkan, OpenCL): the Executable
// of a GPU artifact. A GpuProgram is a loaded GPU artifact bound to one
// device: it fills the artifact's `_plaidml_gpu_abi` table with itself as the
// context, loads the kernel modules (`_plaidml_gpu_load`), and calls entry
// points with the *handles* of the device's buffers (GpuDevice.h). Host code
// only passes handles to kernels (plaidml-gpu-host-buffers guarantees it), so
// a whole entry-point call is recorded as one batch of dispatches and
// submitted once. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_GPUPROGRAM_H
#define PLAIDML_LIB_RUNTIME_GPUPROGRAM_H

#include "gpu/GpuBackend.h"
#include "gpu/GpuDevice.h"

#include "plaidml/Runtime/Executable.h"
#include "plaidml/Runtime/GpuAbi.h"
#include "plaidml/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plaidml::rt {

struct GpuModule;

class GpuProgram : public Executable {
public:
  /// Binds the artifact opened as `library` to `device`: checks its launch
  /// ABI version and the manifest's requirements against the device, fills
  /// the ABI table and loads the kernel modules. `options` are the driver
  /// options (GpuBackend::parseOptions).
  static StatusOr<std::unique_ptr<GpuProgram>>
  attach(const ExecutableLibrary &library, GpuDevice &device,
         const ExecutableOptions &options);
  /// Unloads the kernel modules (before the library is closed).
  ~GpuProgram() override;
  GpuProgram(const GpuProgram &) = delete;
  GpuProgram &operator=(const GpuProgram &) = delete;

  /// Calls the entry with the handles of `buffers`, with the mgpu*
  /// functions served by this program, submits what it recorded and waits
  /// for it. The first failure of any mgpu* call (the rest are skipped) is
  /// the result. Calls of one program run one at a time.
  Status call(size_t entryIndex, const std::vector<Buffer *> &buffers) override;
  /// One line per loaded kernel module: the device, the module and what its
  /// kernels are built from ("opencl:0 (...): kernel module 'k': OpenCL C
  /// (...)").
  std::vector<std::string> describe() const override;

  // The implementation of the mgpu* functions (GpuProgram.cpp).
  struct Call;
  struct Function;

  GpuDevice &device;
  const ExecutableLibrary &library;
  std::unique_ptr<GpuModuleOptions> moduleOptions;
  std::vector<std::unique_ptr<GpuModule>> modules;
  void (*unload)() = nullptr;
  /// The artifact's `_plaidml_gpu_abi` table: this program, then the mgpu*
  /// functions.
  std::array<void *, gpuabi::kTableSize> table = {};
  /// Serializes the calls of the artifact's code (load, entry points,
  /// unload): the ABI's per-call state is `active`.
  std::mutex callMutex;
  /// The call running now, while callMutex is held; null otherwise.
  Call *active = nullptr;
  /// Temporaries of the host code (mgpuMemAlloc), by handle.
  std::map<void *, std::unique_ptr<Buffer>> temporaries;

private:
  GpuProgram(const ExecutableLibrary &library, GpuDevice &device)
      : device(device), library(library) {}
  /// Runs `body` (code of the artifact) as the active call.
  Status run(const std::function<void()> &body);
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_GPUPROGRAM_H
