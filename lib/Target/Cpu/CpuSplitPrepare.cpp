//===- CpuSplitPrepare.cpp - Parameters' packing moved to a preparation ---===//
//
// plaidml-cpu-split-prepare: the ops plaidml-cpu-tile-contractions marked
// `plaidml.cpu.prepare` (copies of parameters into packed buffers marked
// `plaidml.cpu.prepared`) move from each entry function into a preparation
// function that fills one prepared buffer; the entry takes that buffer as a
// new last argument and reads views of it. Passes.td has the contract.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "MemRefSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUSPLITPREPAREPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct CpuSplitPreparePass
    : mlir::plaidml::impl::CpuSplitPreparePassBase<CpuSplitPreparePass> {
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      if (failed(split(func, symbols)))
        return signalPassFailure();
  }

  LogicalResult split(func::FuncOp func, SymbolTable &symbols);
};

LogicalResult CpuSplitPreparePass::split(func::FuncOp func,
                                         SymbolTable &symbols) {
  if (func.isExternal())
    return success();
  Block &block = func.getBody().front();
  SmallVector<memref::AllocOp> buffers;
  SmallVector<Operation *> prepare;
  for (Operation &op : block) {
    if (op.hasAttr(kCpuPrepareAttrName))
      prepare.push_back(&op);
    else if (auto alloc = dyn_cast<memref::AllocOp>(op);
             alloc && alloc->hasAttr(kCpuPreparedAttrName))
      buffers.push_back(alloc);
  }
  // Marks nested deeper than the top of the function cannot be moved.
  WalkResult nested = func.walk([&](Operation *op) {
    if (op->getBlock() != &block && (op->hasAttr(kCpuPrepareAttrName) ||
                                     op->hasAttr(kCpuPreparedAttrName))) {
      op->emitError() << "plaidml-cpu-split-prepare: a '"
                      << (op->hasAttr(kCpuPrepareAttrName)
                              ? kCpuPrepareAttrName
                              : kCpuPreparedAttrName)
                      << "' op must be at the top level of its function";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return failure();
  if (prepare.empty() && buffers.empty())
    return success();
  if (!func->hasAttr(kEntryAttrName))
    return func.emitError()
           << "plaidml-cpu-split-prepare: @" << func.getSymName()
           << " has prepared data but is not an entry "
              "function ('"
           << kEntryAttrName << "')";
  auto inputTypes = func->getAttrOfType<ArrayAttr>(kInputsAttrName);
  if (!inputTypes || inputTypes.size() > func.getNumArguments())
    return func.emitError()
           << "plaidml-cpu-split-prepare: entry function @" << func.getSymName()
           << " has no valid '" << kInputsAttrName << "'";
  unsigned numInputs = inputTypes.size();
  if (func->hasAttr(kWorkspaceAttrName))
    return func.emitError()
           << "plaidml-cpu-split-prepare: entry function @" << func.getSymName()
           << " already has a workspace (run plaidml-cpu-plan-workspace "
              "after this pass)";

  // What the preparation may read: parameters and prepared buffers.
  DenseSet<Value> prepared;
  for (memref::AllocOp alloc : buffers)
    prepared.insert(alloc.getResult());
  SmallVector<int64_t> readInputs;
  for (Operation *op : prepare) {
    WalkResult bad =
        op->walk([&](Operation *inner) {
          for (Value operand : inner->getOperands()) {
            if (Operation *def = operand.getDefiningOp();
                def && op->isAncestor(def))
              continue;
            if (auto arg = dyn_cast<BlockArgument>(operand)) {
              if (op->isAncestor(arg.getOwner()->getParentOp()))
                continue;
              if (arg.getOwner() == &block && arg.getArgNumber() < numInputs &&
                  func.getArgAttr(arg.getArgNumber(), kParamAttrName)) {
                if (!llvm::is_contained(readInputs, arg.getArgNumber()))
                  readInputs.push_back(arg.getArgNumber());
                continue;
              }
            }
            if (prepared.contains(operand))
              continue;
            inner->emitError()
                << "plaidml-cpu-split-prepare: this '" << kCpuPrepareAttrName
                << "' op reads a value that is neither a parameter (an input "
                   "marked '"
                << kParamAttrName << "') nor a prepared buffer";
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
    if (bad.wasInterrupted())
      return failure();
  }
  llvm::sort(readInputs);

  // Offsets in the prepared buffer.
  SmallVector<int64_t> offsets;
  int64_t total = 0;
  for (memref::AllocOp alloc : buffers) {
    std::optional<int64_t> bytes = cpu::getByteSize(alloc.getType());
    if (!bytes || !alloc.getDynamicSizes().empty() ||
        !alloc.getSymbolOperands().empty())
      return alloc.emitError() << "plaidml-cpu-split-prepare: a prepared "
                                  "buffer must have a static shape and "
                                  "an identity layout, not "
                               << alloc.getType();
    offsets.push_back(total);
    if (__builtin_add_overflow(
            total, llvm::alignTo(*bytes, cpu::kBufferAlignment), &total))
      return func.emitError()
             << "plaidml-cpu-split-prepare: the prepared "
                "data of @"
             << func.getSymName() << " needs more than 2^63 bytes";
  }
  total = std::max<int64_t>(total, cpu::kBufferAlignment);
  MLIRContext *ctx = &getContext();
  auto bufferType = MemRefType::get({total}, IntegerType::get(ctx, 8));

  // The preparation: (inputs..., prepared buffer).
  SmallVector<Type> prepareTypes(func.getArgumentTypes().take_front(numInputs));
  prepareTypes.push_back(bufferType);
  OpBuilder b(func);
  auto prepareFunc = func::FuncOp::create(
      b, func.getLoc(), (func.getSymName() + "_prepare").str(),
      FunctionType::get(ctx, prepareTypes, {}));
  prepareFunc.setPrivate();
  symbols.insert(prepareFunc); // renames it if the name is taken
  Block *body = prepareFunc.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(block.getArgument(i), body->getArgument(i));
  auto makeView = [&](OpBuilder &builder, memref::AllocOp alloc, int64_t offset,
                      Value buffer) {
    Value at = arith::ConstantIndexOp::create(builder, alloc.getLoc(), offset);
    return memref::ViewOp::create(builder, alloc.getLoc(), alloc.getType(),
                                  buffer, at, ValueRange{});
  };
  for (auto [alloc, offset] : llvm::zip_equal(buffers, offsets))
    mapping.map(alloc.getResult(),
                makeView(b, alloc, offset, body->getArgument(numInputs)));
  for (Operation *op : prepare) {
    Operation *clone = b.clone(*op, mapping);
    clone->removeAttr(kCpuPrepareAttrName);
  }
  func::ReturnOp::create(b, func.getLoc());

  // The entry: the prepared buffer as a new last argument, views of it.
  unsigned position = func.getNumArguments();
  if (failed(func.insertArgument(position, bufferType, DictionaryAttr(),
                                 func.getLoc())))
    return func.emitError() << "plaidml-cpu-split-prepare: cannot add the "
                               "prepared buffer to @"
                            << func.getSymName();
  BlockArgument buffer = func.getArgument(position);
  for (Operation *op : prepare)
    op->erase();
  for (auto [alloc, offset] : llvm::zip_equal(buffers, offsets)) {
    OpBuilder here(alloc);
    Value view = makeView(here, alloc, offset, buffer);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(view);
    alloc.erase();
  }
  func->setAttr(kPrepareFuncAttrName,
                FlatSymbolRefAttr::get(prepareFunc.getSymNameAttr()));
  func->setAttr(kPreparedBytesAttrName,
                IntegerAttr::get(IntegerType::get(ctx, 64), total));
  func->setAttr(kPrepareInputsAttrName,
                DenseI64ArrayAttr::get(ctx, readInputs));
  return success();
}
} // namespace
