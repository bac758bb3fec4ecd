//===- SPIRVKernels.h - OpenCL kernel modules as SPIR-V ---------*- C++ -*-===//
//
// The SPIR-V conversion of OpenCL kernel modules, shared by the OpenCL
// pipeline (kernel-format=spirv) and plaidml-gpu-module-to-opencl-bundle,
// which runs it on a copy of each kernel module (kernel-format=both) so that
// a module SPIR-V cannot express still gets its OpenCL C. It lives with the
// OpenCL target rather than in lib/Pipelines because that pass needs it.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_OPENCL_SPIRVKERNELS_H
#define PLAIDML_TARGET_OPENCL_SPIRVKERNELS_H

#include "mlir/IR/Attributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

namespace mlir::plaidml {

/// The OpenCL SPIR-V target of a device: SPIR-V 1.0, the OpenCL client API
/// and the capabilities Kernel, Addresses (Physical64), Int8, Int16, Int64,
/// plus Float16 with `fp16` (cl_khr_fp16) and Float64 with `fp64`
/// (cl_khr_fp64). What spirv-attach-target makes of the same options.
Attribute getOpenCLTargetEnv(MLIRContext *context, bool fp16, bool fp64);

/// From `gpu.module`s whose first target is an OpenCL `#spirv.target_env`
/// and whose kernels have their `spirv.entry_point_abi` (views folded into
/// the accesses) to `gpu.module`s holding their `spirv.module` (or, with
/// `serialize`, to `gpu.binary`s of SPIR-V): plaidml-gpu-expose-target-env,
/// plaidml-gpu-check-device-support, convert-math-to-spirv,
/// convert-gpu-to-spirv{use-64bit-index}, plaidml-nest-spirv-modules,
/// spirv-lower-abi-attrs, spirv-update-vce[, plaidml-gpu-collect-requirements,
/// gpu-module-to-binary]. Needs no
/// host code: it runs on a `builtin.module` holding only kernel modules too.
void buildOpenCLSPIRVConversion(OpPassManager &pm, bool serialize);

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_OPENCL_SPIRVKERNELS_H
