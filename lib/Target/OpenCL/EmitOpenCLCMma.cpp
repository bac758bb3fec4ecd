//===- EmitOpenCLCMma.cpp - gpu.subgroup_mma_* as PTX wmma in OpenCL C ----===//
//
// The cooperative-matrix kernels (docs/GpuKernels.md) on NVIDIA's OpenCL,
// which has no matrix extension but takes inline PTX: each 16x16x16
// gpu.subgroup_mma_* op becomes the `wmma` instruction MLIR's NVVM lowering
// makes of it (PTX ISA, "Warp Level Matrix Multiply-Accumulate"), and each
// !gpu.mma_matrix value a struct of the 8 registers every invocation of a
// 32-wide subgroup holds of it. The multi-stage kernels'
// nvgpu.device_async_copy, device_async_create_group and device_async_wait
// become the asynchronous copies `cp.async`, `cp.async.commit_group` and
// `cp.async.wait_group`. Only NVIDIA's OpenCL compiles such a kernel (the
// bundle requires "nv-ptx-wmma", and "nv-ptx-cp-async" for the copies,
// docs/OpenCLRuntime.md).
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::plaidml::openclc;

/// The C struct of a 16x16 fragment: f16 A/B operands as 8 registers of
/// two halves, f32 accumulators as 8 floats.
std::string KernelEmitter::mmaTypeName(gpu::MMAMatrixType type) const {
  // Emulated: every invocation holds the whole matrix, row-major, f16
  // values as floats (exactly).
  if (options.emulateNvPtx)
    return program.use("plaidml_mma_emu",
                       "typedef struct { float r[256]; } plaidml_mma_emu;\n");
  bool acc = type.getOperand() == "COp";
  std::string n = acc ? "plaidml_mma_acc" : "plaidml_mma_ab";
  return program.use(n, std::string("typedef struct { ") +
                            (acc ? "float" : "uint") + " r[8]; } " + n + ";\n");
}

/// Whether `type` is a fragment the wmma translation takes: 16x16, f16
/// A/B operands or f32 accumulators.
static bool isSupportedMma(gpu::MMAMatrixType type) {
  if (type.getShape() != ArrayRef<int64_t>{16, 16})
    return false;
  return type.getOperand() == "COp" ? type.getElementType().isF32()
                                    : type.getElementType().isF16();
}

/// The registers {r[0], ..., r[7]} of fragment `v` as asm operands numbered
/// from `first`: "{%first, ..., %first+7}".
static std::string regList(unsigned first) {
  std::string s = "{";
  for (unsigned i = 0; i < 8; ++i)
    s += (i ? ",%" : "%") + std::to_string(first + i);
  return s + "}";
}

/// asm operand constraints for the 8 registers of fragment `n`.
static std::string regOperands(StringRef constraint, const std::string &n) {
  std::string s;
  for (unsigned i = 0; i < 8; ++i)
    s += (i ? ", \"" : "\"") + constraint.str() + "\"(" + n + ".r[" +
         std::to_string(i) + "])";
  return s;
}

/// Halves per element of an mma memref (f16, f32, vector<4xi32> of 8
/// halves, vector<4xf16>); 0 when the element is none of them.
static int64_t unitsPerElement(Type elem, Type fragmentElem) {
  unsigned bits = fragmentElem.getIntOrFloatBitWidth();
  unsigned elemBits = 0;
  if (auto vector = dyn_cast<VectorType>(elem))
    elemBits = vector.getNumElements() *
               vector.getElementType().getIntOrFloatBitWidth();
  else if (elem.isIntOrFloat())
    elemBits = elem.getIntOrFloatBitWidth();
  return elemBits && elemBits % bits == 0 ? elemBits / bits : 0;
}

/// "row", or "col" for a transposed (column-major) fragment.
static const char *layoutName(std::optional<bool> transpose) {
  return transpose.value_or(false) ? "col" : "row";
}

std::optional<KernelEmitter::MmaAccess>
KernelEmitter::mmaAccess(Operation *op, Value memref, ValueRange indices,
                         gpu::MMAMatrixType fragment, uint64_t leadDimension) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t units =
      unitsPerElement(type.getElementType(), fragment.getElementType());
  if (!isSupportedMma(fragment) || !units)
    return std::nullopt;
  auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
  bool shared = space && space.getInt() == 3;
  MmaAccess access;
  access.space = shared ? "shared" : "global";
  std::string address =
      "&" + name(memref) + "[" + linearIndex(op, memref, indices) + "]";
  // A __local pointer on NVIDIA's OpenCL is the 32-bit address in the
  // shared window that the .shared state space takes.
  access.operand = shared ? "\"r\"((uint)(ulong)(" + address + "))"
                          : "\"l\"(" + address + ")";
  access.stride = leadDimension * units;
  access.address = address;
  access.shared = shared;
  return access;
}

/// The C index of element (i, j) of a 16x16 matrix at stride `stride`,
/// row-major or column-major (`transpose`), i and j named as in C.
static std::string emulatedIndex(std::optional<bool> transpose,
                                 uint64_t stride) {
  return transpose.value_or(false) ? "j * " + std::to_string(stride) + " + i"
                                   : "i * " + std::to_string(stride) + " + j";
}

void KernelEmitter::emitEmulatedLoad(const MmaAccess &access,
                                     gpu::MMAMatrixType type,
                                     std::optional<bool> transpose,
                                     const std::string &result) {
  bool half = type.getElementType().isF16();
  std::string qualifier = access.shared ? "__local" : "__global";
  std::string elem = half ? "half" : "float";
  os << mmaTypeName(type) << " " << result << ";\n{\n";
  os.indent();
  os << qualifier << " const " << elem << " *p = (" << qualifier << " const "
     << elem << " *)(" << access.address << ");\n";
  os << "for (int i = 0; i < 16; ++i)\n";
  os << "  for (int j = 0; j < 16; ++j)\n";
  std::string index = emulatedIndex(transpose, access.stride);
  os << "    " << result << ".r[i * 16 + j] = "
     << (half ? "vload_half(" + index + ", p)" : "p[" + index + "]") << ";\n";
  os.unindent();
  os << "}\n";
}

/// The linear local id: subgroups of 32 invocations are in its order (what
/// NVIDIA's warps are; the kernels that use them require subgroup-size-32).
static const char *kLinearLocalId =
    "(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
    "get_local_size(1) * get_local_id(2)))";

void KernelEmitter::emitAsyncQueue(gpu::GPUFuncOp func) {
  if (!options.emulateNvPtx)
    return;
  int64_t copies = 0;
  func.walk([&](nvgpu::DeviceAsyncCopyOp) { ++copies; });
  asyncQueueSize = copies;
  if (!copies)
    return;
  // The copies not yet done: their addresses and sizes, and the group each
  // joins (the count of groups committed before it). At most as many as the
  // kernel has copy ops (each step waits for the oldest); a full queue is
  // done at once, which asynchronous copies may be.
  std::string n = std::to_string(copies);
  os << "__local uchar *plaidml_q_dst[" << n << "];\n";
  os << "__global const uchar *plaidml_q_src[" << n << "];\n";
  os << "int plaidml_q_bytes[" << n << "], plaidml_q_group[" << n << "];\n";
  os << "int plaidml_q_n = 0, plaidml_q_groups = 0;\n";
}

void KernelEmitter::emitQueuedCopies(const std::string &before) {
  // The queued copies of the groups before `before` are done, in order;
  // the others stay queued.
  std::string helper = program.use(
      "plaidml_q_done",
      "void plaidml_q_done(__local uchar **dst, __global const uchar **src,\n"
      "                    int *bytes, int *group, int *n, int before) {\n"
      "  int kept = 0;\n"
      "  for (int q = 0; q < *n; ++q) {\n"
      "    if (group[q] < before) {\n"
      "      for (int c = 0; c < bytes[q]; ++c)\n"
      "        dst[q][c] = src[q][c];\n"
      "    } else {\n"
      "      dst[kept] = dst[q];\n"
      "      src[kept] = src[q];\n"
      "      bytes[kept] = bytes[q];\n"
      "      group[kept++] = group[q];\n"
      "    }\n"
      "  }\n"
      "  *n = kept;\n"
      "}\n");
  os << helper
     << "(plaidml_q_dst, plaidml_q_src, plaidml_q_bytes, plaidml_q_group, "
        "&plaidml_q_n, "
     << before << ");\n";
}

/// Bytes per element of a buffer of `type` (a scalar or a vector of them);
/// 0 for other elements.
static int64_t elementBytes(MemRefType type) {
  Type elem = type.getElementType();
  int64_t count = 1;
  if (auto vector = dyn_cast<VectorType>(elem)) {
    count = vector.getNumElements();
    elem = vector.getElementType();
  }
  return elem.isIntOrFloat() && elem.getIntOrFloatBitWidth() % 8 == 0
             ? count * elem.getIntOrFloatBitWidth() / 8
             : 0;
}

bool KernelEmitter::emitAsyncCopy(Operation *op) {
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    // Elements of 4, 8 or 16 bytes in all from global to workgroup memory
    // (cp.async; L2 only for 16 bytes, as the PTX ISA allows). Both
    // addresses must be aligned to that size (PTX's rule, the op's
    // contract: the cooperative-matrix kernels copy whole 16-byte chunks
    // into 16-byte aligned rows). The token is no value: groups are the
    // invocation's own.
    auto src = cast<MemRefType>(copy.getSrc().getType());
    auto dst = cast<MemRefType>(copy.getDst().getType());
    auto dstSpace = dyn_cast_or_null<IntegerAttr>(dst.getMemorySpace());
    int64_t bytes =
        !copy.getSrcElements()
            ? copy.getDstElements().getSExtValue() * elementBytes(src)
            : 0;
    if (src.getMemorySpace() || !dstSpace || dstSpace.getInt() != 3 ||
        (bytes != 4 && bytes != 8 && bytes != 16)) {
      error(op, "has no OpenCL C translation: it must copy 4, 8 or 16 bytes "
                "from global to workgroup memory, without srcElements");
      return true;
    }
    std::string to = "&" + name(copy.getDst()) + "[" +
                     linearIndex(op, copy.getDst(), copy.getDstIndices()) + "]";
    std::string from = "&" + name(copy.getSrc()) + "[" +
                       linearIndex(op, copy.getSrc(), copy.getSrcIndices()) +
                       "]";
    if (options.emulateNvPtx) {
      // Queued; a full queue is done first.
      os << "if (plaidml_q_n == " << asyncQueueSize << ")\n  ";
      emitQueuedCopies("plaidml_q_groups + 1");
      os << "plaidml_q_dst[plaidml_q_n] = (__local uchar *)(" << to << ");\n";
      os << "plaidml_q_src[plaidml_q_n] = (__global const uchar *)(" << from
         << ");\n";
      os << "plaidml_q_bytes[plaidml_q_n] = " << bytes << ";\n";
      os << "plaidml_q_group[plaidml_q_n++] = plaidml_q_groups;\n";
      return true;
    }
    os << "asm volatile(\"cp.async." << (bytes == 16 ? "cg" : "ca")
       << ".shared.global [%0], [%1], " << bytes
       << ";\" :: \"r\"((uint)(ulong)(" << to << ")), \"l\"(" << from
       << ") : \"memory\");\n";
    return true;
  }
  if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op)) {
    // The copies this invocation started since the last group.
    if (options.emulateNvPtx) {
      os << "++plaidml_q_groups;\n";
      return true;
    }
    os << "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n";
    return true;
  }
  if (auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op)) {
    // All but the numGroups latest groups complete (none left without it).
    if (options.emulateNvPtx) {
      emitQueuedCopies("plaidml_q_groups - " +
                       std::to_string(wait.getNumGroups().value_or(0)));
      return true;
    }
    os << "asm volatile(\"cp.async.wait_group "
       << wait.getNumGroups().value_or(0) << ";\" ::: \"memory\");\n";
    return true;
  }
  return false;
}

bool KernelEmitter::emitMma(Operation *op) {
  if (auto constant = dyn_cast<gpu::SubgroupMmaConstantMatrixOp>(op)) {
    auto type = constant.getType();
    if (!isSupportedMma(type) || type.getOperand() != "COp") {
      unsupported(op);
      return true;
    }
    std::string n = newName();
    if (options.emulateNvPtx) {
      os << mmaTypeName(type) << " " << n << ";\n";
      os << "for (int i = 0; i < 256; ++i)\n";
      os << "  " << n << ".r[i] = " << name(constant.getValue()) << ";\n";
      names[constant.getResult()] = n;
      return true;
    }
    SmallVector<std::string> lanes(8, name(constant.getValue()));
    os << mmaTypeName(type) << " " << n << " = {{" << llvm::join(lanes, ", ")
       << "}};\n";
    names[constant.getResult()] = n;
    return true;
  }
  if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
    auto type = cast<gpu::MMAMatrixType>(load.getRes().getType());
    std::optional<MmaAccess> access =
        mmaAccess(op, load.getSrcMemref(), load.getIndices(), type,
                  load.getLeadDimension().getZExtValue());
    if (!access) {
      unsupported(op);
      return true;
    }
    StringRef operand = type.getOperand();
    bool acc = operand == "COp";
    std::string n = newName();
    if (options.emulateNvPtx) {
      emitEmulatedLoad(*access, type, load.getTranspose(), n);
      names[load.getRes()] = n;
      return true;
    }
    os << mmaTypeName(type) << " " << n << ";\n";
    os << "asm volatile(\"wmma.load."
       << (operand == "AOp" ? "a"
           : acc            ? "c"
                            : "b")
       << ".sync.aligned." << layoutName(load.getTranspose()) << ".m16n16k16."
       << access->space << "." << (acc ? "f32" : "f16") << " " << regList(0)
       << ", [%8], " << access->stride
       << ";\" : " << regOperands(acc ? "=f" : "=r", n) << " : "
       << access->operand << " : \"memory\");\n";
    names[load.getRes()] = n;
    return true;
  }
  if (auto compute = dyn_cast<gpu::SubgroupMmaComputeOp>(op)) {
    // The layouts are the ones the operands were loaded with.
    auto layoutOf = [&](Value v) -> std::string {
      auto load = v.getDefiningOp<gpu::SubgroupMmaLoadMatrixOp>();
      return load ? layoutName(load.getTranspose()) : "";
    };
    std::string a = compute.getATranspose() ? "" : layoutOf(compute.getOpA());
    std::string b = compute.getBTranspose() ? "" : layoutOf(compute.getOpB());
    auto cType = cast<gpu::MMAMatrixType>(compute.getOpC().getType());
    if (a.empty() || b.empty() || !isSupportedMma(cType) ||
        !isSupportedMma(cast<gpu::MMAMatrixType>(compute.getOpA().getType())) ||
        !isSupportedMma(cast<gpu::MMAMatrixType>(compute.getOpB().getType()))) {
      error(op, "has no OpenCL C translation: its A and B must come straight "
                "from gpu.subgroup_mma_load_matrix (their layouts; no "
                "a_transpose/b_transpose), as 16x16 f16 matrices, with an "
                "f32 accumulator");
      return true;
    }
    std::string n = newName();
    os << mmaTypeName(cType) << " " << n << ";\n";
    if (options.emulateNvPtx) {
      // The products in k order, each exact in f32 (of f16 values).
      os << "for (int i = 0; i < 16; ++i)\n";
      os << "  for (int j = 0; j < 16; ++j) {\n";
      os << "    float s = " << name(compute.getOpC()) << ".r[i * 16 + j];\n";
      os << "    for (int k = 0; k < 16; ++k)\n";
      os << "      s += " << name(compute.getOpA()) << ".r[i * 16 + k] * "
         << name(compute.getOpB()) << ".r[k * 16 + j];\n";
      os << "    " << n << ".r[i * 16 + j] = s;\n";
      os << "  }\n";
      names[compute.getRes()] = n;
      return true;
    }
    os << "asm volatile(\"wmma.mma.sync.aligned." << a << "." << b
       << ".m16n16k16.f32.f32 " << regList(0) << ", " << regList(8) << ", "
       << regList(16) << ", " << regList(24) << ";\" : " << regOperands("=f", n)
       << " : " << regOperands("r", name(compute.getOpA())) << ", "
       << regOperands("r", name(compute.getOpB())) << ", "
       << regOperands("f", name(compute.getOpC())) << ");\n";
    names[compute.getRes()] = n;
    return true;
  }
  if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op)) {
    auto type = cast<gpu::MMAMatrixType>(store.getSrc().getType());
    std::optional<MmaAccess> access =
        mmaAccess(op, store.getDstMemref(), store.getIndices(), type,
                  store.getLeadDimension().getZExtValue());
    if (!access || type.getOperand() != "COp") {
      unsupported(op);
      return true;
    }
    if (options.emulateNvPtx) {
      // Each lane stores 8 of the elements (all of them between the lanes).
      std::string qualifier = access->shared ? "__local" : "__global";
      os << "{\n";
      os.indent();
      os << qualifier << " float *p = (" << qualifier << " float *)("
         << access->address << ");\n";
      os << "int lane = (int)(" << kLinearLocalId << " % 32);\n";
      os << "for (int e = lane * 8; e < lane * 8 + 8; ++e) {\n";
      os << "  int i = e / 16, j = e % 16;\n";
      os << "  p[" << emulatedIndex(store.getTranspose(), access->stride)
         << "] = " << name(store.getSrc()) << ".r[e];\n";
      os << "}\n";
      os.unindent();
      os << "}\n";
      return true;
    }
    os << "asm volatile(\"wmma.store.d.sync.aligned."
       << layoutName(store.getTranspose()) << ".m16n16k16." << access->space
       << ".f32 [%0], " << regList(1) << ", " << access->stride
       << ";\" :: " << access->operand << ", "
       << regOperands("f", name(store.getSrc())) << " : \"memory\");\n";
    return true;
  }
  if (isa<gpu::SubgroupIdOp, gpu::LaneIdOp>(op)) {
    assign(op->getResult(0),
           "(long)(" + std::string(kLinearLocalId) +
               (isa<gpu::SubgroupIdOp>(op) ? " / 32)" : " % 32)"));
    return true;
  }
  return false;
}
