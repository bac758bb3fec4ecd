//===- Pipelines.h - PlaidML target pipelines -------------------*- C++ -*-===//
//
// The pass pipelines that take Tile-dialect programs to a target, with typed
// options, as C++ functions other compilers can call (docs/Design.md section
// 4). The textual registrations (-plaidml-cpu-pipeline, ...) are for tests and
// plaidml-opt. docs/CpuPipeline.md, VulkanPipeline.md and OpenCLPipeline.md
// describe the stages and pass order of each target.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_PIPELINES_PIPELINES_H
#define PLAIDML_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::plaidml {

/// The spine every target shares (docs/Design.md section 2):
/// tile-compute-bounds on every function, then convert-tile-to-affine, from
/// Tile-dialect functions to the ABI form of docs/ABI.md section 1. Add it to a
/// pass manager on `builtin.module`. `cpu`: convert-tile-to-affine's
/// border-fill and split-guards options (the CPU's choices; GPUs fill whole
/// buffers and keep one kernel per contraction).
void buildTileToAffinePipeline(OpPassManager &pm, bool cpu = true);

/// The tail every pipeline that ends in the LLVM dialect shares (the CPU
/// code, the host code of a GPU artifact), once memrefs are lowered:
/// convert-arith-to-llvm, convert-cf-to-llvm and convert-func-to-llvm with
/// the bare-pointer calling convention of docs/ABI.md section 1.
void buildScalarsAndFunctionsToLLVM(OpPassManager &pm);

/// Options of the CPU pipelines. "native" and empty strings stand for the
/// host; plaidml-emit-entry-points and the compiler resolve them (see
/// CpuTarget.h). Every target pipeline starts with plaidml-attach-target,
/// which records its target options as the module's `plaidml.target`; the
/// passes read that, not options of their own.
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("LLVM CPU name (e.g. skylake-avx512), or 'native' for "
                     "the host CPU"),
      llvm::cl::init("native")};
  PassOptions::Option<std::string> triple{
      *this, "triple", llvm::cl::desc("Target triple (empty: the host's)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Subtarget features '+a,-b' (empty: the host's for "
                     "cpu=native, the CPU's own otherwise)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level 0-3 of the generated code "
                     "(used by the compiler driver after the pipeline)"),
      llvm::cl::init(3)};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads the generated code runs on: 1 is sequential "
                     "code, more runs the large outermost parallel loops "
                     "as OpenMP worksharing loops (the artifact needs "
                     "libomp.so.5)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> cacheBlockBytes{
      *this, "cache-block-bytes",
      llvm::cl::desc("Bytes of packed operand data one cache block of the "
                     "generated code holds (plaidml-cpu-configure's "
                     "block-bytes; the compiler driver passes half the "
                     "host's L2 for cpu=native)"),
      llvm::cl::init(256 * 1024)};
};

/// Checks option values the option parser cannot (opt-level 0-3, threads
/// >= 1). Returns a message naming the bad option, or an empty string.
std::string validateCpuPipelineOptions(const CpuPipelineOptions &options);

/// From ABI-form functions (docs/ABI.md section 1: affine/scf/arith/math/
/// memref on signless identity-layout memrefs, `plaidml.entry` attributes)
/// to the LLVM dialect with entry-point wrappers and the manifest. Add it to
/// a pass manager on `builtin.module`.
void buildCpuLoweringPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options);

/// From Tile-dialect functions to the LLVM dialect: buildTileToAffinePipeline,
/// then buildCpuLoweringPipeline. Add it to a pass
/// manager on `builtin.module`.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Registers -plaidml-cpu-pipeline and -plaidml-cpu-lowering-pipeline.
void registerCpuPipelines();

/// The GPU mapping every GPU target shares (docs/VulkanPipeline.md steps
/// 2-7): plaidml-fuse-elementwise, plaidml-gpu-configure (register tiles
/// and workgroups, with the max_workgroup_size of the module's
/// plaidml.target), plaidml-gpu-register-tile, cse,
/// plaidml-gpu-tile-workgroups, lower-affine, plaidml-gpu-map-loops,
/// convert-parallel-loops-to-gpu, canonicalize,
/// gpu-launch-sink-index-computations and gpu-kernel-outlining. From ABI-form
/// functions to host functions that `gpu.launch_func` one `gpu.module` per
/// outermost loop nest, kernels taking only memrefs. Add it to a pass manager
/// on `builtin.module`.
void buildGpuMappingPipeline(OpPassManager &pm);

/// The host half every GPU target shares, once its kernels are `gpu.binary`
/// ops: device buffers (plaidml-gpu-host-buffers), i1 buffers passed as
/// bytes, one stream (gpu-async-region), and the host code to the LLVM
/// dialect with the launch ABI of docs/ABI.md section 6 (gpu-to-llvm with
/// bare pointers and interspersed sizes), then the artifact's entry points
/// and manifest (plaidml-emit-entry-points, with the module's
/// plaidml.requirements). Add it to a pass manager on `builtin.module`.
void buildGpuHostToLLVMPipeline(OpPassManager &pm);

/// The options every GPU pipeline has (Vulkan's and OpenCL's add what their
/// kernels may use): the workgroup budget, how diagnostics name the device,
/// and the CPU target of the host code. They become the module's
/// plaidml.target (plaidml-attach-target).
template <typename Derived>
struct GpuPipelineOptions : public PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<int64_t> maxWorkgroupSize{
      *this, "max-workgroup-size",
      llvm::cl::desc("Most invocations (work items) per workgroup chosen by "
                     "plaidml-gpu-configure, 1-1024"),
      llvm::cl::init(256)};
  mlir::detail::PassOptions::Option<std::string> label{
      *this, "label",
      llvm::cl::desc("The device in errors about types it cannot run "
                     "(e.g. 'vulkan:0 (llvmpipe)')"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<std::string> triple{
      *this, "triple",
      llvm::cl::desc("Target triple of the host code (empty: the host's)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("LLVM CPU name of the host code (empty: the portable "
                     "baseline, x86-64 on x86-64, so the artifact runs on "
                     "other machines; 'native': this one)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Subtarget features of the host code '+a,-b' (empty: "
                     "the CPU's own)"),
      llvm::cl::init("")};
};

/// "max-workgroup-size must be in [1, 1024], not N", or "" when it is.
std::string validateMaxWorkgroupSize(int64_t size);

/// Options of the Vulkan pipelines (docs/VulkanPipeline.md).
struct VulkanPipelineOptions
    : public GpuPipelineOptions<VulkanPipelineOptions> {
  PassOptions::Option<std::string> spirvVersion{
      *this, "spirv-version",
      llvm::cl::desc("SPIR-V version of the kernels, v1.0-v1.6 (Vulkan 1.1 "
                     "accepts up to v1.3)"),
      llvm::cl::init("v1.3")};
  PassOptions::ListOption<std::string> caps{
      *this, "caps",
      llvm::cl::desc("SPIR-V capabilities the device has (Shader is always "
                     "added)")};
  PassOptions::ListOption<std::string> exts{
      *this, "exts",
      llvm::cl::desc("SPIR-V extensions the device has "
                     "(SPV_KHR_storage_buffer_storage_class is always "
                     "added)")};
  PassOptions::Option<bool> hostToLLVM{
      *this, "host-to-llvm",
      llvm::cl::desc("Serialize the kernels (gpu-module-to-binary) and lower "
                     "the host code to the LLVM dialect"),
      llvm::cl::init(false)};
};

/// Checks option values the option parser cannot. Returns a message naming
/// the bad option, or an empty string.
std::string validateVulkanPipelineOptions(const VulkanPipelineOptions &options);

/// From ABI-form functions (docs/ABI.md section 1) to host functions that
/// `gpu.launch_func` kernels of `gpu.module`s, each holding its SPIR-V
/// `spirv.module` (and, with host-to-llvm, to a `gpu.binary` and LLVM-dialect
/// host code). Add it to a pass manager on `builtin.module`.
void buildVulkanLoweringPipeline(OpPassManager &pm,
                                 const VulkanPipelineOptions &options);

/// From Tile-dialect functions: buildTileToAffinePipeline, then
/// buildVulkanLoweringPipeline. Add it to a pass manager on `builtin.module`.
void buildVulkanPipeline(OpPassManager &pm,
                         const VulkanPipelineOptions &options);

/// Registers -plaidml-vulkan-pipeline and -plaidml-vulkan-lowering-pipeline.
void registerVulkanPipelines();

/// What the OpenCL pipelines make of each kernel (docs/OpenCLPipeline.md).
enum class OpenCLKernelFormat {
  /// OpenCL C 1.2 source text, built by the driver (every OpenCL device).
  OpenCLC,
  /// SPIR-V for the OpenCL environment (Kernel capability, Physical64),
  /// for devices whose CL_DEVICE_IL_VERSION lists SPIR-V.
  SPIRV,
  /// Both, in one kernel bundle per module (docs/ABI.md section 6): the
  /// runtime builds SPIR-V where the device takes it, else OpenCL C. A
  /// module one format cannot express carries the other alone.
  Both,
};

/// Options of the OpenCL pipelines (docs/OpenCLPipeline.md).
struct OpenCLPipelineOptions
    : public GpuPipelineOptions<OpenCLPipelineOptions> {
  PassOptions::Option<OpenCLKernelFormat> kernelFormat{
      *this, "kernel-format", llvm::cl::desc("What the kernels become"),
      llvm::cl::init(OpenCLKernelFormat::OpenCLC),
      llvm::cl::values(
          clEnumValN(OpenCLKernelFormat::OpenCLC, "opencl-c",
                     "OpenCL C 1.2 source text"),
          clEnumValN(OpenCLKernelFormat::SPIRV, "spirv",
                     "SPIR-V for the OpenCL environment"),
          clEnumValN(OpenCLKernelFormat::Both, "both",
                     "SPIR-V and OpenCL C in one kernel bundle per module "
                     "(what plaidml-compile emits)"))};
  PassOptions::Option<bool> fp64{
      *this, "fp64",
      llvm::cl::desc("The device has double precision (cl_khr_fp64)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fp16{
      *this, "fp16",
      llvm::cl::desc("The device has half precision arithmetic "
                     "(cl_khr_fp16)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> ptxWmma{
      *this, "ptx-wmma",
      llvm::cl::desc("The device is NVIDIA's OpenCL on compute capability "
                     "7.0 or later (nv-ptx-wmma): f16 products summed in f32 "
                     "become cooperative-matrix kernels, in OpenCL C as "
                     "inline PTX wmma"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> ptxCpAsync{
      *this, "ptx-cp-async",
      llvm::cl::desc("With ptx-wmma: the device has compute capability 8.0 "
                     "or later (nv-ptx-cp-async): the cooperative-matrix "
                     "kernels stage their factors with asynchronous PTX "
                     "copies (cp.async) into two workgroup buffers"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateNvPtx{
      *this, "emulate-nv-ptx",
      llvm::cl::desc("With ptx-wmma (and ptx-cp-async): the OpenCL C prints "
                     "their PTX as portable code of the same meaning, so "
                     "that any OpenCL device runs the cooperative-matrix "
                     "kernels (slowly; for tests)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> hostToLLVM{
      *this, "host-to-llvm",
      llvm::cl::desc("Kernels into gpu.binary ops (spirv: "
                     "gpu-module-to-binary) and the host code to the LLVM "
                     "dialect"),
      llvm::cl::init(false)};
};

/// Checks option values the option parser cannot. Returns a message naming
/// the bad option, or an empty string.
std::string validateOpenCLPipelineOptions(const OpenCLPipelineOptions &options);

/// From ABI-form functions (docs/ABI.md section 1) to host functions that
/// `gpu.launch_func` kernels. With kernel-format=opencl-c every kernel
/// module becomes a `gpu.binary` holding OpenCL C text; with spirv each
/// `gpu.module` holds its `spirv.module` (serialized with host-to-llvm);
/// with both, a `gpu.binary` holding a kernel bundle of the two.
/// With host-to-llvm, the host code reaches the LLVM dialect as Vulkan's
/// does. Add it to a pass manager on `builtin.module`.
void buildOpenCLLoweringPipeline(OpPassManager &pm,
                                 const OpenCLPipelineOptions &options);

/// From Tile-dialect functions: buildTileToAffinePipeline, then
/// buildOpenCLLoweringPipeline. Add it to a pass manager on `builtin.module`.
void buildOpenCLPipeline(OpPassManager &pm,
                         const OpenCLPipelineOptions &options);

/// Registers -plaidml-opencl-pipeline and -plaidml-opencl-lowering-pipeline.
void registerOpenCLPipelines();

} // namespace mlir::plaidml

#endif // PLAIDML_PIPELINES_PIPELINES_H
