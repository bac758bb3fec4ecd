//===- GpuAbi.h - The launch ABI of GPU artifacts ------------*- C++ -*-===//
//
// The host code of a GPU artifact calls the `mgpu*` functions that upstream
// `gpu-to-llvm` emits (docs/ABI.md section 6). The artifact does not import
// them: plaidml-compile defines each one as a stub that calls through slot i
// of a table whose address the runtime stores in the artifact's exported
// `_plaidml_gpu_abi` pointer after dlopen, before it calls the exported
// `_plaidml_gpu_load()` (the kernel modules' constructors, which upstream
// puts in llvm.global_ctors). So an artifact links with -z defs, loads
// without the runtime's symbols being global, and each loaded program can
// be served by a different device. The slot order below is the contract;
// new functions are appended, never inserted.
//
// Used by the compiler (names and order) and the runtime (signatures).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_GPUABI_H
#define PLAIDML_RUNTIME_GPUABI_H

#include <cstddef>
#include <cstdint>

/// X(name, return type, parameter list), in slot order.
#define PLAIDML_GPU_ABI_FUNCTIONS(X)                                           \
  X(mgpuModuleLoad, void *, (void *data, int64_t size))                        \
  X(mgpuModuleUnload, void, (void *module))                                    \
  X(mgpuModuleGetFunction, void *, (void *module, const char *name))           \
  X(mgpuLaunchKernel, void,                                                    \
    (void *function, int64_t gridX, int64_t gridY, int64_t gridZ,              \
     int64_t blockX, int64_t blockY, int64_t blockZ, int32_t sharedBytes,      \
     void *stream, void **params, void **extra, int64_t paramsCount))          \
  X(mgpuStreamCreate, void *, ())                                              \
  X(mgpuStreamDestroy, void, (void *stream))                                   \
  X(mgpuStreamSynchronize, void, (void *stream))                               \
  X(mgpuStreamWaitEvent, void, (void *stream, void *event))                    \
  X(mgpuEventCreate, void *, ())                                               \
  X(mgpuEventDestroy, void, (void *event))                                     \
  X(mgpuEventSynchronize, void, (void *event))                                 \
  X(mgpuEventRecord, void, (void *event, void *stream))                        \
  X(mgpuMemAlloc, void *, (uint64_t bytes, void *stream, bool hostShared))     \
  X(mgpuMemFree, void, (void *pointer, void *stream))                          \
  X(mgpuMemcpy, void, (void *dst, void *src, size_t bytes, void *stream))      \
  X(mgpuMemset32, void,                                                        \
    (void *dst, uint32_t value, size_t count, void *stream))                   \
  X(mgpuMemset16, void,                                                        \
    (void *dst, unsigned short value, size_t count, void *stream))

namespace plaidml::gpuabi {

/// Slot indices.
enum Slot : unsigned {
#define PLAIDML_GPU_ABI_SLOT(name, ret, params) name##Slot,
  PLAIDML_GPU_ABI_FUNCTIONS(PLAIDML_GPU_ABI_SLOT)
#undef PLAIDML_GPU_ABI_SLOT
      kNumSlots
};

/// Function names in slot order.
inline constexpr const char *kFunctionNames[] = {
#define PLAIDML_GPU_ABI_NAME(name, ret, params) #name,
    PLAIDML_GPU_ABI_FUNCTIONS(PLAIDML_GPU_ABI_NAME)
#undef PLAIDML_GPU_ABI_NAME
};

/// Symbols of a GPU artifact besides the CPU ones (docs/ABI.md).
inline constexpr const char *kTableSymbol = "_plaidml_gpu_abi";
inline constexpr const char *kLoadSymbol = "_plaidml_gpu_load";
inline constexpr const char *kUnloadSymbol = "_plaidml_gpu_unload";

} // namespace plaidml::gpuabi

#endif // PLAIDML_RUNTIME_GPUABI_H
