//===- GpuAbi.h - The launch ABI of GPU artifacts ------------*- C++ -*-===//
//
// The host code of a GPU artifact calls the `mgpu*` functions that upstream
// `gpu-to-llvm` emits (docs/ABI.md section 6). The artifact does not import
// them: plaidml-compile defines each one as a stub that loads the table
// whose address the runtime stores in the artifact's exported
// `_plaidml_gpu_abi` pointer, and calls function slot i of it with the
// table's *context* (its first element) as a leading argument, followed by
// the upstream arguments. The runtime installs one table per loaded program,
// whose context is that program, so no function of the ABI needs global or
// thread-local state: an artifact links with -z defs, loads without the
// runtime's symbols being global, and each loaded program can be served by a
// different device. The artifact exports the version of this ABI it was
// compiled for (`_plaidml_gpu_abi_version`); the runtime refuses any other.
// The slot order below is the contract of one version; new functions are
// appended, never inserted, and any other change is a new version.
//
// Used by the compiler (names, order, the table layout) and the runtime
// (signatures).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_GPUABI_H
#define PLAIDML_RUNTIME_GPUABI_H

#include <cstddef>
#include <cstdint>

/// X(name, return type, parameter list), in slot order. Every function takes
/// the table's context first; the rest is upstream's parameter list. A
/// `stream` is a token the runtime returned from mgpuStreamCreate for the
/// current entry-point call (or null).
#define PLAIDML_GPU_ABI_FUNCTIONS(X)                                           \
  X(mgpuModuleLoad, void *, (void *context, void *data, int64_t size))         \
  X(mgpuModuleUnload, void, (void *context, void *module))                     \
  X(mgpuModuleGetFunction, void *,                                             \
    (void *context, void *module, const char *name))                           \
  X(mgpuLaunchKernel, void,                                                    \
    (void *context, void *function, int64_t gridX, int64_t gridY,              \
     int64_t gridZ, int64_t blockX, int64_t blockY, int64_t blockZ,            \
     int32_t sharedBytes, void *stream, void **params, void **extra,           \
     int64_t paramsCount))                                                     \
  X(mgpuStreamCreate, void *, (void *context))                                 \
  X(mgpuStreamDestroy, void, (void *context, void *stream))                    \
  X(mgpuStreamSynchronize, void, (void *context, void *stream))                \
  X(mgpuStreamWaitEvent, void, (void *context, void *stream, void *event))     \
  X(mgpuEventCreate, void *, (void *context))                                  \
  X(mgpuEventDestroy, void, (void *context, void *event))                      \
  X(mgpuEventSynchronize, void, (void *context, void *event))                  \
  X(mgpuEventRecord, void, (void *context, void *event, void *stream))         \
  X(mgpuMemAlloc, void *,                                                      \
    (void *context, uint64_t bytes, void *stream, bool hostShared))            \
  X(mgpuMemFree, void, (void *context, void *pointer, void *stream))           \
  X(mgpuMemcpy, void,                                                          \
    (void *context, void *dst, void *src, size_t bytes, void *stream))         \
  X(mgpuMemset32, void,                                                        \
    (void *context, void *dst, uint32_t value, size_t count, void *stream))    \
  X(mgpuMemset16, void,                                                        \
    (void *context, void *dst, unsigned short value, size_t count,             \
     void *stream))

namespace plaidml::gpuabi {

/// The version of the launch ABI described here. Version 1 (before the
/// explicit context) called the functions with upstream's arguments alone
/// and exported no version.
constexpr uint32_t kVersion = 2;

/// Function indices, in slot order.
enum Slot : unsigned {
#define PLAIDML_GPU_ABI_SLOT(name, ret, params) name##Slot,
  PLAIDML_GPU_ABI_FUNCTIONS(PLAIDML_GPU_ABI_SLOT)
#undef PLAIDML_GPU_ABI_SLOT
      kNumSlots
};

/// The table: element 0 is the context, element 1 + slot the function of
/// that slot. The runtime owns it and keeps it alive while the program is
/// loaded.
constexpr unsigned kContextIndex = 0;
constexpr unsigned kFirstFunctionIndex = 1;
constexpr unsigned kTableSize = kFirstFunctionIndex + kNumSlots;
constexpr unsigned getTableIndex(Slot slot) {
  return kFirstFunctionIndex + slot;
}

/// Function names in slot order.
inline constexpr const char *kFunctionNames[] = {
#define PLAIDML_GPU_ABI_NAME(name, ret, params) #name,
    PLAIDML_GPU_ABI_FUNCTIONS(PLAIDML_GPU_ABI_NAME)
#undef PLAIDML_GPU_ABI_NAME
};

/// Symbols of a GPU artifact besides the CPU ones (docs/ABI.md):
/// `void *const *_plaidml_gpu_abi` (the table, stored by the runtime),
/// `const uint32_t _plaidml_gpu_abi_version` (kVersion when compiled),
/// `void _plaidml_gpu_load(void)` and `void _plaidml_gpu_unload(void)`.
inline constexpr const char *kTableSymbol = "_plaidml_gpu_abi";
inline constexpr const char *kVersionSymbol = "_plaidml_gpu_abi_version";
inline constexpr const char *kLoadSymbol = "_plaidml_gpu_load";
inline constexpr const char *kUnloadSymbol = "_plaidml_gpu_unload";

} // namespace plaidml::gpuabi

#endif // PLAIDML_RUNTIME_GPUABI_H
