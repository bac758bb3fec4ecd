//===- EmitEntryPoints.cpp - Entry-point wrappers and manifest ------------===//
//
// plaidml-emit-entry-points: on the LLVM dialect, after func-to-llvm with
// bare pointers, wraps every `plaidml.entry` function in
// `void _plaidml_entry_<name>(void **buffers)` and writes the exported
// `plaidml_manifest` string, the two halves of the artifact contract
// (docs/ABI.md sections 2 and 3), for the CPU code of a CPU artifact and the
// host code of a GPU one alike. The manifest is built from the
// `plaidml.inputs` / `plaidml.outputs` attributes, which keep the tensor
// types' signedness that the signless memrefs lost.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/CpuTarget.h"
#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Version.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_EMITENTRYPOINTSPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

static constexpr llvm::StringLiteral kWrapperPrefix = "_plaidml_entry_";
static constexpr llvm::StringLiteral kPrepareWrapperPrefix =
    "_plaidml_prepare_";
static constexpr llvm::StringLiteral kManifestSymbol = "plaidml_manifest";

/// The manifest spelling of a tensor element type (docs/ABI.md section 3):
/// signless integers are signed, as in the Tile dialect; i1 stays i1.
static FailureOr<std::string> spellElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1)
      return std::string("i1");
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return failure();
    return (intType.isUnsigned() ? "ui" : "si") + std::to_string(width);
  }
  if (type.isF16())
    return std::string("f16");
  if (type.isBF16())
    return std::string("bf16");
  if (type.isF32())
    return std::string("f32");
  if (type.isF64())
    return std::string("f64");
  return failure();
}

/// `2x3xsi32`, or `f32` for a scalar.
static FailureOr<std::string> spellTensorType(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return failure();
  FailureOr<std::string> element =
      spellElementType(tensorType.getElementType());
  if (failed(element))
    return failure();
  std::string result;
  for (int64_t dim : tensorType.getShape())
    result += std::to_string(dim) + "x";
  return result + *element;
}

namespace {
/// What the manifest says about one entry point.
struct EntryPoint {
  std::string name;
  std::string wrapper;
  SmallVector<std::string> inputs;
  SmallVector<std::string> outputs;
  /// Bytes of the workspace the runtime passes after the outputs (and the
  /// prepared buffer); 0: none.
  int64_t workspace = 0;
  /// The preparation's wrapper, the bytes of the prepared buffer it fills
  /// and the inputs it reads; empty / 0: none.
  std::string prepareWrapper;
  int64_t prepared = 0;
  SmallVector<int64_t> prepareInputs;
};

struct EmitEntryPointsPass
    : public mlir::plaidml::impl::EmitEntryPointsPassBase<EmitEntryPointsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Checks `func` against its plaidml.* attributes, reads its signature
  /// into `entry` and emits the wrapper.
  LogicalResult wrap(LLVM::LLVMFuncOp func, SymbolTable &symbols,
                     EntryPoint &entry);
  /// Reads the preparation of `func` (plaidml-cpu-split-prepare's
  /// attributes) into `entry` and emits its wrapper.
  LogicalResult wrapPreparation(LLVM::LLVMFuncOp func, SymbolTable &symbols,
                                EntryPoint &entry);
};

/// Emits `void name(ptr %buffers) { callee(buffers[0], ...,
/// buffers[numBuffers - 1]) }` before `callee`.
void emitWrapper(LLVM::LLVMFuncOp callee, StringRef name, size_t numBuffers,
                 SymbolTable &symbols) {
  OpBuilder builder(callee);
  Location loc = callee.getLoc();
  MLIRContext *ctx = callee.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto wrapper = LLVM::LLVMFuncOp::create(
      builder, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptrType}));
  Block *body = wrapper.addEntryBlock(builder);
  builder.setInsertionPointToStart(body);
  Value buffers = body->getArgument(0);
  SmallVector<Value> args;
  for (size_t i = 0; i < numBuffers; ++i) {
    LLVM::GEPArg index(static_cast<int32_t>(i));
    Value slot = LLVM::GEPOp::create(builder, loc, ptrType, ptrType, buffers,
                                     index, LLVM::GEPNoWrapFlags::inbounds);
    args.push_back(LLVM::LoadOp::create(builder, loc, ptrType, slot));
  }
  LLVM::CallOp::create(builder, loc, callee, args);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  symbols.insert(wrapper);
  // The wrapper is the only way in; let LLVM inline and hide the callee.
  callee.setLinkage(LLVM::Linkage::Internal);
}

/// Whether `type` is `void (ptr x count)`.
bool takesPointers(LLVM::LLVMFunctionType type, size_t count) {
  auto ptrType = LLVM::LLVMPointerType::get(type.getContext());
  return isa<LLVM::LLVMVoidType>(type.getReturnType()) && !type.isVarArg() &&
         type.getNumParams() == count &&
         llvm::all_of(type.getParams(),
                      [&](Type param) { return param == ptrType; });
}
} // namespace

/// Reads one of the plaidml.inputs/outputs attributes of `func`.
static LogicalResult readTypes(LLVM::LLVMFuncOp func, StringRef attrName,
                               SmallVectorImpl<std::string> &spellings) {
  auto array = func->getAttrOfType<ArrayAttr>(attrName);
  if (!array)
    return func.emitError()
           << "entry function @" << func.getSymName() << " has no '" << attrName
           << "' array of tensor types";
  for (Attribute attr : array) {
    auto typeAttr = dyn_cast<TypeAttr>(attr);
    FailureOr<std::string> spelling = failure();
    if (typeAttr)
      spelling = spellTensorType(typeAttr.getValue());
    if (failed(spelling))
      return func.emitError()
             << "entry function @" << func.getSymName() << ": '" << attrName
             << "' holds " << attr
             << ", not a static tensor type of a supported element type";
    spellings.push_back(*spelling);
  }
  return success();
}

LogicalResult EmitEntryPointsPass::wrap(LLVM::LLVMFuncOp func,
                                        SymbolTable &symbols,
                                        EntryPoint &entry) {
  entry.name = func.getSymName().str();
  entry.wrapper = (kWrapperPrefix + entry.name).str();
  // The manifest separates fields by spaces and lines by newlines.
  if (entry.name.empty() || llvm::any_of(entry.name, [](char c) {
        return !llvm::isPrint(c) || c == ' ';
      }))
    return func.emitError() << "entry function name '" << entry.name
                            << "' must be printable and without spaces "
                               "(it is recorded in the manifest)";
  if (failed(readTypes(func, kInputsAttrName, entry.inputs)) ||
      failed(readTypes(func, kOutputsAttrName, entry.outputs)))
    return failure();

  if (Attribute attr = func->getAttr(kWorkspaceAttrName)) {
    auto bytes = dyn_cast<IntegerAttr>(attr);
    if (!bytes || bytes.getValue().getSignificantBits() > 64 ||
        bytes.getInt() <= 0)
      return func.emitError()
             << "entry function @" << entry.name << ": '" << kWorkspaceAttrName
             << "' is " << attr << ", not a positive number of bytes";
    entry.workspace = bytes.getInt();
  }
  if (failed(wrapPreparation(func, symbols, entry)))
    return failure();

  LLVM::LLVMFunctionType type = func.getFunctionType();
  size_t numBuffers = entry.inputs.size() + entry.outputs.size() +
                      (entry.prepared > 0 ? 1 : 0) +
                      (entry.workspace > 0 ? 1 : 0);
  if (func.isExternal() || !takesPointers(type, numBuffers))
    return func.emitError()
           << "entry function @" << entry.name << " must be a definition "
           << "taking one pointer per buffer (" << entry.inputs.size()
           << " inputs, " << entry.outputs.size() << " outputs"
           << (entry.prepared > 0 ? ", the prepared buffer" : "")
           << (entry.workspace > 0 ? ", the workspace" : "")
           << ") and returning nothing; got " << type
           << " (lower it with the bare-pointer calling convention)";
  if (symbols.lookup(entry.wrapper))
    return func.emitError() << "entry function @" << entry.name << ": symbol @"
                            << entry.wrapper << " already exists";

  // void _plaidml_entry_f(ptr %buffers) { f(buffers[0], buffers[1], ...) }
  emitWrapper(func, entry.wrapper, numBuffers, symbols);
  for (StringRef name :
       {kEntryAttrName, kInputsAttrName, kOutputsAttrName, kWorkspaceAttrName,
        kPrepareFuncAttrName, kPreparedBytesAttrName, kPrepareInputsAttrName})
    func->removeAttr(name);
  return success();
}

LogicalResult EmitEntryPointsPass::wrapPreparation(LLVM::LLVMFuncOp func,
                                                   SymbolTable &symbols,
                                                   EntryPoint &entry) {
  Attribute symbol = func->getAttr(kPrepareFuncAttrName);
  Attribute bytes = func->getAttr(kPreparedBytesAttrName);
  Attribute inputs = func->getAttr(kPrepareInputsAttrName);
  if (!symbol && !bytes && !inputs)
    return success();
  auto fail = [&]() {
    return func.emitError()
           << "entry function @" << entry.name << ": a preparation needs '"
           << kPrepareFuncAttrName << "' (a function taking one pointer per "
           << "input and the prepared buffer), '" << kPreparedBytesAttrName
           << "' (a positive number of bytes) and '" << kPrepareInputsAttrName
           << "' (input positions, ascending)";
  };
  auto ref = dyn_cast_or_null<FlatSymbolRefAttr>(symbol);
  auto size = dyn_cast_or_null<IntegerAttr>(bytes);
  auto read = dyn_cast_or_null<DenseI64ArrayAttr>(inputs);
  if (!ref || !size || !read || size.getValue().getSignificantBits() > 64 ||
      size.getInt() <= 0)
    return fail();
  auto prepare = symbols.lookup<LLVM::LLVMFuncOp>(ref.getValue());
  if (!prepare || prepare.isExternal() ||
      !takesPointers(prepare.getFunctionType(), entry.inputs.size() + 1))
    return fail();
  int64_t previous = -1;
  for (int64_t i : read.asArrayRef()) {
    if (i <= previous || i >= static_cast<int64_t>(entry.inputs.size()))
      return fail();
    previous = i;
  }
  entry.prepareWrapper = (kPrepareWrapperPrefix + entry.name).str();
  if (symbols.lookup(entry.prepareWrapper))
    return func.emitError() << "entry function @" << entry.name << ": symbol @"
                            << entry.prepareWrapper << " already exists";
  entry.prepared = size.getInt();
  entry.prepareInputs.assign(read.asArrayRef().begin(),
                             read.asArrayRef().end());
  // void _plaidml_prepare_f(ptr %buffers): inputs, then the prepared buffer.
  emitWrapper(prepare, entry.prepareWrapper, entry.inputs.size() + 1, symbols);
  return success();
}

void EmitEntryPointsPass::runOnOperation() {
  ModuleOp module = getOperation();
  TargetAttr targetAttr = getTargetOrDefault(module);
  // What the kernels need (plaidml-gpu-collect-requirements); the dialect's
  // verifier has checked the names.
  SmallVector<StringRef> requirements;
  if (auto list = module->getAttrOfType<ArrayAttr>(kRequirementsAttrName))
    for (Attribute name : list) {
      auto string = dyn_cast<StringAttr>(name);
      if (!string || string.getValue().empty() ||
          llvm::any_of(string.getValue(), [](char c) {
            return !llvm::isAlnum(c) && c != '_' && c != '-';
          })) {
        module.emitError() << "device requirement " << name
                           << " is not a capability, extension or device "
                              "property name";
        return signalPassFailure();
      }
      requirements.push_back(string.getValue());
    }
  llvm::Expected<CpuTarget> target = resolveCpuTarget(
      targetAttr.getTriple(), targetAttr.getCpu(), targetAttr.getFeatures());
  if (!target) {
    module.emitError() << llvm::toString(target.takeError());
    return signalPassFailure();
  }

  // Entry functions that never reached the LLVM dialect mean the pipeline
  // is out of order; say so rather than emit an artifact without them.
  WalkResult notLowered = module.walk([&](Operation *op) {
    if (!isa<LLVM::LLVMFuncOp>(op) && op->hasAttr(kEntryAttrName)) {
      op->emitError() << "plaidml-emit-entry-points runs on llvm.func; "
                         "lower this entry function to the LLVM dialect "
                         "(convert-func-to-llvm) first";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (notLowered.wasInterrupted())
    return signalPassFailure();

  SymbolTable symbols(module);
  if (symbols.lookup(kManifestSymbol)) {
    module.emitError() << "symbol @" << kManifestSymbol << " already exists";
    return signalPassFailure();
  }
  SmallVector<LLVM::LLVMFuncOp> funcs;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (func->hasAttr(kEntryAttrName))
      funcs.push_back(func);
    // plaidml.param has done its work (the preparation); LLVM IR has no
    // such parameter attribute.
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, kParamAttrName);
  }
  std::vector<EntryPoint> entries(funcs.size());
  for (auto [func, entry] : llvm::zip_equal(funcs, entries))
    if (failed(wrap(func, symbols, entry)))
      return signalPassFailure();

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "plaidml-artifact 1\n"
     << "compiler " << PLAIDML_VERSION_STRING << "\n"
     << "device " << stringifyDeviceKind(targetAttr.getDevice()) << "\n"
     << "triple " << target->triple << "\n"
     << "cpu " << target->cpu << "\n"
     << "features";
  if (!target->manifestFeatures.empty())
    os << " " << target->manifestFeatures;
  os << "\n";
  if (!requirements.empty())
    os << "requires " << llvm::join(requirements, ",") << "\n";
  for (const EntryPoint &entry : entries) {
    os << "entry " << entry.name << " " << entry.wrapper << "\n";
    if (entry.workspace > 0)
      os << "workspace " << entry.workspace << "\n";
    if (entry.prepared > 0)
      os << "prepare " << entry.prepareWrapper << " " << entry.prepared << "\n";
    for (auto [i, input] : llvm::enumerate(entry.inputs))
      os << "input arg" << i << " " << input
         << (llvm::is_contained(entry.prepareInputs, int64_t(i)) ? " param"
                                                                 : "")
         << "\n";
    for (auto [i, output] : llvm::enumerate(entry.outputs))
      os << "output result" << i << " " << output << "\n";
  }
  os << "end\n";
  text.push_back('\0');

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto arrayType =
      LLVM::LLVMArrayType::get(IntegerType::get(&getContext(), 8), text.size());
  LLVM::GlobalOp::create(builder, module.getLoc(), arrayType,
                         /*isConstant=*/true, LLVM::Linkage::External,
                         kManifestSymbol, builder.getStringAttr(text));

  module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                  builder.getStringAttr(target->triple));
}
