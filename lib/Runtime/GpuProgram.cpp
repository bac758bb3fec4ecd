//===- GpuProgram.cpp - The mgpu* launch ABI on GPU devices ---------------===//
//
// GpuProgram (GpuProgram.h) and the mgpu* functions whose addresses fill a
// GPU artifact's `_plaidml_gpu_abi` table, over a GpuBackend. Each program
// has its own table whose context is the program (launch ABI version 2,
// GpuAbi.h); the calls of one program are serialized by its call mutex, and
// the program's active Call (set by GpuProgram::call and attach) holds the
// per-call state. mgpuStreamCreate returns that Call as the stream token, so
// functions given a stream reach their call through it and check that it is
// the active one. The functions return void (the ABI of gpu-to-llvm), so a
// failure is stored in the Call and every later call of the same entry-point
// run is skipped. Events are trivial: a device has one in-order queue and
// the device layer puts a barrier between dispatches that share a buffer, so
// recording in host program order is already a correct schedule. No state is
// global or thread-local.
//
//===----------------------------------------------------------------------===//

#include "GpuProgram.h"

#include "plaidml/Runtime/GpuAbi.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace plaidml::rt;

namespace plaidml::rt {
struct GpuProgram::Function {
  GpuModule *module = nullptr;
  std::string name;
  std::unique_ptr<GpuBackendKernel> kernel;
};

struct GpuModule {
  /// What mgpuModuleLoad received, as the backend builds kernels from it.
  std::unique_ptr<GpuBackendModule> module;
  std::map<std::string, std::unique_ptr<GpuProgram::Function>> functions;
};

struct GpuProgram::Call {
  GpuProgram *program = nullptr;
  Status error = Status::success();
  /// mgpuMemFree'd handles, released once the batch has run.
  std::vector<void *> frees;

  bool failed() const { return !error.ok(); }
  void fail(const std::string &what,
            StatusCode code = StatusCode::Internal) {
    if (error.ok())
      error = Status(code, program->backend->label() + ": " + what);
  }
  /// Keeps the code of `status`.
  void fail(const std::string &what, const Status &status) {
    fail(what + ": " + status.message(), status.code());
  }
};
} // namespace plaidml::rt

namespace {
/// A token for events: never dereferenced, never null.
char eventToken;

/// The Call of the running entry point of the program `context`; null
/// (after a message) when the host code of an artifact runs outside one, or
/// passes a stream that is not the call's, which only a broken artifact or
/// caller can cause.
GpuProgram::Call *getCall(void *context, const char *function,
                          void *stream = nullptr) {
  auto *program = static_cast<GpuProgram *>(context);
  GpuProgram::Call *call = program ? program->active : nullptr;
  if (!call) {
    std::fprintf(stderr,
                 "plaidml runtime: %s called outside a GPU program call\n",
                 function);
    return nullptr;
  }
  if (stream && stream != call) {
    call->fail(std::string(function) +
               " on a stream that is not the current call's");
    return nullptr;
  }
  return call;
}

std::string hex(const void *pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", pointer);
  return text;
}

//===----------------------------------------------------------------------===//
// The mgpu* functions
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *context, void *data, int64_t size) {
  GpuProgram::Call *call = getCall(context, "mgpuModuleLoad");
  if (!call || call->failed())
    return nullptr;
  if (size <= 0) {
    call->fail("empty kernel module");
    return nullptr;
  }
  GpuProgram &program = *call->program;
  StatusOr<std::unique_ptr<GpuBackendModule>> loaded =
      program.backend->loadModule(static_cast<const char *>(data),
                                  static_cast<size_t>(size));
  if (!loaded.ok()) {
    call->fail("kernel module " + std::to_string(program.modules.size()),
               loaded.status());
    return nullptr;
  }
  auto module = std::make_unique<GpuModule>();
  module->module = std::move(*loaded);
  GpuModule *result = module.get();
  program.modules.push_back(std::move(module));
  return result;
}

void mgpuModuleUnload(void *context, void *module) {
  GpuProgram::Call *call = getCall(context, "mgpuModuleUnload");
  if (!call)
    return;
  auto &modules = call->program->modules;
  for (auto it = modules.begin(); it != modules.end(); ++it)
    if (it->get() == module) {
      modules.erase(it);
      return;
    }
}

void *mgpuModuleGetFunction(void *context, void *module, const char *name) {
  GpuProgram::Call *call = getCall(context, "mgpuModuleGetFunction");
  if (!call || call->failed())
    return nullptr;
  if (!module) {
    call->fail(std::string("kernel '") + name +
               "' of a module that failed "
               "to load");
    return nullptr;
  }
  auto *m = static_cast<GpuModule *>(module);
  std::unique_ptr<GpuProgram::Function> &function = m->functions[name];
  if (!function) {
    function = std::make_unique<GpuProgram::Function>();
    function->module = m;
    function->name = name;
  }
  return function.get();
}

void mgpuLaunchKernel(void *context, void *function, int64_t gridX,
                      int64_t gridY, int64_t gridZ, int64_t blockX,
                      int64_t blockY, int64_t blockZ, int32_t sharedBytes,
                      void *stream, void **params, void **,
                      int64_t paramsCount) {
  GpuProgram::Call *call = getCall(context, "mgpuLaunchKernel", stream);
  if (!call || call->failed())
    return;
  if (!function) {
    call->fail("launch of a kernel that was not found");
    return;
  }
  GpuProgram &program = *call->program;
  auto &fn = *static_cast<GpuProgram::Function *>(function);
  std::string what = "kernel '" + fn.name + "'";
  // Parameters come in (pointer, byte size) pairs: kernels take only
  // buffers (intersperse-sizes-for-kernels).
  if (paramsCount < 0 || paramsCount % 2 != 0) {
    call->fail(what + ": " + std::to_string(paramsCount) +
               " launch parameters, expected (buffer, size) pairs");
    return;
  }
  if (sharedBytes != 0) {
    call->fail(what + ": dynamic shared memory is not supported");
    return;
  }
  GpuBackend &backend = *program.backend;
  int64_t grid[3] = {gridX, gridY, gridZ};
  for (unsigned i = 0; i < 3; ++i)
    if (grid[i] < 0 ||
        static_cast<uint64_t>(grid[i]) > backend.maxWorkgroupCount(i)) {
      call->fail(what + ": " + std::to_string(grid[i]) + " workgroups in " +
                     "xyz"[i] + ", but the device allows at most " +
                     std::to_string(backend.maxWorkgroupCount(i)),
                 StatusCode::OutOfRange);
      return;
    }
  int64_t block[3] = {blockX, blockY, blockZ};
  int64_t invocations = blockX * blockY * blockZ;
  if (blockX < 1 || blockY < 1 || blockZ < 1 ||
      static_cast<uint64_t>(invocations) > backend.maxWorkgroupInvocations()) {
    call->fail(what + ": workgroups of " + std::to_string(blockX) + "x" +
               std::to_string(blockY) + "x" + std::to_string(blockZ) +
                   " invocations, but the device allows at most " +
                   std::to_string(backend.maxWorkgroupInvocations()),
               StatusCode::OutOfRange);
    return;
  }

  unsigned numBuffers = static_cast<unsigned>(paramsCount / 2);
  std::vector<GpuBackendBuffer *> buffers;
  for (unsigned i = 0; i < numBuffers; ++i) {
    void *pointer = *static_cast<void **>(params[2 * i]);
    int64_t bytes = *static_cast<int64_t *>(params[2 * i + 1]);
    size_t offset = 0;
    GpuProgram::Buffer *buffer = program.lookup(pointer, offset);
    if (!buffer) {
      call->fail(what + ": argument " + std::to_string(i) + " (" +
                     hex(pointer) + ") is not a device buffer",
                 StatusCode::InvalidArgument);
      return;
    }
    if (offset != 0) {
      call->fail(what + ": argument " + std::to_string(i) + " starts " +
                 std::to_string(offset) +
                 " bytes into its buffer; kernels take whole buffers");
      return;
    }
    if (bytes < 0 || static_cast<size_t>(bytes) > buffer->bytes) {
      call->fail(what + ": argument " + std::to_string(i) + " of " +
                 std::to_string(bytes) + " bytes, but its buffer has " +
                 std::to_string(buffer->bytes));
      return;
    }
    buffers.push_back(buffer->buffer.get());
  }

  if (!fn.kernel) {
    StatusOr<std::unique_ptr<GpuBackendKernel>> kernel =
        backend.createKernel(*fn.module->module, fn.name, numBuffers);
    if (!kernel.ok()) {
      call->fail(what, kernel.status());
      return;
    }
    fn.kernel = std::move(*kernel);
  } else if (fn.kernel->numBindings() != numBuffers) {
    call->fail(what + ": launched with " + std::to_string(numBuffers) +
               " buffers, earlier with " +
               std::to_string(fn.kernel->numBindings()));
    return;
  }
  auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  if (Status s = backend.dispatch(
          *fn.kernel, buffers, {u32(grid[0]), u32(grid[1]), u32(grid[2])},
          {u32(block[0]), u32(block[1]), u32(block[2])});
      !s.ok())
    call->fail(what, s);
}

/// The stream of a call is the call itself: one in-order queue.
void *mgpuStreamCreate(void *context) {
  return getCall(context, "mgpuStreamCreate");
}
void mgpuStreamDestroy(void *context, void *stream) {
  getCall(context, "mgpuStreamDestroy", stream);
}
void mgpuStreamSynchronize(void *context, void *stream) {
  getCall(context, "mgpuStreamSynchronize", stream);
}
void mgpuStreamWaitEvent(void *context, void *stream, void *) {
  getCall(context, "mgpuStreamWaitEvent", stream);
}
void *mgpuEventCreate(void *) { return &eventToken; }
void mgpuEventDestroy(void *, void *) {}
void mgpuEventSynchronize(void *, void *) {}
void mgpuEventRecord(void *context, void *, void *stream) {
  getCall(context, "mgpuEventRecord", stream);
}

void *mgpuMemAlloc(void *context, uint64_t bytes, void *stream, bool) {
  GpuProgram::Call *call = getCall(context, "mgpuMemAlloc", stream);
  if (!call || call->failed())
    return nullptr;
  StatusOr<void *> handle =
      call->program->allocate(bytes, "a temporary buffer of the program");
  if (!handle.ok()) {
    call->fail(handle.message(), handle.code());
    return nullptr;
  }
  return *handle;
}

void mgpuMemFree(void *context, void *pointer, void *stream) {
  GpuProgram::Call *call = getCall(context, "mgpuMemFree", stream);
  if (call && pointer)
    call->frees.push_back(pointer);
}

void mgpuMemcpy(void *context, void *dst, void *src, size_t bytes,
                void *stream) {
  GpuProgram::Call *call = getCall(context, "mgpuMemcpy", stream);
  if (!call || call->failed() || bytes == 0)
    return;
  GpuProgram &program = *call->program;
  size_t dstOffset = 0, srcOffset = 0;
  GpuProgram::Buffer *dstBuffer = program.lookup(dst, dstOffset);
  GpuProgram::Buffer *srcBuffer = program.lookup(src, srcOffset);
  Status status = Status::success();
  if (dstBuffer && srcBuffer)
    status = program.backend->copy(*dstBuffer->buffer, *srcBuffer->buffer,
                                   bytes, dstOffset, srcOffset);
  else if (dstBuffer)
    status = program.backend->upload(*dstBuffer->buffer, src, bytes, dstOffset);
  else if (srcBuffer)
    status =
        program.backend->download(*srcBuffer->buffer, dst, bytes, srcOffset);
  else
    std::memcpy(dst, src, bytes);
  if (!status.ok())
    call->fail("copy of " + std::to_string(bytes) + " bytes", status);
}

template <typename T>
void fill(void *context, const char *function, void *dst, T value,
          size_t count, void *stream) {
  GpuProgram::Call *call = getCall(context, function, stream);
  if (!call || call->failed() || count == 0)
    return;
  size_t offset = 0;
  GpuProgram::Buffer *buffer = call->program->lookup(dst, offset);
  if (!buffer) {
    call->fail(std::string(function) + " of " + hex(dst) +
               ", which is not a device buffer");
    return;
  }
  std::vector<T> values(count, value);
  if (Status s = call->program->backend->upload(*buffer->buffer, values.data(),
                                                count * sizeof(T), offset);
      !s.ok())
    call->fail(function, s);
}

void mgpuMemset32(void *context, void *dst, uint32_t value, size_t count,
                  void *stream) {
  fill<uint32_t>(context, "mgpuMemset32", dst, value, count, stream);
}

void mgpuMemset16(void *context, void *dst, unsigned short value,
                  size_t count, void *stream) {
  fill<unsigned short>(context, "mgpuMemset16", dst, value, count, stream);
}

/// The functions, in GpuAbi.h's slot order; the casts check each function's
/// signature against the ABI's.
void *const abiFunctions[] = {
#define PLAIDML_GPU_ABI_ENTRY(name, ret, params)                               \
  reinterpret_cast<void *>(static_cast<ret(*) params>(&name)),
    PLAIDML_GPU_ABI_FUNCTIONS(PLAIDML_GPU_ABI_ENTRY)
#undef PLAIDML_GPU_ABI_ENTRY
};
static_assert(sizeof(abiFunctions) / sizeof(abiFunctions[0]) ==
                  plaidml::gpuabi::kNumSlots,
              "every slot of the GPU ABI has an implementation");

/// Makes `call` the active call of its program for the lifetime of the
/// object; the caller holds the program's call mutex.
class CallScope {
public:
  explicit CallScope(GpuProgram::Call &call) : program(*call.program) {
    program.active = &call;
  }
  ~CallScope() { program.active = nullptr; }

private:
  GpuProgram &program;
};
} // namespace

//===----------------------------------------------------------------------===//
// GpuProgram
//===----------------------------------------------------------------------===//

StatusOr<std::unique_ptr<GpuProgram>>
GpuProgram::attach(void *dlHandle, const Manifest &manifest,
                   const DeviceName &device,
                   const std::string &openclKernelFormat) {
  auto *table =
      static_cast<void *const **>(dlsym(dlHandle, gpuabi::kTableSymbol));
  auto load =
      reinterpret_cast<void (*)()>(dlsym(dlHandle, gpuabi::kLoadSymbol));
  auto unload =
      reinterpret_cast<void (*)()>(dlsym(dlHandle, gpuabi::kUnloadSymbol));
  if (!table || !load || !unload)
    return Status::invalidArgument(std::string("a GPU artifact must export '") +
                           gpuabi::kTableSymbol + "', '" + gpuabi::kLoadSymbol +
                           "' and '" + gpuabi::kUnloadSymbol + "'");
  // Version 1 exported no version.
  auto *version =
      static_cast<const uint32_t *>(dlsym(dlHandle, gpuabi::kVersionSymbol));
  uint32_t artifactVersion = version ? *version : 1;
  if (artifactVersion != gpuabi::kVersion)
    return Status::failedPrecondition(
        "the artifact uses GPU launch ABI version " +
        std::to_string(artifactVersion) +
        (version ? "" : std::string(" (it exports no '") +
                            gpuabi::kVersionSymbol + "')") +
        ", but this runtime implements version " +
        std::to_string(gpuabi::kVersion) + "; compile it again");

  StatusOr<std::unique_ptr<GpuBackend>> backend = Status::failure("no backend");
  if (device.kind == DeviceKind::OpenCL) {
    // LoadOptions first, then the environment.
    const char *env = std::getenv(kOpenCLKernelFormatVariable);
    StatusOr<KernelFormatPreference> preference =
        openclKernelFormat.empty()
            ? KernelFormatPreference::parse(env ? env : "",
                                            kOpenCLKernelFormatVariable)
            : KernelFormatPreference::parse(openclKernelFormat,
                                            "LoadOptions::openclKernelFormat");
    if (!preference.ok())
      return preference.status();
    backend = openOpenCLBackend(device.index, *preference);
  } else {
    backend = openVulkanBackend(device.index);
  }
  if (!backend.ok())
    return backend.status();
  std::unique_ptr<GpuProgram> program(new GpuProgram());
  program->backend = std::move(*backend);
  std::string missing =
      program->backend->missingRequirements(manifest.requirements);
  if (!missing.empty())
    return Status::failedPrecondition("its kernels need " + missing + ", which " +
                           program->backend->label() + " does not support");
  program->table[gpuabi::kContextIndex] = program.get();
  for (unsigned slot = 0; slot < gpuabi::kNumSlots; ++slot)
    program->table[gpuabi::getTableIndex(static_cast<gpuabi::Slot>(slot))] =
        abiFunctions[slot];
  *table = program->table.data();

  Call call;
  call.program = program.get();
  {
    std::lock_guard<std::mutex> lock(program->callMutex);
    CallScope scope(call);
    load();
  }
  program->unload = unload;
  if (call.failed())
    return call.error;
  return program;
}

std::vector<std::string> GpuProgram::describeModules() const {
  std::vector<std::string> lines;
  for (size_t i = 0; i < modules.size(); ++i) {
    std::string name = modules[i]->module->getName();
    lines.push_back(backend->label() + ": kernel module " +
                    (name.empty() ? std::to_string(i) : name) + ": " +
                    modules[i]->module->describe());
  }
  return lines;
}

GpuProgram::~GpuProgram() {
  if (unload) {
    Call call;
    call.program = this;
    std::lock_guard<std::mutex> lock(callMutex);
    CallScope scope(call);
    unload();
  }
  modules.clear();
  // Buffers still held (an Invocation outliving its Program keeps the
  // library and this object alive, so none should be left): free them.
  for (auto &[start, buffer] : buffers)
    munmap(reinterpret_cast<void *>(start), buffer.reserved);
}

StatusOr<void *> GpuProgram::allocate(size_t bytes, const std::string &what) {
  // Vulkan has no empty buffers; an empty tensor still gets a handle.
  StatusOr<std::unique_ptr<GpuBackendBuffer>> buffer =
      backend->createBuffer(bytes == 0 ? 4 : bytes);
  if (!buffer.ok())
    return buffer.status().withContext(what);
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t reserved = (std::max<size_t>(bytes, 1) + page - 1) / page * page;
  void *handle = mmap(nullptr, reserved, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (handle == MAP_FAILED)
    return Status::resourceExhausted("cannot reserve " + std::to_string(reserved) +
                           " bytes of address space for the handle of " + what +
                           ": " + std::strerror(errno));
  std::lock_guard<std::mutex> lock(mu);
  Buffer &entry = buffers[reinterpret_cast<uintptr_t>(handle)];
  entry.buffer = std::move(*buffer);
  entry.bytes = bytes;
  entry.reserved = reserved;
  return handle;
}

void GpuProgram::release(void *handle) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = buffers.find(reinterpret_cast<uintptr_t>(handle));
  if (it == buffers.end())
    return;
  munmap(handle, it->second.reserved);
  buffers.erase(it);
}

GpuProgram::Buffer *GpuProgram::lookup(const void *pointer, size_t &offset) {
  std::lock_guard<std::mutex> lock(mu);
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto it = buffers.upper_bound(address);
  if (it == buffers.begin())
    return nullptr;
  --it;
  if (address >= it->first + it->second.reserved)
    return nullptr;
  offset = address - it->first;
  return &it->second;
}

Status GpuProgram::upload(void *handle, const void *data, size_t bytes) {
  size_t offset = 0;
  Buffer *buffer = lookup(handle, offset);
  if (!buffer)
    return Status::failure(backend->label() + ": upload to " + hex(handle) +
                           ", which is not a device buffer");
  return backend->upload(*buffer->buffer, data, bytes, offset);
}

Status GpuProgram::download(void *handle, void *data, size_t bytes) {
  size_t offset = 0;
  Buffer *buffer = lookup(handle, offset);
  if (!buffer)
    return Status::failure(backend->label() + ": download from " + hex(handle) +
                           ", which is not a device buffer");
  return backend->download(*buffer->buffer, data, bytes, offset);
}

Status GpuProgram::synchronize() {
  if (Status s = backend->synchronize(); !s.ok())
    return s.withContext(backend->label());
  return Status::success();
}

Status GpuProgram::call(void (*entry)(void **), void **handles) {
  Call call;
  call.program = this;
  std::lock_guard<std::mutex> lock(callMutex);
  {
    CallScope scope(call);
    entry(handles);
  }
  // Submit what was recorded even after a failure, so that nothing stays
  // half-recorded for the next call.
  Status synced = backend->synchronize();
  for (void *handle : call.frees)
    release(handle);
  if (call.failed())
    return call.error;
  if (!synced.ok())
    return synced.withContext(backend->label());
  return Status::success();
}
