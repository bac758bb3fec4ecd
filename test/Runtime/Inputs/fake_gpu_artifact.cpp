//===- fake_gpu_artifact.cpp - A hand-written GPU artifact ----------------===//
//
// Stands in for a `vulkan:N` artifact of plaidml-compile (docs/ABI.md section
// 6) so that the runtime's side of the launch ABI is tested without the
// compiler: it exports `_plaidml_gpu_abi`, `_plaidml_gpu_load` (loads
// Inputs/add.spv, c[i] = a[i] + b[i] with 64-wide workgroups) and
// `_plaidml_gpu_unload`, and entry points that call the mgpu* functions
// through the table the way gpu-to-llvm's host code does. FAKE_GPU_NEEDS
// builds a variant whose manifest requires a capability no device has;
// FAKE_GPU_OPENCL one for OpenCL devices, whose module is OpenCL C text;
// FAKE_GPU_OPENCL_BUNDLE one whose module is a kernel bundle (docs/ABI.md
// section 6) of the same kernel as SPIR-V (Inputs/add-opencl.spv) and
// OpenCL C, written here byte by byte after the documented layout;
// FAKE_GPU_OPENCL_TRUNCATED that bundle without its last 8 bytes;
// FAKE_GPU_ABI_V3 one that says it was compiled for launch ABI version 3,
// FAKE_GPU_ABI_V1 one that exports no version (as version 1 artifacts did).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/GpuAbi.h"

#include <cstdint>
#include <cstdio>
#include <vector>

#define EXPORT extern "C" __attribute__((visibility("default")))

using namespace plaidml::gpuabi;

#if defined(FAKE_GPU_NEEDS)
#define DEVICE "vulkan"
#define REQUIRES "Shader,NoSuchCapability"
#elif defined(FAKE_GPU_OPENCL) || defined(FAKE_GPU_OPENCL_BUNDLE) ||           \
    defined(FAKE_GPU_OPENCL_TRUNCATED)
#define FAKE_GPU_ANY_OPENCL 1
#define DEVICE "opencl"
#define REQUIRES "cl_khr_byte_addressable_store"
#else
#define DEVICE "vulkan"
#define REQUIRES "Shader"
#endif

EXPORT const char plaidml_manifest[] =
    "plaidml-artifact 1\n"
    "device " DEVICE "\n"
    "requires " REQUIRES "\n"
    "entry add _plaidml_entry_add\n"
    "input a 100xf32\n"
    "input b 100xf32\n"
    "output c 100xf32\n"
    "entry fill _plaidml_entry_fill\n"
    "output c 100xf32\n"
    "entry bad_pointer _plaidml_entry_bad_pointer\n"
    "output c 100xf32\n"
    "entry big_grid _plaidml_entry_big_grid\n"
    "output c 100xf32\n"
    "entry no_kernel _plaidml_entry_no_kernel\n"
    "output c 100xf32\n"
    "end\n";

EXPORT void *const *_plaidml_gpu_abi = nullptr;

#if defined(FAKE_GPU_ABI_V1)
#define FAKE_GPU_ABI_VERSION 1
#elif defined(FAKE_GPU_ABI_V3)
#define FAKE_GPU_ABI_VERSION 3
#else
#define FAKE_GPU_ABI_VERSION 2
#endif
#if FAKE_GPU_ABI_VERSION != 1
EXPORT const uint32_t _plaidml_gpu_abi_version = FAKE_GPU_ABI_VERSION;
#endif

/// What plaidml-compile's stubs do: the table's context first.
template <Slot slot, typename Ret, typename... Args>
static Ret call(Args... args) {
  using Fn = Ret (*)(void *, Args...);
  return reinterpret_cast<Fn>(_plaidml_gpu_abi[getTableIndex(slot)])(
      _plaidml_gpu_abi[kContextIndex], args...);
}

static void *module = nullptr;

/// The bytes of the file at `path` (none when it cannot be read).
static std::vector<char> readFile(const char *path) {
  std::vector<char> bytes;
  if (FILE *f = std::fopen(path, "rb")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0)
      bytes.insert(bytes.end(), buffer, buffer + n);
    std::fclose(f);
  }
  return bytes;
}

#if defined(FAKE_GPU_ANY_OPENCL)
// OpenCL kernels cannot be called main.
#define KERNEL "add"
static const char kSource[] =
    "__kernel void add(__global const float *a, __global const float *b,\n"
    "                  __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < 100) c[i] = a[i] + b[i];\n"
    "}\n";

#if defined(FAKE_GPU_OPENCL)
EXPORT void _plaidml_gpu_load() {
  module = call<mgpuModuleLoadSlot, void *>(const_cast<char *>(kSource),
                                            int64_t(sizeof(kSource)));
}
#else
static void putWord(std::vector<char> &out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>(value >> (8 * i)));
}

/// magic, version 1, 3 entries {kind, offset, size}: SPIR-V (1), OpenCL C
/// (2), name (3); then each entry's bytes, padded to a multiple of 4.
static std::vector<char> makeBundle() {
  std::vector<char> spirv = readFile(ADD_OPENCL_SPV_PATH);
  std::vector<char> text(kSource, kSource + sizeof(kSource) - 1);
  std::vector<char> name = {'a', 'd', 'd'};
  std::vector<char> out = {'\x7f', 'P', 'K', 'B'};
  putWord(out, 1);
  putWord(out, 3);
  uint32_t offset = 12 + 3 * 12;
  uint32_t kind = 1;
  for (const std::vector<char> *entry : {&spirv, &text, &name}) {
    putWord(out, kind++);
    putWord(out, offset);
    putWord(out, static_cast<uint32_t>(entry->size()));
    offset += (entry->size() + 3) / 4 * 4;
  }
  for (const std::vector<char> *entry : {&spirv, &text, &name}) {
    out.insert(out.end(), entry->begin(), entry->end());
    out.resize((out.size() + 3) / 4 * 4, '\0');
  }
#if defined(FAKE_GPU_OPENCL_TRUNCATED)
  out.resize(out.size() - 8);
#endif
  return out;
}

EXPORT void _plaidml_gpu_load() {
  std::vector<char> bytes = makeBundle();
  module = call<mgpuModuleLoadSlot, void *>(static_cast<void *>(bytes.data()),
                                            static_cast<int64_t>(bytes.size()));
}
#endif
#else
#define KERNEL "main"
EXPORT void _plaidml_gpu_load() {
  std::vector<char> bytes = readFile(ADD_SPV_PATH);
  module = call<mgpuModuleLoadSlot, void *>(static_cast<void *>(bytes.data()),
                                            static_cast<int64_t>(bytes.size()));
}
#endif

EXPORT void _plaidml_gpu_unload() { call<mgpuModuleUnloadSlot, void>(module); }

/// gpu-to-llvm's launch: (pointer, byte size) pairs.
static void launch(void *function, int64_t gridX, void *stream,
                   std::vector<void *> buffers, int64_t bytes) {
  std::vector<int64_t> sizes(buffers.size(), bytes);
  std::vector<void *> params;
  for (size_t i = 0; i < buffers.size(); ++i) {
    params.push_back(&buffers[i]);
    params.push_back(&sizes[i]);
  }
  call<mgpuLaunchKernelSlot, void>(
      function, gridX, int64_t(1), int64_t(1), int64_t(64), int64_t(1),
      int64_t(1), int32_t(0), stream, params.data(),
      static_cast<void **>(nullptr), static_cast<int64_t>(params.size()));
}

/// c = (a + b) + a, through a temporary device buffer.
EXPORT void _plaidml_entry_add(void **buffers) {
  void *stream = call<mgpuStreamCreateSlot, void *>();
  void *fn = call<mgpuModuleGetFunctionSlot, void *>(module, KERNEL);
  void *tmp = call<mgpuMemAllocSlot, void *>(uint64_t(400), stream, false);
  launch(fn, 2, stream, {buffers[0], buffers[1], tmp}, 400);
  launch(fn, 2, stream, {tmp, buffers[0], buffers[2]}, 400);
  call<mgpuMemFreeSlot, void>(tmp, stream);
  call<mgpuStreamSynchronizeSlot, void>(stream);
  call<mgpuStreamDestroySlot, void>(stream);
}

/// c = 1.0 everywhere, then 5, 6, 7, 8 copied from the host into c[0..3].
EXPORT void _plaidml_entry_fill(void **buffers) {
  static const float head[4] = {5, 6, 7, 8};
  void *stream = call<mgpuStreamCreateSlot, void *>();
  call<mgpuMemset32Slot, void>(buffers[0], uint32_t(0x3f800000), size_t(100),
                               stream);
  call<mgpuMemcpySlot, void>(buffers[0], const_cast<float *>(head),
                             sizeof(head), stream);
  call<mgpuStreamSynchronizeSlot, void>(stream);
}

/// A host pointer where a device buffer belongs.
EXPORT void _plaidml_entry_bad_pointer(void **buffers) {
  static float host[100];
  void *fn = call<mgpuModuleGetFunctionSlot, void *>(module, KERNEL);
  launch(fn, 2, nullptr, {host, buffers[0], buffers[0]}, 400);
}

/// More workgroups than any device allows in x.
EXPORT void _plaidml_entry_big_grid(void **buffers) {
  void *fn = call<mgpuModuleGetFunctionSlot, void *>(module, KERNEL);
  launch(fn, int64_t(1) << 40, nullptr, {buffers[0], buffers[0], buffers[0]},
         400);
}

/// An entry point the module does not have.
EXPORT void _plaidml_entry_no_kernel(void **buffers) {
  void *fn = call<mgpuModuleGetFunctionSlot, void *>(module, "nosuch");
  launch(fn, 2, nullptr, {buffers[0], buffers[0], buffers[0]}, 400);
}
