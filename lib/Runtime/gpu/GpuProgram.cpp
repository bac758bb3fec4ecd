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

#include "gpu/GpuProgram.h"

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

  GpuBackend &backend() { return program->device.getBackend(); }

  bool failed() const { return !error.ok(); }
  void fail(const std::string &what, StatusCode code = StatusCode::Internal) {
    if (error.ok())
      error = Status(code, program->device.getLabel() + ": " + what);
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
      call->backend().loadModule(static_cast<const char *>(data),
                                 static_cast<size_t>(size),
                                 *program.moduleOptions);
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
  GpuBackend &backend = call->backend();
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
    GpuBuffer *buffer = program.device.lookup(pointer, offset);
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
    if (bytes < 0 || static_cast<size_t>(bytes) > buffer->size()) {
      call->fail(what + ": argument " + std::to_string(i) + " of " +
                 std::to_string(bytes) + " bytes, but its buffer has " +
                 std::to_string(buffer->size()));
      return;
    }
    buffers.push_back(&buffer->getBackendBuffer());
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
  GpuProgram &program = *call->program;
  StatusOr<std::unique_ptr<Buffer>> buffer =
      program.device.allocateBuffer(bytes);
  if (!buffer.ok()) {
    call->fail("a temporary buffer of the program", buffer.status());
    return nullptr;
  }
  void *handle = (*buffer)->getBinding();
  program.temporaries[handle] = std::move(*buffer);
  return handle;
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
  GpuBuffer *dstBuffer = program.device.lookup(dst, dstOffset);
  GpuBuffer *srcBuffer = program.device.lookup(src, srcOffset);
  GpuBackend &backend = call->backend();
  Status status = Status::success();
  if (dstBuffer && srcBuffer)
    status = backend.copy(dstBuffer->getBackendBuffer(),
                          srcBuffer->getBackendBuffer(), bytes, dstOffset,
                          srcOffset);
  else if (dstBuffer)
    status =
        backend.upload(dstBuffer->getBackendBuffer(), src, bytes, dstOffset);
  else if (srcBuffer)
    status =
        backend.download(srcBuffer->getBackendBuffer(), dst, bytes, srcOffset);
  else
    std::memcpy(dst, src, bytes);
  if (!status.ok())
    call->fail("copy of " + std::to_string(bytes) + " bytes", status);
}

template <typename T>
void fill(void *context, const char *function, void *dst, T value, size_t count,
          void *stream) {
  GpuProgram::Call *call = getCall(context, function, stream);
  if (!call || call->failed() || count == 0)
    return;
  size_t offset = 0;
  GpuBuffer *buffer = call->program->device.lookup(dst, offset);
  if (!buffer) {
    call->fail(std::string(function) + " of " + hex(dst) +
               ", which is not a device buffer");
    return;
  }
  std::vector<T> values(count, value);
  if (Status s = call->backend().upload(
          buffer->getBackendBuffer(), values.data(), count * sizeof(T), offset);
      !s.ok())
    call->fail(function, s);
}

void mgpuMemset32(void *context, void *dst, uint32_t value, size_t count,
                  void *stream) {
  fill<uint32_t>(context, "mgpuMemset32", dst, value, count, stream);
}

void mgpuMemset16(void *context, void *dst, unsigned short value, size_t count,
                  void *stream) {
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
GpuProgram::attach(const ExecutableLibrary &library, GpuDevice &device,
                   const ExecutableOptions &options) {
  void *dlHandle = library.handle;
  auto *table =
      static_cast<void *const **>(dlsym(dlHandle, gpuabi::kTableSymbol));
  auto load =
      reinterpret_cast<void (*)()>(dlsym(dlHandle, gpuabi::kLoadSymbol));
  auto unload =
      reinterpret_cast<void (*)()>(dlsym(dlHandle, gpuabi::kUnloadSymbol));
  if (!table || !load || !unload)
    return Status::invalidArgument(
        std::string("a GPU artifact must export '") + gpuabi::kTableSymbol +
        "', '" + gpuabi::kLoadSymbol + "' and '" + gpuabi::kUnloadSymbol + "'");
  // Version 1 exported no version.
  auto *version =
      static_cast<const uint32_t *>(dlsym(dlHandle, gpuabi::kVersionSymbol));
  uint32_t artifactVersion = version ? *version : 1;
  if (artifactVersion != gpuabi::kVersion)
    return Status::failedPrecondition(
        "the artifact uses GPU launch ABI version " +
        std::to_string(artifactVersion) +
        (version ? ""
                 : std::string(" (it exports no '") + gpuabi::kVersionSymbol +
                       "')") +
        ", but this runtime implements version " +
        std::to_string(gpuabi::kVersion) + "; compile it again");

  StatusOr<std::unique_ptr<GpuModuleOptions>> moduleOptions =
      device.getBackend().parseOptions(options);
  if (!moduleOptions.ok())
    return moduleOptions.status();
  std::string missing =
      device.getBackend().missingRequirements(library.manifest->requirements);
  if (!missing.empty())
    return Status::failedPrecondition("its kernels need " + missing +
                                      ", which " + device.getLabel() +
                                      " does not support");

  std::unique_ptr<GpuProgram> program(new GpuProgram(library, device));
  program->moduleOptions = std::move(*moduleOptions);
  program->table[gpuabi::kContextIndex] = program.get();
  for (unsigned slot = 0; slot < gpuabi::kNumSlots; ++slot)
    program->table[gpuabi::getTableIndex(static_cast<gpuabi::Slot>(slot))] =
        abiFunctions[slot];
  *table = program->table.data();
  Status loaded = program->run(load);
  program->unload = unload;
  if (!loaded.ok())
    return loaded;
  return program;
}

std::vector<std::string> GpuProgram::describe() const {
  std::vector<std::string> lines;
  for (size_t i = 0; i < modules.size(); ++i) {
    std::string name = modules[i]->module->getName();
    lines.push_back(device.getLabel() + ": kernel module " +
                    (name.empty() ? std::to_string(i) : name) + ": " +
                    modules[i]->module->describe());
  }
  return lines;
}

GpuProgram::~GpuProgram() {
  if (unload)
    (void)run(unload);
  modules.clear();
}

Status GpuProgram::run(const std::function<void()> &body) {
  Call call;
  call.program = this;
  std::lock_guard<std::mutex> lock(callMutex);
  {
    CallScope scope(call);
    body();
  }
  // Submit what was recorded even after a failure, so that nothing stays
  // half-recorded for the next call.
  Status synced = device.getBackend().synchronize();
  for (void *handle : call.frees)
    temporaries.erase(handle);
  if (call.failed())
    return call.error;
  if (!synced.ok())
    return synced.withContext(device.getLabel());
  return Status::success();
}

Status GpuProgram::call(size_t entryIndex,
                        const std::vector<Buffer *> &buffers) {
  if (entryIndex >= library.functions.size())
    return Status::outOfRange("no entry point #" + std::to_string(entryIndex));
  std::vector<void *> handles;
  for (size_t i = 0; i < buffers.size(); ++i) {
    StatusOr<GpuBuffer *> buffer =
        device.own(*buffers[i], "buffer " + std::to_string(i));
    if (!buffer.ok())
      return buffer.status();
    handles.push_back((*buffer)->getBinding());
  }
  // The entry reads buffers[] even when there are none; give it storage.
  if (handles.empty())
    handles.push_back(nullptr);
  EntryFunction entry = library.functions[entryIndex];
  return run([&] { entry(handles.data()); });
}

StatusOr<std::unique_ptr<Executable>>
GpuDevice::loadExecutable(const ExecutableLibrary &library,
                          const ExecutableOptions &options) {
  StatusOr<std::unique_ptr<GpuProgram>> program =
      GpuProgram::attach(library, *this, options);
  if (!program.ok())
    return program.status();
  return std::unique_ptr<Executable>(std::move(*program));
}
