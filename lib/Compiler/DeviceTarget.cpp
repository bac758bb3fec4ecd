//===- DeviceTarget.cpp - Resolve a device name to a target ---------------===//
//
// resolveDeviceTarget (DeviceTarget.h): the Vulkan and OpenCL device layers of
// the runtime say what `vulkan:N` and `opencl:N` offer. A library of its own
// (PlaidMLDeviceTarget), linked by the tools, so the compiler library does
// not probe devices.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/DeviceTarget.h"

#include "plaidml/Runtime/OpenCL.h"
#include "plaidml/Runtime/Vulkan.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

using namespace mlir;
using namespace mlir::plaidml;
namespace rt = ::plaidml::rt;

/// N of "KIND:N", or nothing for another device.
static std::optional<unsigned> getIndex(llvm::StringRef device,
                                        llvm::StringRef kind) {
  auto [prefix, index] = device.split(':');
  unsigned number;
  if (prefix != kind || index.empty() || index.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

static void resolveVulkan(CompileOptions &options, unsigned index) {
  std::string name = "vulkan:" + std::to_string(index);
  rt::StatusOr<std::vector<rt::VulkanDeviceInfo>> devices =
      rt::enumerateVulkanDevices();
  if (devices.ok() && index < devices->size()) {
    const rt::VulkanDeviceInfo &info = (*devices)[index];
    options.label = name + " (" + info.name + ")";
    options.caps = info.spirvCapabilities();
    options.exts = info.spirvExtensions();
    return;
  }
  // Not on this machine: a device with every feature the runtime checks.
  rt::VulkanDeviceInfo everything;
  everything.shaderFloat16 = everything.shaderFloat64 = true;
  everything.shaderInt8 = everything.shaderInt16 = everything.shaderInt64 =
      true;
  everything.storageBuffer8Bit = everything.storageBuffer16Bit = true;
  options.label = name + " (not on this machine; its features are checked "
                         "when the artifact is loaded)";
  options.caps = everything.spirvCapabilities();
  options.exts = everything.spirvExtensions();
}

static void resolveOpenCL(CompileOptions &options, unsigned index) {
  std::string name = "opencl:" + std::to_string(index);
  rt::StatusOr<std::vector<rt::OpenCLDeviceInfo>> devices =
      rt::enumerateOpenCLDevices();
  options.caps.clear();
  options.exts.clear();
  if (devices.ok() && index < devices->size()) {
    const rt::OpenCLDeviceInfo &info = (*devices)[index];
    options.label = name + " (" + info.name + ")";
    if (info.fp64)
      options.exts.push_back("cl_khr_fp64");
    if (info.fp16)
      options.exts.push_back("cl_khr_fp16");
    return;
  }
  options.label = name + " (not on this machine; its extensions are checked "
                         "when the artifact is loaded)";
  options.exts = {"cl_khr_fp64", "cl_khr_fp16"};
}

void mlir::plaidml::resolveDeviceTarget(CompileOptions &options) {
  if (std::optional<unsigned> index = getIndex(options.device, "vulkan"))
    resolveVulkan(options, *index);
  else if (std::optional<unsigned> index = getIndex(options.device, "opencl"))
    resolveOpenCL(options, *index);
}
