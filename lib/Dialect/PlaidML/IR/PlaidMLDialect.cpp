//===- PlaidMLDialect.cpp - The plaidml attribute dialect -----------------===//
//
// The dialect's registration, its attributes' verifiers and helpers, and
// verifyOperationAttribute: each `plaidml.*` attribute is checked for its
// value and for the operation it sits on, and an unknown `plaidml.*` name is
// an error (a misspelled contract would otherwise be ignored by the pass
// that reads it).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::plaidml;

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.cpp.inc"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "plaidml/Dialect/PlaidML/IR/PlaidMLAttrs.cpp.inc"

void PlaidMLDialect::initialize() { registerAttributes(); }

void PlaidMLDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "plaidml/Dialect/PlaidML/IR/PlaidMLAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

/// Checks that `list` (when present) holds names: letters, digits, '_'
/// (SPIR-V and OpenCL names) and '-' (device properties such as
/// `subgroup-size-32`).
static LogicalResult verifyNames(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef what, ArrayAttr list) {
  if (!list)
    return success();
  for (Attribute element : list) {
    auto name = dyn_cast<StringAttr>(element);
    if (!name || name.getValue().empty() ||
        llvm::any_of(name.getValue(), [](char c) {
          return !llvm::isAlnum(c) && c != '_' && c != '-';
        }))
      return emitError() << "'" << what << "' must list capability or "
                         << "extension names, not " << element;
  }
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DeviceKind device, StringRef triple,
                                 StringRef cpu, StringRef features,
                                 ArrayAttr caps, ArrayAttr exts,
                                 int64_t maxWorkgroupSize, StringRef label) {
  if (failed(verifyNames(emitError, "caps", caps)) ||
      failed(verifyNames(emitError, "exts", exts)))
    return failure();
  if (device == DeviceKind::cpu &&
      ((caps && !caps.empty()) || (exts && !exts.empty())))
    return emitError() << "a cpu target has no 'caps' or 'exts'";
  if (device == DeviceKind::opencl && caps && !caps.empty())
    return emitError() << "an opencl target lists device extensions in "
                          "'exts', not 'caps'";
  if (maxWorkgroupSize < 1 || maxWorkgroupSize > 1024)
    return emitError() << "max_workgroup_size must be in [1, 1024], not "
                       << maxWorkgroupSize;
  if (cpu.empty())
    return emitError() << "cpu must be an LLVM CPU name or \"native\"";
  return success();
}

static bool contains(ArrayAttr list, StringRef name) {
  return list && llvm::any_of(list, [&](Attribute element) {
           auto string = dyn_cast<StringAttr>(element);
           return string && string.getValue() == name;
         });
}

bool TargetAttr::hasCapability(StringRef name) const {
  return contains(getCaps(), name);
}

bool TargetAttr::hasExtension(StringRef name) const {
  return contains(getExts(), name);
}

std::string TargetAttr::getDeviceLabel() const {
  return getLabel().empty() ? std::string("the target device")
                            : getLabel().str();
}

TargetAttr mlir::plaidml::getTarget(ModuleOp module) {
  return module->getAttrOfType<TargetAttr>(kTargetAttrName);
}

TargetAttr mlir::plaidml::getTargetOrDefault(Operation *op) {
  for (Operation *current = op; current;
       current = current->getParentOfType<ModuleOp>())
    if (auto module = dyn_cast<ModuleOp>(current))
      if (TargetAttr target = getTarget(module))
        return target;
  MLIRContext *context = op->getContext();
  return TargetAttr::get(context, DeviceKind::cpu, "", "native", "",
                         /*caps=*/nullptr, /*exts=*/nullptr, 256, "");
}

StringRef mlir::plaidml::getDefaultCpu(DeviceKind device, StringRef triple) {
  if (device == DeviceKind::cpu)
    return "native";
  llvm::Triple parsed(triple.empty() ? llvm::sys::getProcessTriple()
                                     : llvm::Triple::normalize(triple));
  if (parsed.getArch() == llvm::Triple::x86_64)
    return "x86-64";
  return "generic";
}

//===----------------------------------------------------------------------===//
// CpuScheduleAttr
//===----------------------------------------------------------------------===//

LogicalResult
CpuScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t lanes, int64_t rows, int64_t vectors,
                        int64_t panelsPerBlock, bool pack, bool unrollInner,
                        int64_t reductionChunk) {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"lanes", lanes},
                             {"rows", rows},
                             {"vectors", vectors},
                             {"panels_per_block", panelsPerBlock}})
    if (value < 1)
      return emitError() << "cpu_schedule '" << name
                         << "' must be at least 1, not " << value;
  if (reductionChunk < 0)
    return emitError() << "cpu_schedule 'reduction_chunk' must be at least "
                          "0, not "
                       << reductionChunk;
  return success();
}

//===----------------------------------------------------------------------===//
// verifyOperationAttribute
//===----------------------------------------------------------------------===//

/// `plaidml.inputs` / `plaidml.outputs`: static tensor types.
static LogicalResult verifyTensorTypes(Operation *op, NamedAttribute attr) {
  auto list = dyn_cast<ArrayAttr>(attr.getValue());
  if (!list)
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' must be an array of tensor types";
  for (Attribute element : list) {
    auto type = dyn_cast<TypeAttr>(element);
    auto tensor =
        type ? dyn_cast<RankedTensorType>(type.getValue()) : RankedTensorType();
    if (!tensor || !tensor.hasStaticShape())
      return op->emitOpError()
             << "'" << attr.getName().getValue()
             << "' must hold static tensor types, not " << element;
  }
  return success();
}

LogicalResult PlaidMLDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError() << "'" << name << "' " << what;
  };

  if (name == kEntryAttrName)
    return expect(isa<UnitAttr>(value) && isa<FunctionOpInterface>(op),
                  "must be a unit attribute on a function");
  if (name == kInputsAttrName || name == kOutputsAttrName) {
    if (failed(expect(isa<FunctionOpInterface>(op), "must be on a function")))
      return failure();
    return verifyTensorTypes(op, attr);
  }
  if (name == kWorkspaceAttrName || name == kPreparedBytesAttrName) {
    auto bytes = dyn_cast<IntegerAttr>(value);
    return expect(isa<FunctionOpInterface>(op) && bytes &&
                      bytes.getType().isInteger(64) && bytes.getInt() > 0,
                  "must be a positive i64 number of bytes on a function");
  }
  if (name == kCpuPreparedAttrName)
    return expect(isa<UnitAttr>(value) && isa<memref::AllocOp>(op),
                  "must be a unit attribute on a memref.alloc");
  if (name == kCpuPrepareAttrName)
    return expect(isa<UnitAttr>(value) && op->getNumResults() == 0,
                  "must be a unit attribute on an op without results");
  if (name == kPrepareFuncAttrName)
    return expect(isa<FlatSymbolRefAttr>(value) && isa<FunctionOpInterface>(op),
                  "must be a function symbol on a function");
  if (name == kPrepareInputsAttrName) {
    auto inputs = dyn_cast<DenseI64ArrayAttr>(value);
    bool ascending =
        inputs && llvm::is_sorted(inputs.asArrayRef()) &&
        llvm::adjacent_find(inputs.asArrayRef()) == inputs.asArrayRef().end() &&
        (inputs.empty() || inputs[0] >= 0);
    return expect(isa<FunctionOpInterface>(op) && ascending,
                  "must be an array<i64: ...> of ascending input positions "
                  "on a function");
  }
  if (name == kTargetAttrName)
    return expect(isa<TargetAttr>(value) && isa<ModuleOp>(op),
                  "must be a #plaidml.target on a module");
  if (name == kRequirementsAttrName) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (failed(expect(list && isa<ModuleOp>(op),
                      "must be an array of names on a module")))
      return failure();
    return verifyNames([&] { return op->emitOpError(); }, kRequirementsAttrName,
                       list);
  }
  if (name == kCpuScheduleAttrName)
    return expect(isa<CpuScheduleAttr>(value) &&
                      isa<affine::AffineParallelOp>(op),
                  "must be a #plaidml.cpu_schedule on an affine.parallel");
  if (name == kGpuWorkgroupSizeAttrName || name == kGpuRegisterTileAttrName) {
    auto parallel = dyn_cast<affine::AffineParallelOp>(op);
    auto sizes = dyn_cast<DenseI64ArrayAttr>(value);
    if (failed(expect(parallel && sizes,
                      "must be an array<i64: ...> on an affine.parallel")))
      return failure();
    if (static_cast<size_t>(sizes.size()) != parallel.getNumDims())
      return op->emitOpError() << "'" << name << "' has " << sizes.size()
                               << " sizes for a loop of "
                               << parallel.getNumDims() << " dimensions";
    return expect(llvm::all_of(sizes.asArrayRef(),
                               [](int64_t size) { return size >= 1; }),
                  "sizes must be at least 1");
  }
  if (name == kGpuStagedTileAttrName || name == kGpuSplitKAttrName ||
      name == kGpuCoopTileAttrName) {
    int64_t count = name == kGpuSplitKAttrName       ? 2
                    : name == kGpuStagedTileAttrName ? 5
                                                     : 6;
    auto sizes = dyn_cast<DenseI64ArrayAttr>(value);
    if (failed(expect(isa<affine::AffineParallelOp>(op) && sizes &&
                          sizes.size() == count,
                      name == kGpuStagedTileAttrName
                          ? "must be an array<i64: TM, TN, TK, RM, RN> on an "
                            "affine.parallel"
                      : count == 6 ? "must be an array<i64: TM, TN, TK, SM, "
                                     "SN, STAGES> on an affine.parallel"
                                   : "must be an array<i64: TN, S> on an "
                                     "affine.parallel")))
      return failure();
    return expect(llvm::all_of(sizes.asArrayRef(),
                               [](int64_t size) { return size >= 1; }),
                  "sizes must be at least 1");
  }
  return op->emitOpError() << "unknown PlaidML attribute '" << name
                           << "' (PlaidMLAttrs.td lists them)";
}
