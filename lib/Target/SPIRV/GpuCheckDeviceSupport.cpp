//===- GpuCheckDeviceSupport.cpp - Kernel types the device can run --------===//
//
// plaidml-gpu-check-device-support: before the SPIR-V conversions, finds the
// kernel ops whose types the gpu.module's SPIR-V target cannot run (f64
// without Float64, f16 buffers without 16-bit storage, bf16, ...) and reports
// each at the op, with the missing capability and the device, where the
// conversion would say "failed to legalize operation 'gpu.func'" or, for
// float buffers it cannot hold, silently read them as f32 elements.
//
// The decisions follow MLIR's SPIRVTypeConverter with the options of
// convert-gpu-to-spirv: the converter itself says what a type or buffer
// becomes, and this pass knows which of its 32-bit emulations the op
// patterns then cannot handle (checked against the pipeline, see
// test/Target/SPIRV/gpu-check-device-support.mlir).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <tuple>

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUCHECKDEVICESUPPORTPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

/// The SPIR-V target of a gpu.module, where convert-gpu-to-spirv finds it:
/// the first #spirv.target_env of its targets, else the spirv.target_env
/// attribute on it or an ancestor, else MLIR's default (Vulkan, Shader).
static spirv::TargetEnvAttr lookupTarget(gpu::GPUModuleOp module) {
  if (ArrayAttr targets = module.getTargetsAttr())
    for (Attribute target : targets)
      if (auto env = dyn_cast<spirv::TargetEnvAttr>(target))
        return env;
  return spirv::lookupTargetEnvOrDefault(module);
}

/// Float types without a SPIR-V scalar type here (bf16, the f8 types): the
/// converter stands other words in for them (f32 for bf16, so a bf16 buffer
/// is read as f32 elements), and no capability makes them convert.
static bool isUnsupportedFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && !floatType.isF16() && !floatType.isF32() &&
         !floatType.isF64();
}

/// Ops whose SPIR-V patterns fail on i8/i16/f16 values that the converter
/// emulates in 32 bits: convert-math-to-spirv is a conversion of its own and
/// leaves casts back to the narrow type behind, and the unsigned integer
/// patterns refuse to run on sign-extended emulations.
static bool needsNativeType(Operation *op) {
  if (isa<math::MathDialect>(op->getDialect()))
    return true;
  if (isa<arith::DivUIOp, arith::RemUIOp>(op))
    return true;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::ult:
    case arith::CmpIPredicate::ule:
    case arith::CmpIPredicate::ugt:
    case arith::CmpIPredicate::uge:
      return true;
    default:
      return false;
    }
  }
  return false;
}

/// Why a math op has no SPIR-V form for f64, or "" if it has one: the
/// GLSL.std.450 instructions for exp, log, sin, pow, ... take 16- and 32-bit
/// floats only, and erf/erfc (no instruction) are approximated for f16 and
/// f32 only.
static StringRef whyNoF64Form(Operation *op) {
  if (isa<math::ErfOp, math::ErfcOp>(op))
    return "it is approximated for f16 and f32 only";
  if (isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
          math::Log10Op, math::Log1pOp, math::PowFOp, math::SinOp, math::CosOp,
          math::TanOp, math::AsinOp, math::AcosOp, math::AtanOp, math::SinhOp,
          math::CoshOp, math::TanhOp, math::AsinhOp, math::AcoshOp,
          math::AtanhOp>(op))
    return "GLSL.std.450 has it for 16- and 32-bit floats only";
  return "";
}

/// The element type a converted buffer holds: the pointee's array element
/// (the pointee is a struct around it for Vulkan).
static Type getStoredType(spirv::PointerType pointer) {
  Type type = pointer.getPointeeType();
  if (auto structType = dyn_cast<spirv::StructType>(type))
    type = structType.getElementType(0);
  if (auto array = dyn_cast<spirv::ArrayType>(type))
    return array.getElementType();
  if (auto array = dyn_cast<spirv::RuntimeArrayType>(type))
    return array.getElementType();
  return type;
}

/// Where to report `op`: its own location, or, for ops the canonicalizer
/// left without one (folded constants), that of a user or an ancestor (the
/// kernel is where its launch was).
static Location getReportLocation(Operation *op) {
  if (!isa<UnknownLoc>(op->getLoc()))
    return op->getLoc();
  for (Operation *user : op->getUsers())
    if (!isa<UnknownLoc>(user->getLoc()))
      return user->getLoc();
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (!isa<UnknownLoc>(parent->getLoc()))
      return parent->getLoc();
  return op->getLoc();
}

namespace {

/// How an op uses the type it is reported for.
enum class Use { Compute, Read, Write, Argument };

/// Checks the kernels of one gpu.module against its target and reports what
/// the device lacks.
class DeviceSupportChecker {
public:
  DeviceSupportChecker(spirv::TargetEnvAttr target, StringRef device)
      : env(target), converter(target), device(device) {}

  void checkOp(Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      checkAccess(op, load.getMemRefType(), Use::Read);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      checkAccess(op, store.getMemRefType(), Use::Write);
    for (Type type : op->getOperandTypes())
      checkValue(op, type);
    for (Type type : op->getResultTypes())
      checkValue(op, type);
  }

  /// A kernel argument the conversion cannot type fails the whole gpu.func;
  /// reported there only when no op already reported its element type.
  void checkArguments(gpu::GPUFuncOp func) {
    for (Type type : func.getArgumentTypes()) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || reportedTypes.contains(memref.getElementType()))
        continue;
      checkAccess(func, memref, Use::Argument);
    }
  }

  /// Emits the recorded problems in IR order, one per source location, type
  /// and requirement and one per op name, type and requirement. A Tile op
  /// becomes many kernel ops with its location: its loads, stores and
  /// arithmetic speak for it before the constants sunk into the kernel and
  /// the loops and branches that carry its values.
  /// Returns failure if there was any.
  LogicalResult emitErrors() {
    using Key = std::tuple<const void *, const void *, std::string>;
    std::set<Key> seenLocs, seenOps;
    SmallVector<size_t> chosen;
    for (bool constants : {false, true}) {
      for (auto [index, problem] : llvm::enumerate(problems)) {
        if (speaksLast(problem.op) != constants)
          continue;
        Location loc = getReportLocation(problem.op);
        const void *type = problem.type.getAsOpaquePointer();
        std::string what = problem.needs + problem.why.str();
        bool newLoc =
            seenLocs.insert({loc.getAsOpaquePointer(), type, what}).second;
        bool newOp = seenOps
                         .insert({problem.op->getName().getAsOpaquePointer(),
                                  type, what})
                         .second;
        if (newLoc && newOp)
          chosen.push_back(index);
      }
    }
    llvm::sort(chosen);
    for (size_t index : chosen)
      emit(problems[index]);
    return success(problems.empty());
  }

private:
  /// Constants and control flow (loops carrying a reduction, their yields)
  /// are reported only where no arithmetic or buffer access was.
  static bool speaksLast(Operation *op) {
    return op->hasTrait<OpTrait::ConstantLike>() || op->getNumRegions() > 0 ||
           op->hasTrait<OpTrait::IsTerminator>();
  }

  struct Problem {
    Operation *op;
    Use use;
    Type type;
    std::string needs;
    StringRef why;
  };

  /// A value of `type` computed on by `op`.
  void checkValue(Operation *op, Type type) {
    if (!isa<IntegerType, FloatType, VectorType>(type))
      return;
    if (isUnsupportedFloat(type))
      return report(op, Use::Compute, type, "");
    if (getElementTypeOrSelf(type).isF64())
      if (StringRef why = whyNoF64Form(op); !why.empty())
        return report(op, Use::Compute, type, "", why);
    Type converted = converter.convertType(type);
    if (converted == type)
      return;
    if (!converted || needsNativeType(op))
      report(op, Use::Compute, type, describeMissing(type, std::nullopt));
  }

  /// A buffer of `type` that `op` reads, writes or (a kernel) takes.
  void checkAccess(Operation *op, MemRefType type, Use use) {
    Type element = type.getElementType();
    if (isUnsupportedFloat(element))
      return report(op, use, element, "");
    if (!element.isIntOrFloat())
      return;
    std::optional<spirv::StorageClass> storage = getStorageClass(type);
    if (!storage)
      return;
    auto mapped = MemRefType::get(
        type.getShape(), element, type.getLayout(),
        spirv::StorageClassAttr::get(type.getContext(), *storage));
    auto pointer = converter.convertType<spirv::PointerType>(mapped);
    if (!pointer)
      return report(op, use, element, describeMissing(element, storage));
    if (use == Use::Argument)
      return;
    // Bools are bytes in buffers (boolNumBits = 8).
    Type value =
        element.isInteger(1) ? IntegerType::get(type.getContext(), 8) : element;
    Type stored = getStoredType(pointer);
    if (stored == value) {
      // Held natively: the load or store moves a value of the narrow type,
      // which must then exist in the kernel too.
      if (converter.convertType(value) != value)
        report(op, use, element, describeMissing(value, std::nullopt));
      return;
    }
    // Emulated: integers are packed into i32 words with shifts and masks,
    // but a float buffer would become f32 words indexed as elements.
    if (isa<FloatType>(element))
      report(op, use, element, describeMissing(element, storage));
  }

  /// The storage class convert-gpu-to-spirv gives a memref's memory space.
  std::optional<spirv::StorageClass> getStorageClass(MemRefType type) const {
    Attribute space = type.getMemorySpace();
    if (auto storage = dyn_cast_if_present<spirv::StorageClassAttr>(space))
      return storage.getValue();
    if (env.allows(spirv::Capability::Kernel))
      return spirv::mapMemorySpaceToOpenCLStorageClass(space);
    return spirv::mapMemorySpaceToVulkanStorageClass(space);
  }

  /// "the SPIR-V capability X (extension E)": what a scalar (or vector) of
  /// `type` needs in `storage`, or to compute on, that the target lacks.
  /// Empty when SPIR-V has no such scalar type.
  std::string describeMissing(Type type,
                              std::optional<spirv::StorageClass> storage) {
    auto scalar = dyn_cast<spirv::ScalarType>(getElementTypeOrSelf(type));
    if (!scalar)
      return "";
    SmallVector<ArrayRef<spirv::Capability>, 2> capabilities;
    SmallVector<ArrayRef<spirv::Extension>, 1> extensions;
    scalar.getCapabilities(capabilities, storage);
    scalar.getExtensions(extensions, storage);
    SmallVector<std::string> caps, exts;
    for (ArrayRef<spirv::Capability> anyOf : capabilities)
      if (!env.allows(anyOf))
        caps.push_back(llvm::join(
            llvm::map_range(anyOf, spirv::stringifyCapability), " or "));
    for (ArrayRef<spirv::Extension> anyOf : extensions)
      if (!env.allows(anyOf))
        exts.push_back(llvm::join(
            llvm::map_range(anyOf, spirv::stringifyExtension), " or "));
    std::string text;
    if (!caps.empty())
      text = (caps.size() == 1 ? "the SPIR-V capability "
                               : "the SPIR-V capabilities ") +
             llvm::join(caps, " and ");
    if (!exts.empty()) {
      std::string names = (exts.size() == 1 ? "extension " : "extensions ") +
                          llvm::join(exts, " and ");
      text = text.empty() ? "the SPIR-V " + names : text + " (" + names + ")";
    }
    return text;
  }

  /// Records a problem: what the device lacks (`needs`), or, if empty, why
  /// no device has it.
  void report(Operation *op, Use use, Type type, std::string needs,
              StringRef why = "") {
    reportedTypes.insert(getElementTypeOrSelf(type));
    problems.push_back({op, use, type, std::move(needs), why});
  }

  void emit(const Problem &problem) {
    // Types unquoted, as the user wrote them in the Tile program.
    std::string type;
    llvm::raw_string_ostream(type) << problem.type;
    InFlightDiagnostic diag = emitError(getReportLocation(problem.op))
                              << "'" << problem.op->getName().getStringRef()
                              << "' ";
    StringRef asBytes = problem.type.isInteger(1) ? " (stored as i8)" : "";
    switch (problem.use) {
    case Use::Compute:
      diag << "computes on " << type;
      break;
    case Use::Read:
      diag << "reads " << type << " from a buffer" << asBytes;
      break;
    case Use::Write:
      diag << "writes " << type << " to a buffer" << asBytes;
      break;
    case Use::Argument:
      diag << "takes a buffer of " << type << asBytes;
      break;
    }
    if (!problem.needs.empty())
      diag << ", which needs " << problem.needs << "; " << device
           << " does not have it";
    else if (problem.why.empty())
      diag << ", which the SPIR-V conversion does not support on any device";
    else
      diag << ", which the SPIR-V conversion does not support on any device ("
           << problem.why << ")";
  }

  spirv::TargetEnv env;
  SPIRVTypeConverter converter;
  StringRef device;
  DenseSet<Type> reportedTypes;
  SmallVector<Problem> problems;
};

struct GpuCheckDeviceSupportPass
    : public plaidml::impl::GpuCheckDeviceSupportPassBase<
          GpuCheckDeviceSupportPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    std::string label = getTargetOrDefault(module).getDeviceLabel();
    DeviceSupportChecker checker(lookupTarget(module), label);
    SmallVector<gpu::GPUFuncOp> funcs;
    module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == module.getOperation())
        return;
      if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
        funcs.push_back(func);
      else
        checker.checkOp(op);
    });
    for (gpu::GPUFuncOp func : funcs)
      checker.checkArguments(func);
    if (failed(checker.emitErrors()))
      signalPassFailure();
  }
};

} // namespace
