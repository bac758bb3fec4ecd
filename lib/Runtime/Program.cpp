//===- Program.cpp - Loading and running compiled artifacts ---------------===//
//
// Reads an artifact, validates its bytes (ELF structure and manifest,
// ArtifactValidation.h), dlopen()s those bytes with RTLD_NOW | RTLD_LOCAL
// (every undefined symbol is resolved up front, nothing leaks into the
// global namespace), checks its manifest, resolves each entry's wrapper, opens
// the device and has its driver make an Executable of the artifact; invocations
// hold buffers of that device. Nothing here depends on the kind of device. The
// library stays open as long as the Program or any Invocation made from it
// exists.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Program.h"

#include "plaidml/Runtime/ArtifactValidation.h"
#include "plaidml/Runtime/Driver.h"

#include "FileUtil.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace plaidml::rt;

namespace plaidml::rt {
class LoadedLibrary {
public:
  LoadedLibrary(std::string path, void *handle) {
    library.path = std::move(path);
    library.handle = handle;
  }
  LoadedLibrary(const LoadedLibrary &) = delete;
  LoadedLibrary &operator=(const LoadedLibrary &) = delete;
  ~LoadedLibrary() {
    // A GPU executable unloads its kernel modules with code in the library.
    executable.reset();
    if (library.handle)
      dlclose(library.handle);
    if (fd >= 0) {
      // The loader may keep the library after dlclose (NODELETE), still
      // known by the name /proc/self/fd/N: then N stays open, or the next
      // artifact given descriptor N would get this library from dlopen.
      std::string name = "/proc/self/fd/" + std::to_string(fd);
      if (void *kept = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD))
        dlclose(kept);
      else
        close(fd);
    }
  }

  /// What the driver sees: path, handle, manifest, entry functions.
  ExecutableLibrary library;
  Manifest manifest;
  std::shared_ptr<Device> device;
  std::unique_ptr<Executable> executable;
  /// The in-memory file the library was loaded from, or -1.
  int fd = -1;
};
} // namespace plaidml::rt

//===----------------------------------------------------------------------===//
// AlignedBuffer
//===----------------------------------------------------------------------===//

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : ptr(other.ptr), bytes(other.bytes) {
  other.ptr = nullptr;
  other.bytes = 0;
}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept {
  if (this != &other) {
    std::free(ptr);
    ptr = other.ptr;
    bytes = other.bytes;
    other.ptr = nullptr;
    other.bytes = 0;
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { std::free(ptr); }

StatusOr<AlignedBuffer> AlignedBuffer::allocate(size_t size,
                                                const std::string &what) {
  // aligned_alloc wants a multiple of the alignment; never allocate 0 bytes
  // so that every buffer has a distinct, non-null address.
  size_t rounded = size == 0 ? kBufferAlignment
                             : (size + kBufferAlignment - 1) /
                                   kBufferAlignment * kBufferAlignment;
  if (rounded < size)
    return Status::resourceExhausted("out of memory: " + what + " needs " +
                                     std::to_string(size) + " bytes");
  AlignedBuffer buffer;
  buffer.ptr = std::aligned_alloc(kBufferAlignment, rounded);
  if (!buffer.ptr)
    return Status::resourceExhausted("out of memory: cannot allocate " +
                                     std::to_string(size) + " bytes for " +
                                     what);
  std::memset(buffer.ptr, 0, rounded);
  buffer.bytes = size;
  return buffer;
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

const std::string &Program::getPath() const { return library->library.path; }

const Manifest &Program::getManifest() const { return library->manifest; }

Device &Program::getDevice() const { return *library->device; }

std::vector<std::string> Program::describeKernelModules() const {
  return library->executable->describe();
}

StatusOr<std::unique_ptr<Program>> Program::load(const std::string &path,
                                                 const LoadOptions &options) {
  auto fail = [&](StatusCode code, const std::string &why) {
    return Status(code, "cannot load artifact '" + path + "': " + why);
  };
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return fail(Status::codeOfErrno(errno), std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return fail(StatusCode::InvalidArgument, "it is a directory");
  std::string bytes, why;
  if (!detail::readWholeFile(path, bytes, why))
    return fail(Status::codeOfErrno(errno), why);
  // dlopen trusts what it maps: a truncated or corrupted file must be an
  // error here, never a crash inside the loader.
  StatusOr<Manifest> manifest = validateArtifact(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  if (!manifest.ok())
    return fail(manifest.code(), manifest.message());

  // The bytes read are what is loaded, from a private in-memory file: every
  // Program gets its own instance of the library (its own globals, such as
  // a GPU artifact's ABI table and kernel module handles, even when the same
  // file is loaded twice), and the file cannot change between reading and
  // loading. Where memfd_create is missing, the file itself is opened.
  std::string openPath =
      path.find('/') == std::string::npos ? "./" + path : path;
  int fd = -1;
#if defined(MFD_CLOEXEC)
  fd = memfd_create("plaidml-artifact", MFD_CLOEXEC);
#endif
  if (fd >= 0) {
    size_t written = 0;
    while (written < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
      if (n <= 0) {
        if (n < 0 && errno == EINTR)
          continue;
        int err = errno;
        close(fd);
        return fail(StatusCode::ResourceExhausted,
                    "cannot copy it to memory: " +
                        std::string(std::strerror(err)));
      }
      written += static_cast<size_t>(n);
    }
    openPath = "/proc/self/fd/" + std::to_string(fd);
  }
  // The loader knows libraries by name too: the descriptor stays open
  // while the library is loaded, so that no other artifact gets its name.
  dlerror();
  void *handle = dlopen(openPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle && fd >= 0)
    close(fd);
  if (!handle) {
    // dlerror() starts with the path, which the message already names.
    const char *err = dlerror();
    why = err ? err : "dlopen failed";
    if (why.compare(0, openPath.size() + 2, openPath + ": ") == 0)
      why.erase(0, openPath.size() + 2);
    // "libX.so.N: cannot open shared object file: ...": a library the
    // artifact needs (DT_NEEDED) is not where the loader looks.
    size_t missing = why.find(": cannot open shared object file");
    if (missing != std::string::npos && missing > 0) {
      std::string needed = why.substr(0, missing);
      std::string message =
          "it needs " + needed + ", which the dynamic loader cannot find";
      if (needed.rfind("libomp.so", 0) == 0)
        return fail(StatusCode::FailedPrecondition,
                    message +
                        ": it is the OpenMP runtime, which code compiled for "
                        "more than one thread uses; install it (Debian: "
                        "libomp5), or compile with --threads 1");
      return fail(StatusCode::FailedPrecondition,
                  message + " (not in the artifact's runpath, "
                            "LD_LIBRARY_PATH or the system library "
                            "directories)");
    }
    // The artifact itself exists (stat above), so "cannot open" means
    // the loader skipped it: its ELF header is not for this machine.
    if (why.rfind("cannot open shared object file", 0) == 0 &&
        why.find("No such file or directory") != std::string::npos)
      return fail(
          StatusCode::InvalidArgument,
          "the dynamic loader refused it (dlerror: " + why +
              "): it is not a shared library for this machine, or it is "
              "damaged");
    return fail(StatusCode::InvalidArgument, why);
  }
  auto library = std::make_shared<LoadedLibrary>(path, handle);
  library->fd = fd;

  // The manifest, read and checked from the bytes that were loaded.
  library->manifest = std::move(*manifest);
  library->library.manifest = &library->manifest;
  const Manifest &m = library->manifest;

  if (m.device != options.device.driver)
    return fail(StatusCode::FailedPrecondition,
                "compiled for device kind '" + m.device +
                    "', not for device '" + options.device.str() + "'");

  const HostCpu &host = options.hostCpu ? *options.hostCpu : HostCpu::get();
  std::string arch = m.getArch().empty() ? host.arch : m.getArch();
  if (!m.triple.empty() && !host.arch.empty() && arch != host.arch &&
      !(arch == "x86_64" && host.arch == "amd64"))
    return fail(StatusCode::FailedPrecondition, "compiled for '" + m.triple +
                                                    "', but this machine is " +
                                                    host.arch);
  if (Status s = checkCpuFeatures(arch, m.features, host); !s.ok())
    return fail(s.code(),
                s.message() + (m.cpu.empty()
                                   ? ""
                                   : " (compiled for CPU '" + m.cpu + "')"));

  for (const EntrySpec &entry : m.entries) {
    void *fn = dlsym(handle, entry.symbol.c_str());
    if (!fn)
      return fail(StatusCode::InvalidArgument,
                  "entry '" + entry.name + "': symbol '" + entry.symbol +
                      "' not found");
    library->library.functions.push_back(reinterpret_cast<EntryFunction>(fn));
    void *prepareFn = nullptr;
    if (!entry.prepareSymbol.empty()) {
      prepareFn = dlsym(handle, entry.prepareSymbol.c_str());
      if (!prepareFn)
        return fail(StatusCode::InvalidArgument,
                    "entry '" + entry.name + "': preparation symbol '" +
                        entry.prepareSymbol + "' not found");
    }
    library->library.prepareFunctions.push_back(
        reinterpret_cast<EntryFunction>(prepareFn));
  }

  StatusOr<std::shared_ptr<Device>> device = openDevice(options.device);
  if (!device.ok())
    return fail(device.code(), device.message());
  library->device = std::move(*device);
  StatusOr<std::unique_ptr<Executable>> executable =
      library->device->loadExecutable(library->library, options.driverOptions);
  if (!executable.ok())
    return fail(executable.code(), executable.message());
  library->executable = std::move(*executable);

  std::unique_ptr<Program> program(new Program());
  program->library = std::move(library);
  return program;
}

StatusOr<const EntrySpec *> Program::getEntry(std::string_view name) const {
  const Manifest &m = getManifest();
  std::string names;
  for (const EntrySpec &entry : m.entries)
    names += (names.empty() ? "" : ", ") + entry.name;
  if (name.empty()) {
    if (m.entries.size() == 1)
      return &m.entries.front();
    return Status::invalidArgument("artifact '" + getPath() + "' has " +
                                   std::to_string(m.entries.size()) +
                                   " entry points (" + names + "); name one");
  }
  if (const EntrySpec *entry = m.findEntry(name))
    return entry;
  return Status::notFound("artifact '" + getPath() + "' has no entry point '" +
                          std::string(name) + "' (it has: " + names + ")");
}

namespace {
/// The prepared buffer of `entry` (docs/ABI.md section 2).
StatusOr<std::unique_ptr<Buffer>> allocatePrepared(Device &device,
                                                   const EntrySpec &entry) {
  if (entry.preparedBytes > SIZE_MAX)
    return Status::resourceExhausted(
        "out of memory: the prepared data of entry '" + entry.name +
        "' needs " + std::to_string(entry.preparedBytes) + " bytes");
  StatusOr<std::unique_ptr<Buffer>> buffer =
      device.allocateBuffer(size_t(entry.preparedBytes));
  if (!buffer.ok())
    return buffer.status().withContext("the prepared data of entry '" +
                                       entry.name + "'");
  return buffer;
}

/// Runs the preparation of entry `index` on `buffers` (its inputs first)
/// into `prepared`.
Status runPreparation(Executable &executable, size_t index,
                      const EntrySpec &entry,
                      const std::vector<Buffer *> &buffers, Buffer &prepared) {
  std::vector<Buffer *> args(buffers.begin(),
                             buffers.begin() + entry.inputs.size());
  args.push_back(&prepared);
  return executable.prepare(index, args);
}

Status checkInput(const TensorSpec &spec, const HostArray &array) {
  if (!spec.matches(array))
    return Status::invalidArgument("input '" + spec.name + "' must be " +
                                   spec.describe() + ", got " +
                                   array.describe());
  if (array.bytes.size() != spec.getByteSize())
    return Status::invalidArgument(
        "input '" + spec.name + "' (" + spec.describe() + ") needs " +
        std::to_string(spec.getByteSize()) + " bytes of data, got " +
        std::to_string(array.bytes.size()));
  return Status::success();
}
} // namespace

StatusOr<Invocation>
Program::prepare(std::string_view entryName,
                 const std::vector<HostArray> &inputs) const {
  StatusOr<const EntrySpec *> found = getEntry(entryName);
  if (!found.ok())
    return found.status();
  const EntrySpec &entry = **found;
  if (inputs.size() != entry.inputs.size())
    return Status::invalidArgument(
        "entry '" + entry.name + "' takes " +
        std::to_string(entry.inputs.size()) +
        (entry.inputs.size() == 1 ? " input" : " inputs") + ", got " +
        std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status s = checkInput(entry.inputs[i], inputs[i]); !s.ok())
      return s;

  Invocation inv;
  inv.library = library;
  inv.entry = &entry;
  inv.entryIndex = static_cast<size_t>(&entry - &getManifest().entries.front());
  // The inputs are written now, so execute() runs the entry alone.
  Device &device = *library->device;
  auto add = [&](const TensorSpec &spec, const std::string &role,
                 const HostArray *data) -> Status {
    std::string what = role + " '" + spec.name + "'";
    StatusOr<std::unique_ptr<Buffer>> buffer =
        device.allocateBuffer(spec.getByteSize());
    if (!buffer.ok())
      return buffer.status().withContext(what);
    if (data && !data->bytes.empty())
      if (Status s =
              device.write(**buffer, 0, data->bytes.data(), data->bytes.size());
          !s.ok())
        return s.withContext(what);
    inv.buffers.push_back(std::move(*buffer));
    return Status::success();
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status s = add(entry.inputs[i], "input", &inputs[i]); !s.ok())
      return s;
  for (const TensorSpec &output : entry.outputs)
    if (Status s = add(output, "output", nullptr); !s.ok())
      return s;
  if (entry.preparedBytes != 0) {
    StatusOr<std::unique_ptr<Buffer>> prepared =
        allocatePrepared(device, entry);
    if (!prepared.ok())
      return prepared.status();
    inv.prepared = std::move(*prepared);
  }
  if (Status s = device.synchronize(); !s.ok())
    return s;
  return inv;
}

Status Program::execute(std::string_view entryName,
                        const std::vector<Buffer *> &buffers) const {
  StatusOr<const EntrySpec *> found = getEntry(entryName);
  if (!found.ok())
    return found.status();
  const EntrySpec &entry = **found;
  size_t expected = entry.inputs.size() + entry.outputs.size();
  if (buffers.size() != expected)
    return Status::invalidArgument("entry '" + entry.name + "' takes " +
                                   std::to_string(expected) +
                                   " buffers (inputs, then outputs), got " +
                                   std::to_string(buffers.size()));
  for (size_t i = 0; i < buffers.size(); ++i) {
    const TensorSpec &spec = i < entry.inputs.size()
                                 ? entry.inputs[i]
                                 : entry.outputs[i - entry.inputs.size()];
    if (!buffers[i])
      return Status::invalidArgument("buffer " + std::to_string(i) +
                                     " of entry '" + entry.name + "' is null");
    if (&buffers[i]->getDevice() != library->device.get())
      return Status::invalidArgument(
          "buffer " + std::to_string(i) + " ('" + spec.name +
          "') is a buffer of " + buffers[i]->getDevice().getLabel() +
          ", but the program runs on " + library->device->getLabel());
    if (buffers[i]->size() != spec.getByteSize())
      return Status::invalidArgument(
          "buffer " + std::to_string(i) + " ('" + spec.name + "', " +
          spec.describe() + ") must have " +
          std::to_string(spec.getByteSize()) + " bytes, it has " +
          std::to_string(buffers[i]->size()));
  }
  size_t index = static_cast<size_t>(&entry - &getManifest().entries.front());
  if (entry.preparedBytes == 0)
    return library->executable->call(index, buffers);
  // The caller's buffers may hold other values on every call: prepare each
  // time.
  StatusOr<std::unique_ptr<Buffer>> prepared =
      allocatePrepared(*library->device, entry);
  if (!prepared.ok())
    return prepared.status();
  if (Status s = runPreparation(*library->executable, index, entry, buffers,
                                **prepared);
      !s.ok())
    return s;
  std::vector<Buffer *> all = buffers;
  all.push_back(prepared->get());
  return library->executable->call(index, all);
}

StatusOr<std::vector<HostArray>>
Program::run(std::string_view entryName,
             const std::vector<HostArray> &inputs) const {
  StatusOr<Invocation> inv = prepare(entryName, inputs);
  if (!inv.ok())
    return inv.status();
  if (Status s = inv->execute(); !s.ok())
    return s;
  return inv->getOutputs();
}

//===----------------------------------------------------------------------===//
// Invocation
//===----------------------------------------------------------------------===//

Status Invocation::setInput(size_t index, const HostArray &array) {
  if (index >= entry->inputs.size())
    return Status::outOfRange("entry '" + entry->name + "' has no input #" +
                              std::to_string(index) + " (it takes " +
                              std::to_string(entry->inputs.size()) + ")");
  if (Status s = checkInput(entry->inputs[index], array); !s.ok())
    return s;
  if (entry->inputs[index].param)
    preparedValid = false;
  if (array.bytes.empty())
    return Status::success();
  return library->device->write(*buffers[index], 0, array.bytes.data(),
                                array.bytes.size());
}

Status Invocation::execute() {
  std::vector<Buffer *> bound;
  for (const std::unique_ptr<Buffer> &buffer : buffers)
    bound.push_back(buffer.get());
  if (prepared) {
    if (!preparedValid) {
      if (Status s = runPreparation(*library->executable, entryIndex, *entry,
                                    bound, *prepared);
          !s.ok())
        return s;
      preparedValid = true;
    }
    bound.push_back(prepared.get());
  }
  return library->executable->call(entryIndex, bound);
}

StatusOr<HostArray> Invocation::getOutput(size_t index) const {
  if (index >= entry->outputs.size())
    return Status::outOfRange("entry '" + entry->name + "' has no output #" +
                              std::to_string(index) + " (it has " +
                              std::to_string(entry->outputs.size()) + ")");
  const TensorSpec &spec = entry->outputs[index];
  const Buffer &buffer = *buffers[entry->inputs.size() + index];
  HostArray array;
  array.dtype = spec.dtype;
  array.shape = spec.shape;
  array.bytes.resize(buffer.size());
  if (Status s = library->device->read(buffer, 0, array.bytes.data(),
                                       array.bytes.size());
      !s.ok())
    return s.withContext("output '" + spec.name + "'");
  return array;
}

StatusOr<std::vector<HostArray>> Invocation::getOutputs() const {
  std::vector<HostArray> outputs;
  for (size_t i = 0; i < entry->outputs.size(); ++i) {
    StatusOr<HostArray> output = getOutput(i);
    if (!output.ok())
      return output.status();
    outputs.push_back(std::move(*output));
  }
  return outputs;
}
