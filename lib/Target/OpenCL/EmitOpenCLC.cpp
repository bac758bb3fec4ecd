//===- EmitOpenCLC.cpp - Outlined GPU kernels as OpenCL C 1.2 -------------===//
//
// translateGpuModuleToOpenCLC: prints the gpu.funcs of a gpu.module as one
// OpenCL C 1.2 program. Every op result becomes a C variable (`uint v3 =
// v1 + v2;`), constants become literals at their uses, scf loops and ifs
// become C loops and ifs with their carried values in variables declared
// before them. Signless integers are held in unsigned C types, whose
// arithmetic wraps as arith's does (signed overflow would be undefined in
// C), and each op that cares converts to the signed type it names
// (arith.divsi, cmpi slt, shrsi, sitofp). Whatever has no translation is an
// error at the op, never a guess. docs/OpenCLPipeline.md lists the subset.
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

#include "plaidml/Runtime/KernelBundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::openclc;

namespace mlir::plaidml::openclc {

void KernelEmitter::error(Operation *op, const Twine &message) {
  hadError = true;
  std::string text =
      ("'" + op->getName().getStringRef() + "' " + message).str();
  std::string key;
  llvm::raw_string_ostream keyOs(key);
  keyOs << op->getLoc() << text;
  if (reported.insert(key).second)
    op->emitError(text);
}

bool KernelEmitter::checkType(Operation *op, Type type, StringRef what,
                              StringRef where) {
  auto missing = [&](StringRef ext, StringRef option) {
    error(op, what + " " + typeString(type) + where +
                  ", which needs the OpenCL extension " + ext + " (option " +
                  option + "); " + options.device + " does not have it");
    return false;
  };
  if (type.isIndex())
    return true;
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    if (isSupportedIntWidth(intTy.getWidth()))
      return true;
  } else if (type.isF32()) {
    return true;
  } else if (type.isF16()) {
    // Without cl_khr_fp16: held in floats, stored with vstore_half_rte.
    if (options.fp16)
      program.needsFp16 = true;
    return true;
  } else if (type.isF64()) {
    if (!options.fp64)
      return missing("cl_khr_fp64", "fp64");
    program.needsFp64 = true;
    return true;
  }
  error(op, what + " " + typeString(type) + where +
                ", which OpenCL C does not support on any device");
  return false;
}

bool KernelEmitter::checkOpTypes(Operation *op) {
  bool ok = true;
  // Vectors of workgroup memory (float4): their element type decides.
  auto scalar = [](Type t) {
    auto vector = dyn_cast<VectorType>(t);
    return vector ? vector.getElementType() : t;
  };
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return checkType(op, scalar(load.getType()), "reads", " from a buffer");
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return checkType(op, scalar(store.getValueToStore().getType()), "writes",
                     " to a buffer");
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return checkType(op, alloca.getType().getElementType(), "holds",
                     " in private memory");
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    Type elem = alloc.getType().getElementType();
    if (auto vector = dyn_cast<VectorType>(elem))
      elem = vector.getElementType();
    return checkType(op, elem, "holds", " in local memory");
  }
  // Loops and branches only carry values that the ops computing them, which
  // speak for the Tile op, are checked for.
  if (op->getNumRegions() > 0 || op->hasTrait<OpTrait::IsTerminator>())
    return true;
  for (Type t : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                   llvm::to_vector(op->getResultTypes()))) {
    // The asynchronous copies' tokens are no values.
    if (isa<MemRefType, gpu::MMAMatrixType, nvgpu::DeviceAsyncTokenType>(t))
      continue;
    // 2- and 4-lane float vectors (float2, float4) of 32-bit floats; f16
    // chunks (their bits, ushort4) only built from their elements.
    if (auto vector = dyn_cast<VectorType>(t)) {
      bool halfChunk =
          isa<vector::FromElementsOp>(op) && vector.getElementType().isF16();
      if (vector.getRank() != 1 ||
          !(vector.getElementType().isF32() || halfChunk) ||
          (vector.getNumElements() != 2 && vector.getNumElements() != 4)) {
        unsupported(op);
        return false;
      }
      continue;
    }
    if (!t.isIntOrIndexOrFloat()) {
      unsupported(op);
      return false;
    }
    ok &= checkType(op, t, "computes on");
  }
  return ok;
}

void KernelEmitter::assign(Value result, const std::string &expr) {
  std::string n = newName();
  os << typeName(result.getType()) << " " << n << " = " << expr << ";\n";
  names[result] = n;
}

void KernelEmitter::assignComputed(Operation *op, const std::string &expr) {
  Value result = op->getResult(0);
  // These give an f16 value from f16 operands without rounding.
  bool exact =
      isa<arith::SelectOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp, arith::RemFOp, math::AbsFOp,
          math::CopySignOp, math::CeilOp, math::FloorOp, math::TruncOp,
          math::RoundOp, math::RoundEvenOp>(op);
  if (isEmulatedHalf(result.getType()) && !exact)
    assign(result, roundHalf(expr));
  else
    assign(result, expr);
}

std::string KernelEmitter::asUnsigned(Value v) {
  Type t = v.getType();
  if (t.isIndex())
    return "(ulong)" + name(v);
  unsigned w = getIntWidth(t);
  if (w < 32)
    return "(uint)" + name(v);
  return name(v);
}

std::string KernelEmitter::asSigned(Value v) {
  Type t = v.getType();
  if (t.isIndex())
    return name(v);
  switch (getIntWidth(t)) {
  case 1:
    return "(-(int)" + name(v) + ")";
  case 8:
    return "(int)(char)" + name(v);
  case 16:
    return "(int)(short)" + name(v);
  case 32:
    return "(int)" + name(v);
  default:
    return "(long)" + name(v);
  }
}

std::string KernelEmitter::narrow(const std::string &expr, Type type) {
  if (type.isIndex())
    return "(long)(" + expr + ")";
  if (type.isInteger(1))
    return "((" + expr + ") & 1) != 0";
  return "(" + getValueTypeName(type) + ")(" + expr + ")";
}

std::string KernelEmitter::linearIndex(Operation *op, Value memref,
                                       ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    error(op, "accesses a buffer with a dynamic or non-strided layout, "
              "which has no OpenCL C translation yet");
    return "0";
  }
  // Constant indices fold into the offset.
  std::string expr;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    if (std::optional<int64_t> c = getConstantIntValue(index)) {
      offset += *c * stride;
      continue;
    }
    if (stride == 0)
      continue;
    if (!expr.empty())
      expr += " + ";
    expr += name(index);
    if (stride != 1)
      expr += " * " + std::to_string(stride);
  }
  if (offset != 0 || expr.empty())
    expr += expr.empty() ? std::to_string(offset)
                         : (offset < 0 ? " - " + std::to_string(-offset)
                                       : " + " + std::to_string(offset));
  return expr;
}

SmallVector<std::string> KernelEmitter::declare(ValueRange values,
                                                ValueRange inits) {
  SmallVector<std::string> declared;
  for (auto [i, v] : llvm::enumerate(values)) {
    std::string n = newName();
    os << typeName(v.getType()) << " " << n;
    if (i < inits.size())
      os << " = " << name(inits[i]);
    os << ";\n";
    declared.push_back(n);
  }
  return declared;
}

void KernelEmitter::assignAll(ArrayRef<std::string> targets,
                              ValueRange values) {
  if (targets.size() == 1) {
    if (targets[0] != name(values[0]))
      os << targets[0] << " = " << name(values[0]) << ";\n";
    return;
  }
  SmallVector<std::string> temps;
  for (Value v : values) {
    temps.push_back(newName());
    os << typeName(v.getType()) << " " << temps.back() << " = " << name(v)
       << ";\n";
  }
  for (auto [target, temp] : llvm::zip(targets, temps))
    os << target << " = " << temp << ";\n";
}

void KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    emitOp(&op);
}

void KernelEmitter::emitFor(scf::ForOp op) {
  if (!op.getInductionVar().getType().isIndex() || op.getUnsignedCmp()) {
    error(op, "over " + typeString(op.getInductionVar().getType()) +
                  (op.getUnsignedCmp() ? " (unsigned)" : "") +
                  " has no OpenCL C translation yet");
    return;
  }
  SmallVector<std::string> carried =
      declare(op.getRegionIterArgs(), op.getInitArgs());
  for (auto [arg, result, n] :
       llvm::zip(op.getRegionIterArgs(), op.getResults(), carried)) {
    names[arg] = n;
    names[result] = n;
  }
  std::string iv = newName();
  names[op.getInductionVar()] = iv;
  os << "for (long " << iv << " = " << name(op.getLowerBound()) << "; " << iv
     << " < " << name(op.getUpperBound()) << "; " << iv
     << " += " << name(op.getStep()) << ") {\n";
  os.indent();
  emitBlock(*op.getBody());
  assignAll(carried, op.getBody()->getTerminator()->getOperands());
  os.unindent();
  os << "}\n";
}

void KernelEmitter::emitIf(scf::IfOp op) {
  SmallVector<std::string> results = declare(op.getResults());
  for (auto [result, n] : llvm::zip(op.getResults(), results))
    names[result] = n;
  auto emitBranch = [&](Region &region) {
    os.indent();
    emitBlock(region.front());
    for (auto [target, v] :
         llvm::zip(results, region.front().getTerminator()->getOperands()))
      os << target << " = " << name(v) << ";\n";
    os.unindent();
  };
  os << "if (" << name(op.getCondition()) << ") {\n";
  emitBranch(op.getThenRegion());
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    emitBranch(op.getElseRegion());
  }
  os << "}\n";
}

void KernelEmitter::emitWhile(scf::WhileOp op) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  SmallVector<std::string> carried =
      declare(before.getArguments(), op.getInits());
  for (auto [arg, n] : llvm::zip(before.getArguments(), carried))
    names[arg] = n;
  // The results are what scf.condition forwards; the after region sees the
  // same values.
  SmallVector<std::string> results = declare(op.getResults());
  for (auto [result, arg, n] :
       llvm::zip(op.getResults(), after.getArguments(), results)) {
    names[result] = n;
    names[arg] = n;
  }
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  os << "for (;;) {\n";
  os.indent();
  emitBlock(before);
  for (auto [target, v] : llvm::zip(results, condition.getArgs()))
    os << target << " = " << name(v) << ";\n";
  os << "if (!" << name(condition.getCondition()) << ")\n";
  os << "  break;\n";
  emitBlock(after);
  assignAll(carried, after.getTerminator()->getOperands());
  os.unindent();
  os << "}\n";
}

void KernelEmitter::declareArray(StringRef qualifier, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  std::string n = newName();
  // f16 arrays hold floats without cl_khr_fp16 (no half variables), as the
  // values do; vectors are float4.
  Type elem = type.getElementType();
  os << qualifier
     << (isEmulatedHalf(elem) || isa<VectorType>(elem)
             ? typeName(elem)
             : getBufferElementTypeName(elem))
     << " " << n << "[" << std::max<int64_t>(type.getNumElements(), 1) << "]";
  // wmma loads and stores take 256-bit aligned addresses, 16-byte cp.async
  // 128-bit aligned ones (the kernels' offsets keep that alignment).
  if (llvm::any_of(memref.getUsers(), [&](Operation *user) {
        auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user);
        return isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(
                   user) ||
               (copy && copy.getDst() == memref);
      }))
    os << " __attribute__((aligned(32)))";
  os << ";\n";
  names[memref] = n;
  privateBuffers.insert(memref);
}

void KernelEmitter::emitOp(Operation *op) {
  // Constants are literals; the ops that use them report their types (a
  // constant's location is often lost to folding).
  if (!isa<arith::ConstantOp, ub::PoisonOp>(op) && !checkOpTypes(op))
    return;
  Dialect *dialect = op->getDialect();
  StringRef ns = dialect ? dialect->getNamespace() : "";

  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Attribute value = constant.getValue();
    if (auto f = dyn_cast<FloatAttr>(value))
      names[constant] = getFloatLiteral(f.getValue(), f.getType(),
                                        isEmulatedHalf(f.getType()));
    else if (auto i = dyn_cast<IntegerAttr>(value))
      names[constant] = getIntLiteral(i.getValue(), i.getType());
    else
      unsupported(op);
    return;
  }
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    Type t = poison.getType();
    if (isa<FloatType>(t))
      names[poison] = getFloatLiteral(
          APFloat::getZero(cast<FloatType>(t).getFloatSemantics()), t,
          isEmulatedHalf(t));
    else if (t.isIntOrIndex())
      names[poison] = getIntLiteral(APInt(getIntWidth(t), 0), t);
    else
      unsupported(op);
    return;
  }
  if (ns == "arith") {
    emitArith(op);
    return;
  }
  if (ns == "math") {
    emitMath(op);
    return;
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    std::string index = linearIndex(op, load.getMemRef(), load.getIndices());
    // An f16 buffer without cl_khr_fp16: vload_half gives the float.
    if (isEmulatedHalf(load.getType()) &&
        !privateBuffers.contains(load.getMemRef())) {
      assign(load, "vload_half(" + index + ", " + name(load.getMemRef()) + ")");
      return;
    }
    std::string elem = name(load.getMemRef()) + "[" + index + "]";
    assign(load, load.getType().isInteger(1) ? elem + " != 0" : elem);
    return;
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    std::string index = linearIndex(op, store.getMemRef(), store.getIndices());
    // The value is already an f16 held in a float: the rounding is exact.
    if (isEmulatedHalf(store.getValueToStore().getType()) &&
        !privateBuffers.contains(store.getMemRef())) {
      os << "vstore_half_rte(" << name(store.getValueToStore()) << ", " << index
         << ", " << name(store.getMemRef()) << ");\n";
      return;
    }
    os << name(store.getMemRef()) << "[" << index
       << "] = " << name(store.getValueToStore()) << ";\n";
    return;
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
    MemRefType type = alloca.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace()) {
      unsupported(op);
      return;
    }
    declareArray("", alloca);
    return;
  }
  // Workgroup memory (memory space 3, what the staged kernels of
  // docs/GpuKernels.md allocate at the top of the kernel): a __local array
  // at kernel function scope, as OpenCL C requires.
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    MemRefType type = alloc.getType();
    auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() || !space ||
        space.getInt() != 3 || !isa<gpu::GPUFuncOp>(op->getParentOp())) {
      unsupported(op);
      return;
    }
    declareArray("__local ", alloc);
    return;
  }
  if (auto build = dyn_cast<vector::FromElementsOp>(op)) {
    SmallVector<std::string> lanes;
    bool half = build.getType().getElementType().isF16();
    for (Value v : build.getElements())
      lanes.push_back(!half ? name(v)
                      : isEmulatedHalf(v.getType())
                          ? getHalfBitsHelper(program, /*toBits=*/true) + "(" +
                                name(v) + ")"
                          : "as_ushort(" + name(v) + ")");
    assign(build.getResult(), "(" + typeName(build.getType()) + ")(" +
                                  llvm::join(lanes, ", ") + ")");
    return;
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    ArrayRef<int64_t> position = extract.getStaticPosition();
    if (!extract.getDynamicPosition().empty() || position.size() != 1 ||
        position[0] < 0 || position[0] > 15) {
      unsupported(op);
      return;
    }
    assign(extract.getResult(),
           name(extract.getSource()) + ".s" +
               std::string(1, "0123456789abcdef"[position[0]]));
    return;
  }
  if (emitMma(op) || emitAsyncCopy(op))
    return;
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    emitFor(forOp);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    emitIf(ifOp);
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    emitWhile(whileOp);
    return;
  }
  auto dim = [](gpu::Dimension d) {
    return std::to_string(static_cast<unsigned>(d));
  };
  std::string builtin =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<gpu::ThreadIdOp>([&](auto o) {
            return "get_local_id(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::BlockIdOp>([&](auto o) {
            return "get_group_id(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::BlockDimOp>([&](auto o) {
            return "get_local_size(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::GridDimOp>([&](auto o) {
            return "get_num_groups(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::GlobalIdOp>([&](auto o) {
            return "get_global_id(" + dim(o.getDimension()) + ")";
          })
          .Default([&](Operation *) { return std::string(); });
  if (!builtin.empty()) {
    assign(op->getResult(0), "(long)" + builtin);
    return;
  }
  if (isa<gpu::BarrierOp>(op)) {
    os << "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
    return;
  }
  if (isa<gpu::ReturnOp>(op)) {
    os << "return;\n";
    return;
  }
  unsupported(op);
}

/// A C identifier (the name the host looks the kernel up by, unchanged).
bool isValidKernelName(StringRef name) {
  if (name.empty() || (!llvm::isAlpha(name[0]) && name[0] != '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult KernelEmitter::emitKernel(gpu::GPUFuncOp func) {
  if (!func.isKernel()) {
    func.emitError("only kernels have an OpenCL C translation; '")
        << func.getName() << "' is not one";
    return failure();
  }
  if (!isValidKernelName(func.getName()))
    return func.emitError("kernel name '")
           << func.getName() << "' is not an OpenCL C identifier";
  if (!func.getBody().hasOneBlock())
    return func.emitError("kernel '")
           << func.getName()
           << "' has several blocks; only structured control flow (scf) has "
              "an OpenCL C translation";
  if (!func.getWorkgroupAttributions().empty() ||
      !func.getPrivateAttributions().empty())
    return func.emitError("kernel '")
           << func.getName()
           << "' has workgroup or private attributions, which have no "
              "OpenCL C translation yet";

  // Buffers written by the kernel; the others are `const`.
  llvm::SmallPtrSet<Value, 8> written;
  func.walk([&](Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op))
      written.insert(store.getMemRef());
    else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
      written.insert(store.getDstMemref());
  });

  SmallVector<std::string> params;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || type.getMemorySpace()) {
      func.emitError("kernel argument ")
          << i << " of '" << func.getName() << "' is " << arg.getType()
          << ", not a statically shaped buffer in the default memory "
             "space; kernels take only buffers (docs/ABI.md section 6)";
      return failure();
    }
    std::string n = "arg" + std::to_string(i);
    names[arg] = n;
    params.push_back("__global " +
                     std::string(written.contains(arg) ? "" : "const ") +
                     (isa<VectorType>(type.getElementType())
                          ? typeName(type.getElementType())
                          : getBufferElementTypeName(type.getElementType())) +
                     " *" + n);
  }

  os << "__kernel ";
  std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
  if (block && block->size() == 3)
    os << "__attribute__((reqd_work_group_size(" << (*block)[0] << ", "
       << (*block)[1] << ", " << (*block)[2] << ")))\n";
  // One line when it fits in 80 columns, else one parameter per line.
  std::string signature = "void " + func.getName().str() + "(";
  std::string joined = llvm::join(params, ", ");
  if (signature.size() + joined.size() + 3 <= 80)
    os << signature << joined << ") {\n";
  else
    os << signature << "\n    " << llvm::join(params, ",\n    ") << ") {\n";
  os.indent();
  emitAsyncQueue(func);
  Block &body = func.getBody().front();
  emitBlock(body);
  // The final gpu.return is the end of the function.
  os.unindent();
  os << "}\n";
  return failure(hadError);
}

} // namespace mlir::plaidml::openclc

LogicalResult mlir::plaidml::translateGpuModuleToOpenCLC(
    gpu::GPUModuleOp module, const OpenCLCOptions &options, raw_ostream &os) {
  Program program;
  std::string kernels;
  llvm::raw_string_ostream kernelStream(kernels);
  raw_indented_ostream indented(kernelStream);
  bool failed = false;
  for (Operation &op : module.getBody()->getOperations()) {
    auto func = dyn_cast<gpu::GPUFuncOp>(op);
    if (!func) {
      op.emitError("'") << op.getName()
                        << "' in a gpu.module has no OpenCL C translation";
      failed = true;
      continue;
    }
    KernelEmitter emitter(options, program, indented);
    if (!kernels.empty())
      indented << "\n";
    failed |= mlir::failed(emitter.emitKernel(func));
  }

  os << "// OpenCL C 1.2 of gpu.module @" << module.getName()
     << ", generated by PlaidML.\n";
  // arith ops round every operation; no contractions into fma.
  os << "#pragma OPENCL FP_CONTRACT OFF\n";
  if (program.needsFp64)
    os << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (program.needsFp16)
    os << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  os << "\n";
  for (const std::string &definition : program.helpers)
    os << definition << "\n";
  os << kernels;
  return failure(failed);
}

SmallVector<std::string> mlir::plaidml::getOpenCLCRequirements(StringRef text) {
  SmallVector<std::string> extensions;
  for (StringRef extension : {"cl_khr_fp16", "cl_khr_fp64"})
    if (text.contains(
            ("#pragma OPENCL EXTENSION " + extension + " : enable").str()))
      extensions.push_back(extension.str());
  // The cooperative-matrix kernels' inline PTX (EmitOpenCLCMma.cpp).
  if (text.contains("wmma.mma.sync"))
    extensions.push_back("nv-ptx-wmma");
  if (text.contains("cp.async"))
    extensions.push_back("nv-ptx-cp-async");
  return extensions;
}

std::optional<std::string>
mlir::plaidml::getOpenCLCSource(gpu::ObjectAttr object) {
  DictionaryAttr properties = object.getProperties();
  auto format = properties ? properties.getAs<StringAttr>(kKernelFormatAttrName)
                           : StringAttr();
  if (!format)
    return std::nullopt;
  StringRef bytes = object.getObject().getValue();
  if (format.getValue() == kBundleKernelFormat) {
    ::plaidml::rt::StatusOr<::plaidml::rt::KernelBundle> bundle =
        ::plaidml::rt::decodeKernelModule(bytes.data(), bytes.size());
    if (!bundle.ok() || !bundle->openclC)
      return std::nullopt;
    return *bundle->openclC;
  }
  if (format.getValue() != kOpenCLCKernelFormat)
    return std::nullopt;
  if (bytes.ends_with(StringRef("\0", 1)))
    bytes = bytes.drop_back();
  return bytes.str();
}
