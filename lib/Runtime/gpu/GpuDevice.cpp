//===- GpuDevice.cpp - The Device of every GPU driver ---------------------===//
//
// GpuDevice over a GpuBackend: buffers with handles (PROT_NONE
// reservations, docs/ABI.md section 6), copies and submission (executables:
// GpuProgram.cpp); GpuDriver opens each device of a backend once. Freed
// buffers keep their device memory for the next allocation of the same size
// (up to GpuDevice::kMaxSpareBytes), so a program's temporaries cost no
// device allocation after its first call.
//
//===----------------------------------------------------------------------===//

#include "gpu/GpuDevice.h"

#include "CompletedEvent.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace plaidml::rt;

GpuBuffer::~GpuBuffer() {
  if (device)
    device->release(handle, std::move(buffer), std::max<size_t>(bytes, 4));
  if (handle)
    munmap(handle, reserved);
}

const Device &GpuBuffer::getDevice() const { return *device; }

GpuDevice::GpuDevice(std::unique_ptr<GpuBackend> backend, DeviceInfo info)
    : backend(std::move(backend)), info(std::move(info)) {}

StatusOr<std::unique_ptr<Buffer>> GpuDevice::allocateBuffer(size_t bytes) {
  // Vulkan has no empty buffers; an empty tensor still gets a handle.
  StatusOr<std::unique_ptr<GpuBackendBuffer>> made =
      obtain(std::max<size_t>(bytes, 4));
  if (!made.ok())
    return made.status();
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t reserved = (std::max<size_t>(bytes, 1) + page - 1) / page * page;
  void *handle = mmap(nullptr, reserved, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (handle == MAP_FAILED)
    return Status::resourceExhausted(
        "cannot reserve " + std::to_string(reserved) +
        " bytes of address space for a buffer handle: " + std::strerror(errno));
  std::unique_ptr<GpuBuffer> buffer(new GpuBuffer());
  buffer->device = this;
  buffer->buffer = std::move(*made);
  buffer->handle = handle;
  buffer->bytes = bytes;
  buffer->reserved = reserved;
  std::lock_guard<std::mutex> lock(mu);
  buffers[reinterpret_cast<uintptr_t>(handle)] = buffer.get();
  return std::unique_ptr<Buffer>(std::move(buffer));
}

void GpuDevice::release(void *handle, std::unique_ptr<GpuBackendBuffer> buffer,
                        size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu);
    buffers.erase(reinterpret_cast<uintptr_t>(handle));
    if (buffer && spareBytes + bytes <= kMaxSpareBytes) {
      spare.emplace(bytes, std::move(buffer));
      spareBytes += bytes;
    }
  }
  buffer.reset(); // Not kept: destroyed outside the lock.
}

StatusOr<std::unique_ptr<GpuBackendBuffer>> GpuDevice::obtain(size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = spare.find(bytes);
    if (it != spare.end()) {
      std::unique_ptr<GpuBackendBuffer> buffer = std::move(it->second);
      spare.erase(it);
      spareBytes -= bytes;
      return buffer;
    }
  }
  StatusOr<std::unique_ptr<GpuBackendBuffer>> made =
      backend->createBuffer(bytes);
  if (made.ok())
    return made;
  // Out of memory, perhaps because of the spare buffers: free them, retry.
  std::multimap<size_t, std::unique_ptr<GpuBackendBuffer>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu);
    dropped.swap(spare);
    spareBytes = 0;
  }
  if (dropped.empty())
    return made;
  dropped.clear();
  return backend->createBuffer(bytes);
}

GpuBuffer *GpuDevice::lookup(const void *pointer, size_t &offset) {
  std::lock_guard<std::mutex> lock(mu);
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto it = buffers.upper_bound(address);
  if (it == buffers.begin())
    return nullptr;
  --it;
  if (address >= it->first + it->second->reserved)
    return nullptr;
  offset = address - it->first;
  return it->second;
}

StatusOr<GpuBuffer *> GpuDevice::own(const Buffer &buffer,
                                     const std::string &what) {
  if (&buffer.getDevice() != this)
    return Status::invalidArgument(what + " is a buffer of " +
                                   buffer.getDevice().getLabel() + ", not of " +
                                   getLabel());
  return static_cast<GpuBuffer *>(const_cast<Buffer *>(&buffer));
}

StatusOr<GpuBuffer *> GpuDevice::ownRange(const Buffer &buffer,
                                          const std::string &what,
                                          size_t offset, size_t bytes) {
  StatusOr<GpuBuffer *> mine = own(buffer, what);
  if (!mine.ok())
    return mine;
  size_t size = (*mine)->size();
  if (offset > size || bytes > size - offset)
    return Status::outOfRange(getLabel() + ": " + std::to_string(bytes) +
                              " bytes at offset " + std::to_string(offset) +
                              " of a buffer of " + std::to_string(size) +
                              " bytes");
  return mine;
}

Status GpuDevice::write(Buffer &buffer, size_t offset, const void *data,
                        size_t bytes) {
  StatusOr<GpuBuffer *> mine =
      ownRange(buffer, "the destination of a write", offset, bytes);
  if (!mine.ok())
    return mine.status();
  if (bytes == 0)
    return Status::success();
  return backend->upload((*mine)->getBackendBuffer(), data, bytes, offset)
      .withContext(getLabel());
}

Status GpuDevice::read(const Buffer &buffer, size_t offset, void *data,
                       size_t bytes) {
  StatusOr<GpuBuffer *> mine =
      ownRange(buffer, "the source of a read", offset, bytes);
  if (!mine.ok())
    return mine.status();
  if (bytes == 0)
    return Status::success();
  return backend->download((*mine)->getBackendBuffer(), data, bytes, offset)
      .withContext(getLabel());
}

StatusOr<std::shared_ptr<Event>> GpuDevice::submit() {
  // The device layers submit and wait in one step.
  if (Status s = backend->synchronize(); !s.ok())
    return s.withContext(getLabel());
  return std::shared_ptr<Event>(std::make_shared<CompletedEvent>());
}

StatusOr<std::shared_ptr<Device>> GpuDriver::openDevice(unsigned index) {
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = devices.find(index); it != devices.end())
    return it->second;
  StatusOr<std::unique_ptr<GpuBackend>> backend = open(index);
  if (!backend.ok())
    return backend.status();
  StatusOr<std::vector<DeviceInfo>> infos = enumerate();
  if (!infos.ok())
    return infos.status();
  DeviceInfo info;
  for (const DeviceInfo &candidate : *infos)
    if (candidate.name.index == index)
      info = candidate;
  info.name = DeviceName{name, index};
  std::shared_ptr<Device> device =
      std::make_shared<GpuDevice>(std::move(*backend), std::move(info));
  devices[index] = device;
  return device;
}

StatusOr<std::unique_ptr<GpuModuleOptions>>
GpuBackend::parseOptions(const ExecutableOptions &options) const {
  if (!options.empty())
    return Status::invalidArgument("the driver of " + label() +
                                   " has no option '" + options.begin()->first +
                                   "' (it takes none)");
  return std::make_unique<GpuModuleOptions>();
}
