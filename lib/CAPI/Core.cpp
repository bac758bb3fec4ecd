//===- Core.cpp - C API: status, element types, buffers, devices ----------===//
//
// The parts of include/plaidml-c/plaidml.h that need no compiler: the
// thread-local last error, status and element-type names, host buffers
// (rt::HostArray underneath) and the device list (the reference interpreter
// and rt::listDevices, taken once).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Version.h"

#include <cstring>
#include <memory>
#include <mutex>

using namespace plaidml;
using namespace plaidml::capi;

namespace {
thread_local std::string lastError;

/// The devices of plaidml_device_*: taken at the first call.
struct DeviceList {
  std::vector<std::string> names, descriptions;
};
const DeviceList &getDevices() {
  static DeviceList list = [] {
    DeviceList l;
    l.names.push_back("reference");
    l.descriptions.push_back("the reference interpreter (slow, for checking)");
    for (const rt::DeviceInfo &info : rt::listDevices()) {
      l.names.push_back(info.name.str());
      l.descriptions.push_back(info.description);
    }
    return l;
  }();
  return list;
}
} // namespace

plaidml_status capi::fail(plaidml_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

plaidml_status capi::failNull(const char *function, const char *what) {
  return fail(PLAIDML_INVALID_ARGUMENT,
              std::string(function) + ": " + what + " is null");
}

plaidml_status capi::fromStatus(const rt::Status &status, plaidml_status code) {
  return status.ok() ? PLAIDML_OK : fail(code, status.message());
}

// The enumerations list the element types in the same order.
static_assert(PLAIDML_I1 == static_cast<int>(rt::DType::i1) &&
                  PLAIDML_SI64 == static_cast<int>(rt::DType::si64) &&
                  PLAIDML_UI64 == static_cast<int>(rt::DType::ui64) &&
                  PLAIDML_F64 == static_cast<int>(rt::DType::f64),
              "plaidml_dtype and rt::DType differ");

rt::DType capi::toDType(plaidml_dtype dtype) {
  return static_cast<rt::DType>(dtype);
}
plaidml_dtype capi::fromDType(rt::DType dtype) {
  return static_cast<plaidml_dtype>(dtype);
}
bool capi::isValidDType(int dtype) {
  return dtype >= PLAIDML_I1 && dtype <= PLAIDML_F64;
}

extern "C" {

//===----------------------------------------------------------------------===//
// Status, version
//===----------------------------------------------------------------------===//

const char *plaidml_status_string(plaidml_status status) {
  switch (status) {
  case PLAIDML_OK:
    return "ok";
  case PLAIDML_INVALID_ARGUMENT:
    return "invalid argument";
  case PLAIDML_NOT_FOUND:
    return "not found";
  case PLAIDML_BUILD_ERROR:
    return "build error";
  case PLAIDML_COMPILE_ERROR:
    return "compile error";
  case PLAIDML_RUNTIME_ERROR:
    return "runtime error";
  case PLAIDML_UNSUPPORTED:
    return "unsupported";
  case PLAIDML_INTERNAL_ERROR:
    return "internal error";
  }
  return "unknown status";
}

const char *plaidml_last_error(void) { return lastError.c_str(); }

const char *plaidml_version(void) { return PLAIDML_VERSION_STRING; }

int plaidml_c_api_version(void) { return PLAIDML_C_API_VERSION; }

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

const char *plaidml_dtype_name(plaidml_dtype dtype) {
  if (!isValidDType(dtype))
    return nullptr;
  return rt::getDTypeName(toDType(dtype));
}

size_t plaidml_dtype_size(plaidml_dtype dtype) {
  if (!isValidDType(dtype))
    return 0;
  return rt::getDTypeSize(toDType(dtype));
}

plaidml_status plaidml_dtype_parse(const char *name, plaidml_dtype *out) {
  if (!name)
    return failNull("plaidml_dtype_parse", "name");
  if (!out)
    return failNull("plaidml_dtype_parse", "out");
  std::optional<rt::DType> dtype = rt::parseDType(name);
  if (!dtype)
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string("plaidml_dtype_parse: unknown element type '") +
                    name + "'");
  *out = fromDType(*dtype);
  return PLAIDML_OK;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

plaidml_status plaidml_buffer_create(plaidml_dtype dtype, size_t rank,
                                     const int64_t *shape, const void *data,
                                     plaidml_buffer **out) {
  if (!out)
    return failNull("plaidml_buffer_create", "out");
  if (!isValidDType(dtype))
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_buffer_create: " + std::to_string(int(dtype)) +
                    " is not a plaidml_dtype");
  if (rank > 0 && !shape)
    return failNull("plaidml_buffer_create", "shape");
  auto buffer = std::make_unique<plaidml_buffer>();
  buffer->array.dtype = toDType(dtype);
  uint64_t count = 1;
  size_t elementSize = rt::getDTypeSize(buffer->array.dtype);
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0)
      return fail(PLAIDML_INVALID_ARGUMENT,
                  "plaidml_buffer_create: dimension " + std::to_string(i) +
                      " is negative (" + std::to_string(shape[i]) + ")");
    if (shape[i] != 0 &&
        count > (uint64_t(1) << 40) / elementSize / uint64_t(shape[i]))
      return fail(PLAIDML_INVALID_ARGUMENT,
                  "plaidml_buffer_create: the shape has more than 2^40 bytes");
    count *= uint64_t(shape[i]);
    buffer->array.shape.push_back(shape[i]);
  }
  buffer->array.bytes.resize(count * elementSize);
  if (data && !buffer->array.bytes.empty())
    std::memcpy(buffer->array.bytes.data(), data, buffer->array.bytes.size());
  *out = buffer.release();
  return PLAIDML_OK;
}

void plaidml_buffer_destroy(plaidml_buffer *buffer) { delete buffer; }

plaidml_dtype plaidml_buffer_dtype(const plaidml_buffer *buffer) {
  return buffer ? fromDType(buffer->array.dtype) : PLAIDML_F32;
}

size_t plaidml_buffer_rank(const plaidml_buffer *buffer) {
  return buffer ? buffer->array.shape.size() : 0;
}

int64_t plaidml_buffer_dim(const plaidml_buffer *buffer, size_t dim) {
  if (!buffer || dim >= buffer->array.shape.size())
    return -1;
  return buffer->array.shape[dim];
}

int64_t plaidml_buffer_num_elements(const plaidml_buffer *buffer) {
  return buffer ? buffer->array.getNumElements() : 0;
}

size_t plaidml_buffer_size_bytes(const plaidml_buffer *buffer) {
  return buffer ? buffer->array.bytes.size() : 0;
}

void *plaidml_buffer_data(plaidml_buffer *buffer) {
  return buffer ? buffer->array.bytes.data() : nullptr;
}

const char *plaidml_buffer_describe(plaidml_buffer *buffer) {
  if (!buffer)
    return "";
  buffer->description = buffer->array.describe();
  return buffer->description.c_str();
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

plaidml_status plaidml_device_count(size_t *count) {
  if (!count)
    return failNull("plaidml_device_count", "count");
  *count = getDevices().names.size();
  return PLAIDML_OK;
}

plaidml_status plaidml_device_name(size_t index, const char **name) {
  if (!name)
    return failNull("plaidml_device_name", "name");
  const DeviceList &devices = getDevices();
  if (index >= devices.names.size())
    return fail(PLAIDML_NOT_FOUND, "plaidml_device_name: no device #" +
                                       std::to_string(index) + " (there are " +
                                       std::to_string(devices.names.size()) +
                                       ")");
  *name = devices.names[index].c_str();
  return PLAIDML_OK;
}

plaidml_status plaidml_device_description(size_t index, const char **text) {
  if (!text)
    return failNull("plaidml_device_description", "text");
  const DeviceList &devices = getDevices();
  if (index >= devices.names.size())
    return fail(PLAIDML_NOT_FOUND, "plaidml_device_description: no device #" +
                                       std::to_string(index) + " (there are " +
                                       std::to_string(devices.names.size()) +
                                       ")");
  *text = devices.descriptions[index].c_str();
  return PLAIDML_OK;
}

plaidml_status plaidml_default_device(const char **name) {
  if (!name)
    return failNull("plaidml_default_device", "name");
  static std::mutex mutex;
  static std::vector<std::unique_ptr<std::string>> names;
  rt::StatusOr<std::string> device = rt::getDefaultDeviceName();
  if (!device.ok())
    return fail(PLAIDML_INVALID_ARGUMENT, device.message());
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &known : names)
    if (*known == *device) {
      *name = known->c_str();
      return PLAIDML_OK;
    }
  names.push_back(std::make_unique<std::string>(*device));
  *name = names.back()->c_str();
  return PLAIDML_OK;
}

} // extern "C"
