//===- Executable.h - An artifact loaded on a device -----------*- C++ -*-===//
//
// An Executable is a compiled artifact (docs/ABI.md) made ready to run on one
// Device: for the CPU driver, its entry points called on host buffers; for
// a GPU driver, its kernel modules loaded on the device and its host code
// bound to it through the launch ABI. Program (Program.h) opens the artifact
// (dlopen, manifest, symbols) into an ExecutableLibrary and asks the device
// for an Executable; most callers use Program and never see this level.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_EXECUTABLE_H
#define PLAIDML_RUNTIME_EXECUTABLE_H

#include "plaidml/Runtime/Buffer.h"
#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <map>
#include <string>
#include <vector>

namespace plaidml::rt {

/// The signature of `_plaidml_entry_<f>`.
using EntryFunction = void (*)(void **buffers);

/// An opened artifact, as a driver receives it: the dlopen handle, the
/// parsed manifest and each entry's wrapper (parallel to manifest.entries).
/// Owned by the Program, which keeps it alive as long as any Executable made
/// from it.
struct ExecutableLibrary {
  std::string path;
  void *handle = nullptr;
  const Manifest *manifest = nullptr;
  std::vector<EntryFunction> functions;
  /// Each entry's preparation function (parallel to `functions`), null for
  /// an entry without one.
  std::vector<EntryFunction> prepareFunctions;
};

/// Options of one executable for its driver, by name (for example the
/// OpenCL driver's `kernel-format`: docs/Runtime.md). A driver refuses an
/// option it does not know.
using ExecutableOptions = std::map<std::string, std::string>;

class Executable {
public:
  virtual ~Executable() = default;

  /// Runs entry `entryIndex` of the manifest once on `buffers`, its inputs
  /// then its outputs, all of this executable's device, and waits for it.
  /// An entry with a preparation also takes its prepared buffer, last.
  virtual Status call(size_t entryIndex,
                      const std::vector<Buffer *> &buffers) = 0;

  /// Runs the preparation of entry `entryIndex` on `buffers`: its inputs,
  /// then the prepared buffer it fills (docs/ABI.md section 2). Only CPU
  /// artifacts have preparations.
  virtual Status prepare(size_t entryIndex,
                         const std::vector<Buffer *> &buffers) {
    (void)entryIndex;
    (void)buffers;
    return Status::unimplemented("this device runs no preparations");
  }

  /// For a GPU executable, one line per kernel module saying what its
  /// kernels are built from and why; empty otherwise.
  virtual std::vector<std::string> describe() const { return {}; }
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_EXECUTABLE_H
