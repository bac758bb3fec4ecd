//===- EmitOpenCLC.h - Kernels as OpenCL C 1.2 source -----------*- C++ -*-===//
//
// The translation of outlined GPU kernels (a gpu.module of gpu.funcs over
// scf/arith/math/memref) into OpenCL C 1.2 text, which every OpenCL driver
// builds (PoCL and NVIDIA's OpenCL take no SPIR-V). Used by
// plaidml-gpu-module-to-opencl-c and plaidml-translate --mlir-to-opencl-c;
// docs/OpenCLPipeline.md lists the subset.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_OPENCL_EMITOPENCLC_H
#define PLAIDML_TARGET_OPENCL_EMITOPENCLC_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::plaidml {

/// What the device can do, for the types the kernels may use.
struct OpenCLCOptions {
  /// cl_khr_fp16: f16 values are `half`. Without it f16 is emulated: half
  /// buffers through vload_half/vstore_half_rte, values in floats rounded
  /// to f16 after every op.
  bool fp16 = false;
  /// cl_khr_fp64: f64 arithmetic and f64 buffers.
  bool fp64 = false;
  /// How errors name the device ("opencl:0 (...)").
  std::string device = "the target device";
  /// NVIDIA's PTX (the cooperative-matrix kernels' wmma and cp.async) as
  /// portable OpenCL C of the same meaning: each invocation of a subgroup
  /// holds the whole 16x16 matrix, copies are queued and done when waited
  /// for. Slow; it lets any OpenCL device (PoCL in the tests) run those
  /// kernels. Target extension kEmulateNvPtxFeature.
  bool emulateNvPtx = false;
};

/// The values of the `#gpu.object` property kKernelFormatAttrName
/// (PlaidMLDialect.h) that says what the object holds: OpenCL C text, or a
/// kernel bundle (SPIR-V and OpenCL C of the same kernels,
/// plaidml/Runtime/KernelBundle.h), whose kKernelFormatsAttrName lists the
/// formats it holds (["spirv", "opencl-c"]) and kKernelNoteAttrName says
/// why one is missing ("no SPIR-V: ...").
constexpr llvm::StringLiteral kOpenCLCKernelFormat = "opencl-c";
constexpr llvm::StringLiteral kBundleKernelFormat = "bundle";

/// The extensions an OpenCL C program of translateGpuModuleToOpenCLC
/// enables (`cl_khr_fp64`, `cl_khr_fp16`), sorted: what a device must have
/// to build it.
SmallVector<std::string> getOpenCLCRequirements(StringRef text);

/// Prints every kernel of `module` as one OpenCL C 1.2 program. An op
/// without a translation or a type the device lacks is reported at the op
/// (the user's Tile op), all of them, and the result is then failure (with
/// `os` holding a partial program).
LogicalResult translateGpuModuleToOpenCLC(gpu::GPUModuleOp module,
                                          const OpenCLCOptions &options,
                                          raw_ostream &os);

/// The OpenCL C text of a `#gpu.object` made by
/// plaidml-gpu-module-to-opencl-c (without its terminating NUL) or by
/// plaidml-gpu-module-to-opencl-bundle, or nullopt for another kind of
/// object (or a bundle without OpenCL C).
std::optional<std::string> getOpenCLCSource(gpu::ObjectAttr object);

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_OPENCL_EMITOPENCLC_H
