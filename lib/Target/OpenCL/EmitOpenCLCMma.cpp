//===- EmitOpenCLCMma.cpp - gpu.subgroup_mma_* as PTX wmma in OpenCL C ----===//
//
// The cooperative-matrix kernels (docs/GpuKernels.md) on NVIDIA's OpenCL,
// which has no matrix extension but takes inline PTX: each 16x16x16
// gpu.subgroup_mma_* op becomes the `wmma` instruction MLIR's NVVM lowering
// makes of it (PTX ISA, "Warp Level Matrix Multiply-Accumulate"), and each
// !gpu.mma_matrix value a struct of the 8 registers every invocation of a
// 32-wide subgroup holds of it. The two-stage kernels' memref.dma_start
// and memref.dma_wait become the asynchronous copies `cp.async` and
// `cp.async.wait_all`. Only NVIDIA's OpenCL compiles such a kernel (the
// bundle requires "nv-ptx-wmma", and "nv-ptx-cp-async" for the copies,
// docs/OpenCLRuntime.md).
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::plaidml::openclc;

/// The C struct of a 16x16 fragment: f16 A/B operands as 8 registers of
/// two halves, f32 accumulators as 8 floats.
std::string KernelEmitter::mmaTypeName(gpu::MMAMatrixType type) const {
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
  return access;
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

bool KernelEmitter::isDmaTag(Value memref) {
  return !memref.use_empty() &&
         llvm::all_of(memref.getUses(), [](OpOperand &use) {
           if (auto wait = dyn_cast<memref::DmaWaitOp>(use.getOwner()))
             return use.get() == wait.getTagMemRef();
           auto start = dyn_cast<memref::DmaStartOp>(use.getOwner());
           return start && use.get() == start.getTagMemRef() &&
                  use.get() != start.getSrcMemRef() &&
                  use.get() != start.getDstMemRef();
         });
}

bool KernelEmitter::emitAsyncCopy(Operation *op) {
  if (auto start = dyn_cast<memref::DmaStartOp>(op)) {
    // One element of 4, 8 or 16 bytes (a scalar or a vector: aligned to
    // its size, as cp.async needs) from global to workgroup memory
    // (cp.async; L2 only for 16 bytes, as the PTX ISA allows).
    auto src = cast<MemRefType>(start.getSrcMemRef().getType());
    auto dst = cast<MemRefType>(start.getDstMemRef().getType());
    auto dstSpace = dyn_cast_or_null<IntegerAttr>(dst.getMemorySpace());
    std::optional<int64_t> count = getConstantIntValue(start.getNumElements());
    int64_t bytes = count && *count == 1 ? elementBytes(src) : 0;
    if (start.isStrided() || src.getMemorySpace() || !dstSpace ||
        dstSpace.getInt() != 3 ||
        src.getElementType() != dst.getElementType() ||
        (bytes != 4 && bytes != 8 && bytes != 16)) {
      error(op, "has no OpenCL C translation: it must copy one element of "
                "4, 8 or 16 bytes from global to workgroup memory of the "
                "same element type, unstrided");
      return true;
    }
    std::string to =
        "&" + name(start.getDstMemRef()) + "[" +
        linearIndex(op, start.getDstMemRef(), start.getDstIndices()) + "]";
    std::string from =
        "&" + name(start.getSrcMemRef()) + "[" +
        linearIndex(op, start.getSrcMemRef(), start.getSrcIndices()) + "]";
    os << "asm volatile(\"cp.async." << (bytes == 16 ? "cg" : "ca")
       << ".shared.global [%0], [%1], " << bytes
       << ";\" :: \"r\"((uint)(ulong)(" << to << ")), \"l\"(" << from
       << ") : \"memory\");\n";
    return true;
  }
  if (isa<memref::DmaWaitOp>(op)) {
    // Every copy this invocation started (all of them share one tag).
    os << "asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n";
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
    os << "asm volatile(\"wmma.store.d.sync.aligned."
       << layoutName(store.getTranspose()) << ".m16n16k16." << access->space
       << ".f32 [%0], " << regList(1) << ", " << access->stride
       << ";\" :: " << access->operand << ", "
       << regOperands("f", name(store.getSrc())) << " : \"memory\");\n";
    return true;
  }
  if (isa<gpu::SubgroupIdOp, gpu::LaneIdOp>(op)) {
    // Subgroups of 32 invocations in the order of the linear local id (what
    // NVIDIA's warps are; the kernels that use them require
    // subgroup-size-32).
    std::string linear = "(get_local_id(0) + get_local_size(0) * "
                         "(get_local_id(1) + get_local_size(1) * "
                         "get_local_id(2)))";
    assign(op->getResult(0),
           "(long)(" + linear +
               (isa<gpu::SubgroupIdOp>(op) ? " / 32)" : " % 32)"));
    return true;
  }
  return false;
}
