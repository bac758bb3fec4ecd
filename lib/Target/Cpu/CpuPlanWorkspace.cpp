//===- CpuPlanWorkspace.cpp - Temporaries in one checked buffer -----------===//
//
// plaidml-cpu-plan-workspace: the top-level temporaries of an entry
// function become views of one workspace buffer, a new last argument that
// the runtime allocates (and whose failure it reports) before the call.
// Temporaries whose lifetimes do not overlap share bytes (first fit in
// allocation order). Passes.td has the contract.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "MemRefSize.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUPLANWORKSPACEPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
using mlir::plaidml::cpu::getByteSize;

namespace {

/// One temporary: its allocation, its size in bytes, the positions (in the
/// function's top-level block) of its allocation and of its last use, and
/// the offset chosen for it.
struct Temporary {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  size_t first = 0, last = 0;
  int64_t offset = 0;
};

/// The position in `block` of the last op that uses `value` or a view of
/// it, other than a deallocation.
size_t getLastUse(Value value, Block &block,
                  const DenseMap<Operation *, size_t> &positions) {
  size_t last = 0;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<memref::DeallocOp>(user))
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          llvm::append_range(worklist, user->getResults());
      Operation *top = block.findAncestorOpInBlock(*user);
      if (top)
        last = std::max(last, positions.lookup(top));
    }
  }
  return last;
}

struct CpuPlanWorkspacePass
    : mlir::plaidml::impl::CpuPlanWorkspacePassBase<CpuPlanWorkspacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func->hasAttr(kEntryAttrName))
      return;
    if (func->hasAttr(kWorkspaceAttrName)) {
      func.emitError() << "entry function @" << func.getSymName()
                       << " already has a workspace";
      return signalPassFailure();
    }
    Block &block = func.getBody().front();
    DenseMap<Operation *, size_t> positions;
    for (auto [i, op] : llvm::enumerate(block))
      positions[&op] = i;

    SmallVector<Temporary> temporaries;
    for (auto alloc : block.getOps<memref::AllocOp>()) {
      std::optional<int64_t> bytes = getByteSize(alloc.getType());
      if (!bytes || !alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty())
        continue;
      Temporary t;
      t.alloc = alloc;
      t.bytes = *bytes;
      t.first = positions.lookup(alloc);
      t.last = std::max(t.first, getLastUse(alloc, block, positions));
      temporaries.push_back(t);
    }
    if (temporaries.empty())
      return;

    // First fit: the lowest aligned offset where the temporary overlaps no
    // placed one that is alive at the same time.
    int64_t total = 0;
    for (auto [i, t] : llvm::enumerate(temporaries)) {
      SmallVector<std::pair<int64_t, int64_t>> busy;
      for (const Temporary &other : ArrayRef(temporaries).take_front(i))
        if (other.first <= t.last && t.first <= other.last)
          busy.push_back({other.offset, other.offset + other.bytes});
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [begin, end] : busy) {
        if (offset + t.bytes <= begin)
          break;
        offset = std::max<int64_t>(offset,
                                   llvm::alignTo(end, cpu::kBufferAlignment));
      }
      t.offset = offset;
      int64_t end;
      if (__builtin_add_overflow(offset, t.bytes, &end)) {
        func.emitError() << "the temporaries of entry function @"
                         << func.getSymName() << " need more than 2^63 bytes";
        return signalPassFailure();
      }
      total = std::max(total, end);
    }
    total = std::max<int64_t>(llvm::alignTo(total, cpu::kBufferAlignment),
                              cpu::kBufferAlignment);

    // The workspace argument, last; every temporary a view of it.
    auto workspaceType =
        MemRefType::get({total}, IntegerType::get(&getContext(), 8));
    // insertArgument keeps the arguments' attributes (plaidml.param) in
    // step with the arguments.
    unsigned position = func.getNumArguments();
    if (failed(func.insertArgument(position, workspaceType, DictionaryAttr(),
                                   func.getLoc()))) {
      func.emitError() << "cannot add the workspace to @" << func.getSymName();
      return signalPassFailure();
    }
    BlockArgument workspace = func.getArgument(position);
    func->setAttr(kWorkspaceAttrName,
                  IntegerAttr::get(IntegerType::get(&getContext(), 64), total));
    for (Temporary &t : temporaries) {
      OpBuilder b(t.alloc);
      Location loc = t.alloc.getLoc();
      Value offset = arith::ConstantIndexOp::create(b, loc, t.offset);
      Value view = memref::ViewOp::create(b, loc, t.alloc.getType(), workspace,
                                          offset, ValueRange{});
      for (Operation *user : llvm::make_early_inc_range(t.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      t.alloc.replaceAllUsesWith(view);
      t.alloc.erase();
    }
  }
};

} // namespace
