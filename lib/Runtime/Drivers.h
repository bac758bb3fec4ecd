//===- Drivers.h - The built-in drivers -------------------------*- C++ -*-===//
//
// The drivers the registry (Driver.cpp) starts with, in listing order: the
// host CPU (cpu/CpuDriver.cpp), Vulkan (vulkan/VulkanDriver.cpp) and OpenCL
// (opencl/OpenCLDriver.cpp). Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_DRIVERS_H
#define PLAIDML_LIB_RUNTIME_DRIVERS_H

#include "plaidml/Runtime/Driver.h"

#include <memory>

namespace plaidml::rt {

std::unique_ptr<Driver> createCpuDriver();
std::unique_ptr<Driver> createVulkanDriver();
std::unique_ptr<Driver> createOpenCLDriver();

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_DRIVERS_H
