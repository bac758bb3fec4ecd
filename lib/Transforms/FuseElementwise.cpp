//===- FuseElementwise.cpp - Fuse consumer nests into producers -----------===//
//
// plaidml-fuse-elementwise: moves the body of an affine.parallel nest that
// reads, element for element, what an earlier nest stored into the body of
// that earlier nest, replaces the loads by the stored values, and deletes
// the intermediate buffers nobody reads any more. Repeated to a fixpoint,
// a contraction with its elementwise epilogue (bias, activation, scale)
// becomes one nest without temporaries. The legality rules are in
// Passes.td; every rule is checked on whole buffers, which is conservative
// and simple to trust.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "plaidml/Transforms/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
using affine::AffineLoadOp;
using affine::AffineParallelOp;
using affine::AffineStoreOp;

namespace {

/// The constant range of one induction variable of an affine.parallel.
struct DimRange {
  int64_t lower, upper, step;
  bool operator==(const DimRange &other) const {
    return lower == other.lower && upper == other.upper && step == other.step;
  }
  /// The value of an induction variable that takes exactly one.
  std::optional<int64_t> getSingleValue() const {
    if (upper > lower && lower + step >= upper)
      return lower;
    return std::nullopt;
  }
};

/// The iteration space of `loop` when it has no reductions and constant
/// bounds (no min/max), else nothing.
std::optional<SmallVector<DimRange>> getConstantSpace(AffineParallelOp loop) {
  if (loop.getNumResults() != 0)
    return std::nullopt;
  SmallVector<int64_t> steps = loop.getSteps();
  SmallVector<DimRange> space;
  for (unsigned i = 0, e = loop.getNumDims(); i < e; ++i) {
    AffineMap lower = loop.getLowerBoundMap(i);
    AffineMap upper = loop.getUpperBoundMap(i);
    if (lower.getNumResults() != 1 || upper.getNumResults() != 1)
      return std::nullopt;
    auto lowerExpr = dyn_cast<AffineConstantExpr>(lower.getResult(0));
    auto upperExpr = dyn_cast<AffineConstantExpr>(upper.getResult(0));
    if (!lowerExpr || !upperExpr)
      return std::nullopt;
    space.push_back({lowerExpr.getValue(), upperExpr.getValue(), steps[i]});
  }
  return space;
}

/// One index of an access: an induction variable of the loop (its
/// position), or a constant.
struct Index {
  std::optional<unsigned> iv;
  int64_t constant = 0;
};

/// For an access `map(mapOperands)` inside `loop`: its indices, when each is
/// a distinct induction variable of `loop` or a constant (a unit dimension
/// that convert-tile-to-affine reads at 0). Anything else (sums, outer
/// values, a repeated variable) gives nothing.
std::optional<SmallVector<Index>>
getIndices(AffineMap map, ValueRange mapOperands, AffineParallelOp loop) {
  llvm::SmallBitVector seen(loop.getNumDims());
  SmallVector<Index> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      indices.push_back({std::nullopt, constant.getValue()});
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    auto iv = dyn_cast<BlockArgument>(mapOperands[dim.getPosition()]);
    if (!iv || iv.getOwner() != loop.getBody() || seen.test(iv.getArgNumber()))
      return std::nullopt;
    seen.set(iv.getArgNumber());
    indices.push_back({iv.getArgNumber(), 0});
  }
  return indices;
}

/// For an access `map(mapOperands)` inside `loop`: the induction variable
/// (its position) that each index is, when the indices are all of `loop`'s
/// induction variables, each once. Anything else (constants, sums, outer
/// values, a repeated or missing variable) gives nothing.
std::optional<SmallVector<unsigned>>
getIvPermutation(AffineMap map, ValueRange mapOperands, AffineParallelOp loop) {
  if (map.getNumResults() != loop.getNumDims())
    return std::nullopt;
  std::optional<SmallVector<Index>> indices =
      getIndices(map, mapOperands, loop);
  if (!indices)
    return std::nullopt;
  SmallVector<unsigned> ivs;
  for (const Index &index : *indices) {
    if (!index.iv)
      return std::nullopt;
    ivs.push_back(*index.iv);
  }
  return ivs;
}

/// The buffers some ops read and write (every memref value an effect names).
struct Accesses {
  SmallVector<Value> reads, writes;
};

/// Adds what `root` and the ops nested in it read and write to `accesses`,
/// leaving out the ops in `ignored`. Allocations are not accesses. Fails
/// when an effect names no memref (or an op declares no effects at all),
/// since then any buffer may be touched.
LogicalResult collectAccesses(Operation *root, Accesses &accesses,
                              const DenseSet<Operation *> &ignored = {}) {
  WalkResult result = root->walk([&](Operation *op) {
    if (ignored.contains(op) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effecting = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effecting)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    effecting.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      Value buffer = effect.getValue();
      if (!buffer || !isa<BaseMemRefType>(buffer.getType()))
        return WalkResult::interrupt();
      if (isa<MemoryEffects::Read>(effect.getEffect()))
        accesses.reads.push_back(buffer);
      else
        accesses.writes.push_back(buffer);
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The buffer `value` is a view of (itself when it is no view).
Value getRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

bool isLocalAllocation(Value root) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      root.getDefiningOp());
}

/// A value the producer stores once per iteration at a permutation of its
/// induction variables.
struct Produced {
  AffineStoreOp store;
  /// The producer's induction variable at each index of the store.
  SmallVector<unsigned> ivs;
};

class Fuser {
public:
  explicit Fuser(func::FuncOp func)
      : arguments(&func.getBody().front()),
        argumentsAreDistinct(func->hasAttr(kEntryAttrName)) {}

  /// Fuses the first consumer of `producer` into it; false when there is
  /// none or it may not be fused.
  bool tryFuse(AffineParallelOp producer);

private:
  bool mayAlias(Value a, Value b) const;
  bool anyAlias(ArrayRef<Value> as, ArrayRef<Value> bs) const {
    return llvm::any_of(as, [&](Value a) {
      return llvm::any_of(bs, [&](Value b) { return mayAlias(a, b); });
    });
  }
  /// Whether ops touching `other` may run interleaved with (or before)
  /// the producer's iterations without changing what anybody reads.
  bool independent(const Accesses &producer, const Accesses &other) const {
    return !anyAlias(other.reads, producer.writes) &&
           !anyAlias(other.writes, producer.reads) &&
           !anyAlias(other.writes, producer.writes);
  }
  static void eraseIfUnread(Value buffer);

  /// The block whose arguments are the function's.
  Block *arguments;
  /// Distinct arguments of an entry function never alias in a way that
  /// matters: inputs are read-only and outputs alias nothing (docs/ABI.md
  /// section 1).
  bool argumentsAreDistinct;
};

bool Fuser::mayAlias(Value a, Value b) const {
  a = getRoot(a);
  b = getRoot(b);
  if (a == b)
    return true;
  // A fresh allocation is only reachable through itself and its views.
  if (isLocalAllocation(a) || isLocalAllocation(b))
    return false;
  auto globalA = a.getDefiningOp<memref::GetGlobalOp>();
  auto globalB = b.getDefiningOp<memref::GetGlobalOp>();
  if (globalA && globalB)
    return globalA.getName() == globalB.getName();
  auto isArgument = [&](Value v) {
    auto argument = dyn_cast<BlockArgument>(v);
    return argumentsAreDistinct && argument && argument.getOwner() == arguments;
  };
  // A module's globals are not buffers the caller passes in.
  if ((globalA || isArgument(a)) && (globalB || isArgument(b)))
    return false;
  return true;
}

/// Removes `buffer` when it is a local allocation that nothing reads any
/// more: its stores, its deallocation, the allocation, and the top-level
/// nests left without any effect (an init fill of the buffer).
void Fuser::eraseIfUnread(Value buffer) {
  if (!isLocalAllocation(buffer))
    return;
  SmallVector<Operation *> users(buffer.getUsers());
  for (Operation *user : users) {
    Value stored;
    if (auto store = dyn_cast<AffineStoreOp>(user))
      stored = store.getValueToStore();
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      stored = store.getValueToStore();
    else if (!isa<memref::DeallocOp>(user))
      return;
    if (stored == buffer)
      return;
  }
  Block *block = buffer.getParentBlock();
  SetVector<Operation *> nests;
  for (Operation *user : users) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (top != user)
      nests.insert(top);
    user->erase();
  }
  buffer.getDefiningOp()->erase();
  for (Operation *nest : nests)
    if (isOpTriviallyDead(nest))
      nest->erase();
}

bool Fuser::tryFuse(AffineParallelOp producer) {
  std::optional<SmallVector<DimRange>> producerSpace =
      getConstantSpace(producer);
  if (!producerSpace)
    return false;
  Accesses producerAccesses;
  if (failed(collectAccesses(producer, producerAccesses)))
    return false;

  // What the producer hands over: buffers it writes exactly once per
  // iteration, at its own coordinates, and touches nowhere else.
  DenseMap<Value, Produced> produced;
  for (Operation &op : producer.getBody()->without_terminator()) {
    auto store = dyn_cast<AffineStoreOp>(op);
    if (!store)
      continue;
    std::optional<SmallVector<unsigned>> ivs = getIvPermutation(
        store.getAffineMap(), store.getMapOperands(), producer);
    Value buffer = store.getMemRef();
    auto touches = [&](Value other) { return mayAlias(buffer, other); };
    if (!ivs || llvm::count_if(producerAccesses.writes, touches) != 1 ||
        llvm::any_of(producerAccesses.reads, touches))
      continue;
    produced[buffer] = Produced{store, std::move(*ivs)};
  }
  if (produced.empty())
    return false;

  // The consumer: the first op after the producer that uses one of them.
  auto usesProduced = [&](Operation *op) {
    WalkResult found = op->walk([&](Operation *inner) {
      return llvm::any_of(inner->getOperands(),
                          [&](Value v) { return produced.contains(v); })
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return found.wasInterrupted();
  };
  Operation *next = producer->getNextNode();
  while (next && !usesProduced(next))
    next = next->getNextNode();
  auto consumer = dyn_cast_or_null<AffineParallelOp>(next);
  if (!consumer)
    return false;
  std::optional<SmallVector<DimRange>> consumerSpace =
      getConstantSpace(consumer);
  if (!consumerSpace || consumerSpace->size() != producerSpace->size())
    return false;
  // At most one reduction per nest: two contractions in one body (both
  // operands of a residual add) leave a nest the CPU code generator cannot
  // block, which runs as scalar code.
  auto hasLoop = [](AffineParallelOp nest) {
    return nest.getBody()
        ->walk([](affine::AffineForOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  if (hasLoop(producer) && hasLoop(consumer))
    return false;

  // Every use of a produced buffer in the consumer is a load of the element
  // one producer iteration wrote. `producerIv[c]` is the producer induction
  // variable that consumer induction variable `c` stands for. An index may
  // also be the constant that a producer variable with one value takes.
  unsigned numIvs = producer.getNumDims();
  constexpr unsigned kUnset = ~0u;
  SmallVector<unsigned> producerIv(numIvs, kUnset);
  SmallVector<AffineLoadOp> loads;
  WalkResult matched = consumer.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      auto it = produced.find(operand.get());
      if (it == produced.end())
        continue;
      auto load = dyn_cast<AffineLoadOp>(op);
      if (!load)
        return WalkResult::interrupt();
      std::optional<SmallVector<Index>> indices =
          getIndices(load.getAffineMap(), load.getMapOperands(), consumer);
      if (!indices)
        return WalkResult::interrupt();
      for (auto [index, producerDim] :
           llvm::zip_equal(*indices, it->second.ivs)) {
        if (!index.iv) {
          if ((*producerSpace)[producerDim].getSingleValue() != index.constant)
            return WalkResult::interrupt();
        } else if (producerIv[*index.iv] == kUnset) {
          producerIv[*index.iv] = producerDim;
        } else if (producerIv[*index.iv] != producerDim) {
          return WalkResult::interrupt();
        }
      }
      loads.push_back(load);
    }
    return WalkResult::advance();
  });
  if (matched.wasInterrupted() || loads.empty())
    return false;
  // The variables no load names pair up in order, if each takes one value
  // (so no consumer iteration is left out or repeated).
  llvm::SmallBitVector named(numIvs);
  for (unsigned p : producerIv)
    if (p != kUnset) {
      if (named.test(p))
        return false;
      named.set(p);
    }
  unsigned nextProducerIv = 0;
  for (unsigned c = 0; c < numIvs; ++c) {
    if (producerIv[c] != kUnset)
      continue;
    while (named.test(nextProducerIv))
      ++nextProducerIv;
    producerIv[c] = nextProducerIv++;
    if (!(*consumerSpace)[c].getSingleValue())
      return false;
  }
  for (unsigned c = 0; c < numIvs; ++c)
    if (!((*consumerSpace)[c] == (*producerSpace)[producerIv[c]]))
      return false;

  // Fused, producer and consumer iterations interleave, and the producer
  // runs after the ops between the two.
  DenseSet<Operation *> replaced;
  for (AffineLoadOp load : loads)
    replaced.insert(load);
  Accesses consumerAccesses;
  if (failed(collectAccesses(consumer, consumerAccesses, replaced)) ||
      !independent(producerAccesses, consumerAccesses))
    return false;
  for (Operation *op = producer->getNextNode(); op != consumer;
       op = op->getNextNode()) {
    Accesses between;
    if (failed(collectAccesses(op, between)) ||
        !independent(producerAccesses, between))
      return false;
  }

  // Fuse: the producer moves down to the consumer (every value it uses is
  // defined above it), and the consumer's body follows the producer's.
  producer->moveBefore(consumer);
  Block *body = producer.getBody();
  Block *consumerBody = consumer.getBody();
  for (unsigned c = 0; c < numIvs; ++c)
    consumerBody->getArgument(c).replaceAllUsesWith(
        body->getArgument(producerIv[c]));
  SetVector<Value> handedOver;
  for (AffineLoadOp load : loads) {
    Value buffer = load.getMemRef();
    handedOver.insert(buffer);
    load.getResult().replaceAllUsesWith(
        produced[buffer].store.getValueToStore());
    load.erase();
  }
  body->getOperations().splice(
      body->getTerminator()->getIterator(), consumerBody->getOperations(),
      consumerBody->begin(), consumerBody->getTerminator()->getIterator());
  consumer.erase();
  for (Value buffer : handedOver)
    eraseIfUnread(buffer);
  return true;
}

struct FuseElementwisePass
    : public mlir::plaidml::impl::FuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Fuser fuser(func);
    for (Block &block : func.getBody()) {
      // In order, trying a fused nest again where it now stands (the
      // producer moves down to its consumer's place and may produce for
      // the next nest). Ops it moved past are visited by the next sweep,
      // which runs while the last one fused anything. Starting over after
      // every fusion made the pass quadratic in the number of nests.
      bool changed = true;
      while (changed) {
        changed = false;
        for (Operation *op = &block.front(); op;) {
          auto loop = dyn_cast<AffineParallelOp>(op);
          if (loop && fuser.tryFuse(loop)) {
            changed = true;
            continue;
          }
          op = op->getNextNode();
        }
      }
    }
  }
};

} // namespace
