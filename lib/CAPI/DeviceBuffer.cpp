//===- DeviceBuffer.cpp - Tensors kept on an executable's device ----------===//
//
// plaidml_device_buffer: a tensor in the memory of the device an executable
// runs on, so that programs run one after another (the steps of a training
// loop) pass tensors without copies through the host. A compiled
// executable's buffers are runtime Buffers of its Device (the runtime opens
// each device once, so executables of one device share it);
// plaidml_executable_run_on_device allocates the outputs there and calls
// the entry on them (rt::Program::execute). For the reference interpreter
// the "device" is the host: the buffer is a host array.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"

#include "plaidml/Runtime/Device.h"

using namespace plaidml;
using namespace plaidml::capi;

struct plaidml_device_buffer {
  /// The device's name as the executable gives it ("vulkan:0").
  std::string device;
  /// The element type and shape; also the data for the reference
  /// interpreter (when `buffer` is null).
  rt::HostArray array;
  /// The data on `rtDevice` (compiled executables).
  rt::Device *rtDevice = nullptr;
  std::unique_ptr<rt::Buffer> buffer;
  /// plaidml_device_buffer_describe's text, made on demand.
  std::string description;
};

namespace {
/// A device buffer of `p`'s device of `dtype` and `shape`, holding `data`
/// (bytes of that size) when given.
plaidml_status makeDeviceBuffer(plaidml_executable &p, rt::DType dtype,
                                const std::vector<int64_t> &shape,
                                const std::vector<uint8_t> *data,
                                plaidml_device_buffer **out) {
  auto result = std::make_unique<plaidml_device_buffer>();
  result->device = p.device;
  result->array.dtype = dtype;
  result->array.shape = shape;
  if (!p.program) {
    if (data)
      result->array.bytes = *data;
    *out = result.release();
    return PLAIDML_OK;
  }
  rt::Device &device = p.program->getDevice();
  size_t bytes = static_cast<size_t>(result->array.getNumElements()) *
                 rt::getDTypeSize(dtype);
  rt::StatusOr<std::unique_ptr<rt::Buffer>> buffer =
      device.allocateBuffer(bytes);
  if (!buffer.ok())
    return fail(PLAIDML_RUNTIME_ERROR,
                "cannot allocate " + rt::describeShapeAndType(shape, dtype) +
                    " on " + p.device + ": " + buffer.message());
  if (data && bytes) {
    if (rt::Status s = device.write(**buffer, 0, data->data(), bytes); !s.ok())
      return fromStatus(s, PLAIDML_RUNTIME_ERROR);
  }
  result->rtDevice = &device;
  result->buffer = std::move(*buffer);
  *out = result.release();
  return PLAIDML_OK;
}
} // namespace

extern "C" {

plaidml_status plaidml_executable_upload(plaidml_executable *p,
                                         const plaidml_buffer *host,
                                         plaidml_device_buffer **out) {
  if (!p)
    return failNull("plaidml_executable_upload", "program");
  if (!host)
    return failNull("plaidml_executable_upload", "buffer");
  if (!out)
    return failNull("plaidml_executable_upload", "out");
  return makeDeviceBuffer(*p, host->array.dtype, host->array.shape,
                          &host->array.bytes, out);
}

plaidml_status plaidml_device_buffer_read(const plaidml_device_buffer *buffer,
                                          plaidml_buffer **out) {
  if (!buffer)
    return failNull("plaidml_device_buffer_read", "buffer");
  if (!out)
    return failNull("plaidml_device_buffer_read", "out");
  auto result = std::make_unique<plaidml_buffer>();
  result->array = buffer->array;
  if (buffer->buffer) {
    size_t bytes = buffer->buffer->size();
    result->array.bytes.assign(bytes, 0);
    if (bytes) {
      if (rt::Status s = buffer->rtDevice->read(
              *buffer->buffer, 0, result->array.bytes.data(), bytes);
          !s.ok())
        return fromStatus(s, PLAIDML_RUNTIME_ERROR);
    }
  }
  *out = result.release();
  return PLAIDML_OK;
}

void plaidml_device_buffer_destroy(plaidml_device_buffer *buffer) {
  delete buffer;
}

const char *plaidml_device_buffer_describe(plaidml_device_buffer *buffer) {
  if (!buffer)
    return "";
  buffer->description = buffer->array.describe() + " on " + buffer->device;
  return buffer->description.c_str();
}

plaidml_status
plaidml_executable_run_on_device(plaidml_executable *p, size_t num_inputs,
                                 plaidml_device_buffer *const *inputs,
                                 size_t num_outputs,
                                 plaidml_device_buffer **outputs) {
  const char *function = "plaidml_executable_run_on_device";
  if (plaidml_status status =
          checkRunArity(p, function, num_inputs, inputs, num_outputs, outputs))
    return status;
  rt::Device *device = p->program ? &p->program->getDevice() : nullptr;
  for (size_t i = 0; i < num_inputs; ++i) {
    if (plaidml_status status = checkRunInput(
            *p, function, i, inputs[i] ? &inputs[i]->array : nullptr))
      return status;
    if (inputs[i]->rtDevice != device)
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(function) + ": input '" + p->inputs[i].name +
                      "' is a buffer on " + inputs[i]->device +
                      ", but the program runs on " + p->device);
  }

  std::vector<plaidml_device_buffer *> made;
  auto discard = [&](plaidml_status status) {
    for (plaidml_device_buffer *b : made)
      delete b;
    return status;
  };
  if (!device) {
    // The reference interpreter: run on the host arrays.
    std::vector<rt::HostArray> arrays, results;
    for (size_t i = 0; i < num_inputs; ++i)
      arrays.push_back(inputs[i]->array);
    if (plaidml_status status = runOnHost(*p, arrays, results))
      return status;
    for (auto [array, spec] : llvm::zip_equal(results, p->outputs)) {
      plaidml_device_buffer *b;
      if (plaidml_status status = makeDeviceBuffer(
              *p, toDType(spec.dtype), spec.shape, &array.bytes, &b))
        return discard(status);
      made.push_back(b);
    }
  } else {
    std::vector<rt::Buffer *> buffers;
    for (size_t i = 0; i < num_inputs; ++i)
      buffers.push_back(inputs[i]->buffer.get());
    for (const TensorSpec &spec : p->outputs) {
      plaidml_device_buffer *b;
      if (plaidml_status status = makeDeviceBuffer(*p, toDType(spec.dtype),
                                                   spec.shape, nullptr, &b))
        return discard(status);
      made.push_back(b);
      buffers.push_back(b->buffer.get());
    }
    if (rt::Status s = p->program->execute(p->entry, buffers); !s.ok())
      return discard(fromStatus(s, PLAIDML_RUNTIME_ERROR));
  }
  for (size_t i = 0; i < num_outputs; ++i)
    outputs[i] = made[i];
  return PLAIDML_OK;
}

} // extern "C"
