//===- CpuOutlineNests.cpp - One function per top-level loop nest ---------===//
//
// plaidml-cpu-outline-nests: every top-level loop nest of an entry function
// moves into a private function of its own, called where the nest was. LLVM
// optimizes and selects functions one at a time, and several of its passes
// grow faster than linearly with a function's size; a network as one function
// of hundreds of nests is where its time went. Passes.td has the contract.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUOUTLINENESTSPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {

/// Whether the outlined function can copy the op that defines `value`
/// instead of taking it as an argument: a constant or a global's address
/// (no operands, no regions, no effects).
bool isCopyable(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         def->getNumResults() == 1 && isMemoryEffectFree(def);
}

/// Whether `type` can be an argument of the outlined function: a scalar, or
/// a memref that the bare-pointer calling convention passes as one pointer
/// (static shape, strides and offset).
bool isPassable(Type type) {
  if (type.isIntOrIndexOrFloat())
    return true;
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)))
    return false;
  return ShapedType::isStatic(offset) && llvm::all_of(strides, [](int64_t s) {
           return ShapedType::isStatic(s);
         });
}

struct CpuOutlineNestsPass
    : mlir::plaidml::impl::CpuOutlineNestsPassBase<CpuOutlineNestsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || !func->hasAttr(kEntryAttrName))
        continue;
      SmallVector<Operation *> nests;
      for (Operation &op : func.getBody().front())
        if (isa<LoopLikeOpInterface>(op) && op.getNumResults() == 0)
          nests.push_back(&op);
      Operation *after = func;
      unsigned index = 0;
      for (Operation *nest : nests)
        if (func::FuncOp outlined = outline(nest, func, symbols, after, index))
          after = outlined;
    }
  }

  /// Moves `nest` into a new function after `after`; nothing when a value
  /// it uses can neither be copied nor passed.
  func::FuncOp outline(Operation *nest, func::FuncOp func, SymbolTable &symbols,
                       Operation *after, unsigned &index) {
    // The values from outside, in the order of their first use.
    llvm::SetVector<Value> used;
    nest->walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        Region *region = operand.getParentRegion();
        if (!nest->isAncestor(region->getParentOp()))
          used.insert(operand);
      }
    });
    SmallVector<Value> arguments, copied;
    for (Value value : used) {
      if (isCopyable(value))
        copied.push_back(value);
      else if (isPassable(value.getType()))
        arguments.push_back(value);
      else
        return nullptr;
    }

    OpBuilder builder(&getContext());
    builder.setInsertionPointAfter(after);
    auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), {});
    std::string name =
        (func.getSymName() + "_nest" + std::to_string(index++)).str();
    auto outlined = func::FuncOp::create(builder, nest->getLoc(), name, type);
    // A name taken already gets a suffix.
    symbols.insert(outlined);
    outlined.setPrivate();
    // Internal, so the nests do not become symbols of the shared library;
    // never inlined back, which would undo the split.
    outlined->setAttr("llvm.linkage",
                      LLVM::LinkageAttr::get(&getContext(),
                                             LLVM::linkage::Linkage::Internal));
    outlined->setAttr("passthrough",
                      builder.getArrayAttr(builder.getStringAttr("noinline")));

    Block *body = outlined.addEntryBlock();
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
      mapping.map(value, argument);
    for (Value value : copied)
      builder.clone(*value.getDefiningOp(), mapping);
    builder.clone(*nest, mapping);
    func::ReturnOp::create(builder, nest->getLoc());

    builder.setInsertionPoint(nest);
    func::CallOp::create(builder, nest->getLoc(), outlined, arguments);
    nest->erase();
    return outlined;
  }
};

} // namespace
