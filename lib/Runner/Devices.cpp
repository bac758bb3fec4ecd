//===- Devices.cpp - Check a device name before opening a program ---------===//
//
// The tools take a device by name (`cpu`, `vulkan:N`, `opencl:N`, or
// `reference`, the reference interpreter); checkDevice says why one cannot
// run programs here before anything is compiled for it. Links no MLIR, so
// the runtime-only build of plaidml-run has it too.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include "plaidml/Runtime/Device.h"

using namespace plaidml;

rt::Status plaidml::run::checkDevice(const std::string &device) {
  if (device == "reference") {
    if (!canOpenSources())
      return rt::Status::failure(
          "device 'reference' (the reference interpreter) needs the "
          "compiler, which this runtime-only build lacks");
    return rt::Status::success();
  }
  rt::StatusOr<rt::DeviceName> name = rt::parseDeviceName(device);
  if (!name.ok())
    return name.status();
  return rt::checkDeviceAvailable(*name);
}
