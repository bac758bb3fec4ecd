//===- DeviceTarget.h - Resolve a device name to a target -------*- C++ -*-===//
//
// What the tools (plaidml-compile, plaidml-run, plaidml-setup) do before
// they compile: turn `--device vulkan:0` into the target the compiler
// takes, by asking the runtime's device layers what that device offers.
// The compiler library itself never looks at the machine's devices: it
// compiles for the CompileOptions it is given, so a build server can
// compile for a device it does not have.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_COMPILER_DEVICETARGET_H
#define PLAIDML_COMPILER_DEVICETARGET_H

#include "plaidml/Compiler/Compiler.h"

namespace mlir::plaidml {

/// Fills `options.caps`, `options.exts` and `options.label` for
/// `options.device`:
/// - `vulkan:N`: the SPIR-V capabilities and extensions of this machine's
///   Vulkan device N;
/// - `opencl:N`: the double and half precision extensions of this
///   machine's OpenCL device N;
/// - a device this machine does not have: the offline target, every
///   feature the runtime knows how to check, so the artifact's manifest
///   records what its kernels use and the runtime of the machine that runs
///   it decides;
/// - `cpu` (and anything else): nothing.
/// `offlineFeatures`, when given, are the features of a device this
/// machine does not have instead of every checkable one (plaidml-compile
/// --device-features: NVIDIA's OpenCL, say, has nv-ptx-wmma but not
/// cl_khr_fp16). Returns an error message for features given for a device
/// this machine has, or for a cpu; empty otherwise.
std::string
resolveDeviceTarget(CompileOptions &options,
                    const std::vector<std::string> *offlineFeatures = nullptr);

/// After resolveDeviceTarget, for an opencl:N target: its kernels as for
/// NVIDIA's OpenCL with nv-ptx-wmma and nv-ptx-cp-async, that PTX printed as
/// portable OpenCL C of the same meaning (the target extension
/// emulate-nv-ptx), so that any OpenCL device runs the cooperative-matrix
/// kernels, slowly: a test aid (plaidml-compile and plaidml-run
/// --emulate-nv-ptx). Returns an error message for another device.
std::string emulateNvPtx(CompileOptions &options);

} // namespace mlir::plaidml

#endif // PLAIDML_COMPILER_DEVICETARGET_H
