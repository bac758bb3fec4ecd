//===- DeviceTarget.cpp - Resolve a device name to a target ---------------===//
//
// resolveDeviceTarget (DeviceTarget.h): the Vulkan and OpenCL drivers of the
// runtime (Driver.h) say what `vulkan:N` and `opencl:N` offer. A library of its
// own (PlaidMLDeviceTarget), linked by the tools, so the compiler library does
// not probe devices.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/DeviceTarget.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Driver.h"

#include "llvm/ADT/StringExtras.h"
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

/// The DeviceInfo of device `index` of driver `driver`, if this machine has
/// it.
static std::optional<rt::DeviceInfo> findDevice(llvm::StringRef driver,
                                                unsigned index) {
  rt::StatusOr<rt::Driver *> found = rt::getDriver(driver.str());
  if (!found.ok())
    return std::nullopt;
  rt::StatusOr<std::vector<rt::DeviceInfo>> devices =
      (*found)->enumerateDevices();
  if (!devices.ok())
    return std::nullopt;
  for (rt::DeviceInfo &info : *devices)
    if (info.name.index == index)
      return std::move(info);
  return std::nullopt;
}

/// Every feature driver `driver` checks: the offline target.
static std::vector<std::string> getCheckableFeatures(llvm::StringRef driver) {
  rt::StatusOr<rt::Driver *> found = rt::getDriver(driver.str());
  return found.ok() ? (*found)->getCheckableFeatures()
                    : std::vector<std::string>();
}

/// The error for --device-features naming a device this machine has.
static std::string ownDeviceError(const std::string &name) {
  return name + " is a device of this machine: its features are its own "
                "(--device-features is for a device this machine does not "
                "have)";
}

static std::string resolveVulkan(CompileOptions &options, unsigned index,
                                 const std::vector<std::string> *offline) {
  std::string name = "vulkan:" + std::to_string(index);
  std::vector<std::string> features;
  if (std::optional<rt::DeviceInfo> info = findDevice("vulkan", index)) {
    if (offline)
      return ownDeviceError(name);
    options.label = name + " (" + info->model + ")";
    features = info->features;
  } else {
    // Not on this machine: the features given, else every feature the
    // runtime checks.
    options.label = name + " (not on this machine; its features are checked "
                           "when the artifact is loaded)";
    features = offline ? *offline : getCheckableFeatures("vulkan");
  }
  // Extensions are named SPV_*, capabilities are not.
  options.caps.clear();
  options.exts.clear();
  for (std::string &feature : features)
    (llvm::StringRef(feature).starts_with("SPV_") ? options.exts : options.caps)
        .push_back(std::move(feature));
  return "";
}

static std::string resolveOpenCL(CompileOptions &options, unsigned index,
                                 const std::vector<std::string> *offline) {
  std::string name = "opencl:" + std::to_string(index);
  options.caps.clear();
  options.exts.clear();
  // The features the compiler reads, and whether an offline target has
  // them by default: every extension the runtime checks but the PTX ones,
  // which only NVIDIA's OpenCL has, and it has no cl_khr_fp16
  // (--device-features=cl_khr_fp64,nv-ptx-wmma targets it; with
  // nv-ptx-cp-async, compute capability 8.0 or later). nv-ptx-wmma: f16
  // products summed in f32 as 16x16x16 matrices per 32-wide subgroup (the
  // cooperative-matrix kernels, in OpenCL C as PTX wmma); nv-ptx-cp-async:
  // asynchronous global-to-shared copies (their two-stage form).
  static constexpr std::pair<llvm::StringLiteral, bool> kFeatures[] = {
      {"cl_khr_fp64", true},
      {"cl_khr_fp16", true},
      {"nv-ptx-wmma", false},
      {"nv-ptx-cp-async", false}};
  std::optional<rt::DeviceInfo> info = findDevice("opencl", index);
  if (info && offline)
    return ownDeviceError(name);
  options.label = info ? name + " (" + info->model + ")"
                       : name + " (not on this machine; its extensions are "
                                "checked when the artifact is loaded)";
  for (auto [feature, byDefault] : kFeatures) {
    bool has = info      ? info->hasFeature(std::string_view(feature))
               : offline ? llvm::is_contained(*offline, feature)
                         : byDefault;
    if (has)
      options.exts.push_back(feature.str());
  }
  return "";
}

/// The first of `features` that `driver` does not check, as an error.
static std::string unknownFeature(llvm::StringRef driver,
                                  const std::vector<std::string> &features) {
  std::vector<std::string> known = getCheckableFeatures(driver);
  for (const std::string &feature : features)
    if (!llvm::is_contained(known, feature))
      return "--device-features: '" + feature + "' is not a feature the " +
             driver.str() + " runtime checks (" + llvm::join(known, ", ") + ")";
  return "";
}

std::string mlir::plaidml::emulateNvPtx(CompileOptions &options) {
  if (!getIndex(options.device, "opencl"))
    return "--emulate-nv-ptx is for an opencl:N device, not '" +
           options.device + "'";
  for (llvm::StringRef ext :
       {llvm::StringRef("nv-ptx-wmma"), llvm::StringRef("nv-ptx-cp-async"),
        llvm::StringRef(kEmulateNvPtxFeature)})
    if (!llvm::is_contained(options.exts, ext))
      options.exts.push_back(ext.str());
  return "";
}

std::string
mlir::plaidml::resolveDeviceTarget(CompileOptions &options,
                                   const std::vector<std::string> *offline) {
  for (llvm::StringRef driver : {"vulkan", "opencl"}) {
    std::optional<unsigned> index = getIndex(options.device, driver);
    if (!index)
      continue;
    if (offline) {
      std::string error = unknownFeature(driver, *offline);
      if (!error.empty())
        return error;
    }
    return driver == "vulkan" ? resolveVulkan(options, *index, offline)
                              : resolveOpenCL(options, *index, offline);
  }
  return offline ? "--device-features is for a vulkan:N or opencl:N this "
                   "machine does not have, not " +
                       options.device
                 : "";
}
