//===- CpuDriver.cpp - The cpu driver -------------------------------------===//
//
// The "cpu" driver: one device, the host CPU, named "cpu" (no index). Its
// buffers are 64-byte aligned host memory (AlignedBuffer), its queue runs
// work when it is called (so submit() has nothing left to wait for), and
// its executables call an artifact's entry points directly on the buffers'
// host pointers (docs/ABI.md section 2). The features of the host code are
// checked by Program for every artifact, CPU or GPU, as both run host code.
// The driver takes no executable options.
//
//===----------------------------------------------------------------------===//

#include "CompletedEvent.h"
#include "Drivers.h"
#include "FileUtil.h"

#include "plaidml/Runtime/Executable.h"
#include "plaidml/Runtime/HostCpu.h"
#include "plaidml/Runtime/Program.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

using namespace plaidml::rt;

namespace {

class CpuDevice;

class CpuBuffer : public Buffer {
public:
  CpuBuffer(const CpuDevice &device, AlignedBuffer memory)
      : device(device), memory(std::move(memory)) {}
  size_t size() const override { return memory.size(); }
  const Device &getDevice() const override;
  void *getBinding() const override { return memory.data(); }

private:
  const CpuDevice &device;
  AlignedBuffer memory;
};

class CpuExecutable : public Executable {
public:
  CpuExecutable(const ExecutableLibrary &library, const CpuDevice &device)
      : library(library), device(device) {}

  Status call(size_t entryIndex, const std::vector<Buffer *> &buffers) override;
  Status prepare(size_t entryIndex,
                 const std::vector<Buffer *> &buffers) override;

private:
  /// The data pointers of `buffers`, which must be this device's.
  Status getPointers(const std::vector<Buffer *> &buffers,
                     std::vector<void *> &pointers) const;

  const ExecutableLibrary &library;
  const CpuDevice &device;
};

class CpuDevice : public Device {
public:
  CpuDevice() {
    const HostCpu &cpu = HostCpu::get();
    info.name = DeviceName{"cpu", 0};
    info.model = cpu.modelName;
    info.description = cpu.modelName.empty()
                           ? (cpu.arch.empty() ? "host CPU" : cpu.arch + " CPU")
                           : cpu.modelName;
    info.description += " (" + std::to_string(cpu.numCores) +
                        (cpu.numCores == 1 ? " core)" : " cores)");
  }

  const DeviceInfo &getInfo() const override { return info; }
  const std::string &getLabel() const override { return label; }

  StatusOr<std::unique_ptr<Buffer>> allocateBuffer(size_t bytes) override {
    StatusOr<AlignedBuffer> memory = AlignedBuffer::allocate(
        bytes, "a buffer of " + std::to_string(bytes) + " bytes");
    if (!memory.ok())
      return memory.status();
    return std::unique_ptr<Buffer>(
        std::make_unique<CpuBuffer>(*this, std::move(*memory)));
  }

  Status write(Buffer &buffer, size_t offset, const void *data,
               size_t bytes) override {
    if (Status s = check(buffer, offset, bytes, "write"); !s.ok())
      return s;
    if (bytes)
      std::memcpy(static_cast<char *>(buffer.getBinding()) + offset, data,
                  bytes);
    return Status::success();
  }

  Status read(const Buffer &buffer, size_t offset, void *data,
              size_t bytes) override {
    if (Status s = check(buffer, offset, bytes, "read"); !s.ok())
      return s;
    if (bytes)
      std::memcpy(data, static_cast<const char *>(buffer.getBinding()) + offset,
                  bytes);
    return Status::success();
  }

  StatusOr<std::shared_ptr<Event>> submit() override {
    return std::shared_ptr<Event>(std::make_shared<CompletedEvent>());
  }

  StatusOr<std::unique_ptr<Executable>>
  loadExecutable(const ExecutableLibrary &library,
                 const ExecutableOptions &options) override {
    if (!options.empty())
      return Status::invalidArgument("the cpu driver has no option '" +
                                     options.begin()->first +
                                     "' (it takes none)");
    return std::unique_ptr<Executable>(
        std::make_unique<CpuExecutable>(library, *this));
  }

  /// Whether `buffer` is this device's and holds [offset, offset + bytes).
  Status check(const Buffer &buffer, size_t offset, size_t bytes,
               const char *what) const {
    if (&buffer.getDevice() != this)
      return Status::invalidArgument(std::string("cpu: ") + what +
                                     " of a buffer of " +
                                     buffer.getDevice().getLabel());
    if (offset > buffer.size() || bytes > buffer.size() - offset)
      return Status::outOfRange(std::string("cpu: ") + what + " of " +
                                std::to_string(bytes) + " bytes at offset " +
                                std::to_string(offset) + " of a buffer of " +
                                std::to_string(buffer.size()) + " bytes");
    return Status::success();
  }

private:
  DeviceInfo info;
  std::string label = "cpu";
};

const Device &CpuBuffer::getDevice() const { return device; }

/// Whether `buffer` can be the prepared buffer of `entry`.
Status checkPrepared(const EntrySpec &entry, const Buffer &buffer) {
  if (buffer.size() >= entry.preparedBytes)
    return Status::success();
  return Status::invalidArgument(
      "entry '" + entry.name + "': the prepared buffer has " +
      std::to_string(buffer.size()) + " bytes, not " +
      std::to_string(entry.preparedBytes));
}

Status CpuExecutable::call(size_t entryIndex,
                           const std::vector<Buffer *> &buffers) {
  if (entryIndex >= library.functions.size())
    return Status::outOfRange("no entry point #" + std::to_string(entryIndex));
  const EntrySpec &entry = library.manifest->entries[entryIndex];
  bool prepared = entry.preparedBytes != 0;
  if (buffers.size() !=
      entry.inputs.size() + entry.outputs.size() + (prepared ? 1 : 0))
    return Status::invalidArgument(
        "entry '" + entry.name + "' takes " +
        std::to_string(entry.inputs.size()) + " input and " +
        std::to_string(entry.outputs.size()) + " output buffers" +
        (prepared ? " and its prepared buffer" : "") + ", got " +
        std::to_string(buffers.size()));
  if (prepared)
    if (Status s = checkPrepared(entry, *buffers.back()); !s.ok())
      return s;
  std::vector<void *> pointers;
  if (Status s = getPointers(buffers, pointers); !s.ok())
    return s;
  // The temporaries' workspace (docs/ABI.md section 2), allocated here so
  // that a program too large for the machine is an error, not a crash in
  // compiled code. Not zero-filled: the code writes before it reads.
  struct FreeWorkspace {
    void operator()(void *p) const { std::free(p); }
  };
  std::unique_ptr<void, FreeWorkspace> workspace;
  if (uint64_t bytes = entry.workspaceBytes) {
    uint64_t rounded = (bytes + 63) / 64 * 64;
    if (rounded >= bytes && rounded <= SIZE_MAX)
      workspace.reset(std::aligned_alloc(64, size_t(rounded)));
    if (!workspace)
      return Status::resourceExhausted(
          "out of memory: cannot allocate " + std::to_string(bytes) +
          " bytes (" + detail::formatBytes(bytes) +
          ") for the temporaries of entry '" + entry.name + "'");
    pointers.push_back(workspace.get());
  }
  // The entry reads buffers[] even when there are none; give it storage.
  if (pointers.empty())
    pointers.push_back(nullptr);
  library.functions[entryIndex](pointers.data());
  return Status::success();
}

Status CpuExecutable::getPointers(const std::vector<Buffer *> &buffers,
                                  std::vector<void *> &pointers) const {
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (&buffers[i]->getDevice() != &device)
      return Status::invalidArgument(
          "buffer " + std::to_string(i) + " is a buffer of " +
          buffers[i]->getDevice().getLabel() + ", not of cpu");
    pointers.push_back(buffers[i]->getBinding());
  }
  return Status::success();
}

Status CpuExecutable::prepare(size_t entryIndex,
                              const std::vector<Buffer *> &buffers) {
  if (entryIndex >= library.prepareFunctions.size() ||
      !library.prepareFunctions[entryIndex])
    return Status::invalidArgument(
        "entry point #" + std::to_string(entryIndex) + " has no preparation");
  const EntrySpec &entry = library.manifest->entries[entryIndex];
  if (buffers.size() != entry.inputs.size() + 1)
    return Status::invalidArgument(
        "the preparation of entry '" + entry.name + "' takes " +
        std::to_string(entry.inputs.size()) +
        " input buffers and the prepared buffer, got " +
        std::to_string(buffers.size()));
  if (Status s = checkPrepared(entry, *buffers.back()); !s.ok())
    return s;
  std::vector<void *> pointers;
  if (Status s = getPointers(buffers, pointers); !s.ok())
    return s;
  library.prepareFunctions[entryIndex](pointers.data());
  return Status::success();
}

class CpuDriver : public Driver {
public:
  const std::string &getName() const override { return name; }
  bool hasIndexedDevices() const override { return false; }
  StatusOr<std::vector<DeviceInfo>> enumerateDevices() override {
    StatusOr<std::shared_ptr<Device>> device = openDevice(0);
    if (!device.ok())
      return device.status();
    return std::vector<DeviceInfo>{(*device)->getInfo()};
  }
  StatusOr<std::shared_ptr<Device>> openDevice(unsigned index) override {
    if (index != 0)
      return Status::notFound("no cpu device " + std::to_string(index) +
                              " (there is one, cpu)");
    std::lock_guard<std::mutex> lock(mu);
    if (!device)
      device = std::make_shared<CpuDevice>();
    return device;
  }

private:
  std::string name = "cpu";
  std::mutex mu;
  std::shared_ptr<Device> device;
};
} // namespace

std::unique_ptr<Driver> plaidml::rt::createCpuDriver() {
  return std::make_unique<CpuDriver>();
}
