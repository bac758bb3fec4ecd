//===- ContractionNest.cpp - Reduction nests the CPU code generator takes -===//
//
// matchContractionNest and the schedule attribute; ContractionNest.h has
// the nest shape.
//
//===----------------------------------------------------------------------===//

#include "ContractionNest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::cpu;

int64_t ContractionNest::reductionPoints() const {
  int64_t points = 1;
  for (affine::AffineForOp loop : loops)
    points *= loop.getConstantUpperBound() - loop.getConstantLowerBound();
  return points;
}

namespace {
/// Builds a ContractionNest, failing with a reason.
class NestMatcher {
public:
  NestMatcher(ContractionNest &nest, std::string &whyNot)
      : nest(nest), whyNot(whyNot) {}

  bool match(affine::AffineParallelOp op) {
    nest.parallel = op;
    if (op.getNumResults() != 0)
      return fail("it reduces through affine.parallel results");
    for (unsigned i = 0, e = op.getNumDims(); i < e; ++i) {
      AffineMap lb = op.getLowerBoundMap(i), ub = op.getUpperBoundMap(i);
      if (!lb.isSingleConstant() || !ub.isSingleConstant())
        return fail("its bounds are not constant");
      nest.lowerBounds.push_back(lb.getSingleConstantResult());
      nest.upperBounds.push_back(ub.getSingleConstantResult());
    }
    if (llvm::any_of(op.getSteps(), [](int64_t s) { return s != 1; }))
      return fail("its steps are not 1");

    // prologue, one affine.for, epilogue, the store.
    Block *block = op.getBody();
    auto ops = block->without_terminator();
    if (ops.empty())
      return fail("it is empty");
    nest.store = dyn_cast<affine::AffineStoreOp>(&*std::prev(ops.end()));
    if (!nest.store)
      return fail("it does not end with one affine.store");
    bool seenLoop = false;
    for (Operation &inner : ops) {
      if (&inner == nest.store.getOperation())
        break;
      if (auto loop = dyn_cast<affine::AffineForOp>(inner)) {
        if (seenLoop)
          return fail("it has more than one reduction loop nest");
        seenLoop = true;
        if (!matchLoops(loop))
          return false;
        continue;
      }
      (seenLoop ? nest.epilogue : nest.prologue).push_back(&inner);
    }
    if (!seenLoop)
      return fail("it has no reduction loop");
    if (!matchStore())
      return false;

    // Dependences, in program order.
    for (auto [i, iv] : llvm::enumerate(op.getIVs()))
      nest.dependence[iv] = {nest.rowDim && *nest.rowDim == i,
                             i == nest.vectorDim};
    for (affine::AffineForOp loop : nest.loops) {
      nest.dependence[loop.getRegionIterArgs()[0]] = {true, true};
      nest.dependence[loop.getResult(0)] = {true, true};
    }
    for (auto *list : {&nest.prologue, &nest.body, &nest.epilogue})
      for (Operation *inner : *list)
        if (!classify(inner))
          return false;
    findOuterRowDim();
    return true;
  }

private:
  /// The store's coordinate before the row's, when a register block may
  /// span several of its rows: every op reading its index is a load whose
  /// map reads the row index too (or neither), so nothing in the nest varies
  /// with it alone (the dependences mark only the row index's users as per
  /// row).
  void findOuterRowDim() {
    if (!nest.rowDim || storeDims.size() < 3)
      return;
    unsigned outer = storeDims[storeDims.size() - 3];
    Value outerIV = nest.parallel.getIVs()[outer];
    Value rowIV = nest.parallel.getIVs()[*nest.rowDim];
    for (Operation *user : outerIV.getUsers()) {
      if (user == nest.store.getOperation())
        continue;
      auto load = dyn_cast<affine::AffineLoadOp>(user);
      if (!load)
        return;
      SmallVector<Value> used = getUsedIndices(load);
      if (llvm::is_contained(used, outerIV) && !llvm::is_contained(used, rowIV))
        return;
    }
    nest.outerRowDim = outer;
  }

  bool fail(const Twine &reason) {
    whyNot = reason.str();
    return false;
  }

  bool matchLoops(affine::AffineForOp loop) {
    Value carried;
    while (true) {
      if (!loop.hasConstantBounds() || loop.getStepAsInt() != 1)
        return fail("a reduction loop has non-constant bounds or a step");
      if (loop.getConstantUpperBound() <= loop.getConstantLowerBound())
        return fail("a reduction loop runs no iteration");
      if (loop.getNumIterOperands() != 1)
        return fail("a reduction loop does not carry exactly one value");
      if (carried && loop.getInits()[0] != carried)
        return fail("the reduction loops are not perfectly nested");
      nest.loops.push_back(loop);
      carried = loop.getRegionIterArgs()[0];
      Block *body = loop.getBody();
      auto inner = dyn_cast<affine::AffineForOp>(body->front());
      if (inner && &body->front() != &body->back() &&
          std::next(body->begin()) == std::prev(body->end())) {
        auto yield = cast<affine::AffineYieldOp>(body->getTerminator());
        if (yield.getOperands() != inner.getResults())
          return fail("the reduction loops are not perfectly nested");
        loop = inner;
        continue;
      }
      for (Operation &op : body->without_terminator()) {
        if (isa<affine::AffineForOp>(op))
          return fail("the reduction loops are not perfectly nested");
        nest.body.push_back(&op);
      }
      break;
    }
    Type type = nest.loops.front().getRegionIterArgs()[0].getType();
    auto floatType = dyn_cast<FloatType>(type);
    if (!floatType ||
        (floatType.getWidth() != 32 && floatType.getWidth() != 64)) {
      std::string name;
      llvm::raw_string_ostream(name) << type;
      return fail("it accumulates in " + name + ", not f32 or f64");
    }
    nest.accType = type;
    return true;
  }

  bool matchStore() {
    affine::AffineStoreOp store = nest.store;
    if (!store.getMemRefType().getLayout().isIdentity())
      return fail("its output buffer is not contiguous");
    AffineMap map = store.getAffineMap();
    auto ivs = nest.parallel.getIVs();
    if (map.getNumResults() != ivs.size() || ivs.empty())
      return fail("the store does not name every parallel index");
    SmallVector<unsigned> dims;
    for (AffineExpr e : map.getResults()) {
      // A constant offset (a padded output: the pad copy fused into the
      // nest writes at `h + 1`) moves the stores, not the blocking.
      if (auto sum = dyn_cast<AffineBinaryOpExpr>(e);
          sum && sum.getKind() == AffineExprKind::Add &&
          isa<AffineConstantExpr>(sum.getRHS()))
        e = sum.getLHS();
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return fail("the store's coordinates are not parallel indices");
      Value operand = store.getMapOperands()[dim.getPosition()];
      auto it = llvm::find(ivs, operand);
      if (it == ivs.end())
        return fail("the store's coordinates are not parallel indices");
      dims.push_back(std::distance(ivs.begin(), it));
    }
    if (llvm::SmallDenseSet<unsigned>(dims.begin(), dims.end()).size() !=
        dims.size())
      return fail("the store writes one element from several points");
    nest.vectorDim = dims.back();
    if (dims.size() >= 2)
      nest.rowDim = dims[dims.size() - 2];
    storeDims = dims;
    return true;
  }

  bool isNestIV(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg)
      return false;
    Operation *owner = arg.getOwner()->getParentOp();
    return owner == nest.parallel.getOperation() ||
           (llvm::is_contained(nest.loops, owner) && arg.getArgNumber() == 0);
  }

  bool definedInside(Value v) const {
    Operation *parent = v.getParentRegion()->getParentOp();
    return nest.parallel->isAncestor(parent) ||
           parent == nest.parallel.getOperation();
  }

  bool classify(Operation *op) {
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      return classifyLoad(load);
    if (op->getNumRegions() != 0 || op->getNumResults() != 1)
      return fail("'" + op->getName().getStringRef() +
                  "' is not an elementwise op");
    if (op->hasTrait<OpTrait::ConstantLike>()) {
      nest.dependence[op->getResult(0)] = {};
      return true;
    }
    if (!op->hasTrait<OpTrait::Vectorizable>())
      return fail("'" + op->getName().getStringRef() +
                  "' cannot be vectorized");
    Dependence dep;
    for (Value operand : op->getOperands()) {
      if (isNestIV(operand))
        return fail("'" + op->getName().getStringRef() +
                    "' computes with a loop index");
      if (definedInside(operand))
        dep = dep | nest.get(operand);
      else if (isa<VectorType, ShapedType>(operand.getType()))
        return fail("'" + op->getName().getStringRef() +
                    "' takes a non-scalar value from outside the nest");
    }
    nest.dependence[op->getResult(0)] = dep;
    return true;
  }

  bool classifyLoad(affine::AffineLoadOp load) {
    if (!load.getMemRefType().getLayout().isIdentity())
      return fail("it reads a buffer that is not contiguous");
    AffineMap map = load.getAffineMap();
    if (map.getNumSymbols() != 0)
      return fail("a load has symbols");
    Dependence dep;
    Value vectorIV = nest.parallel.getIVs()[nest.vectorDim];
    for (auto [pos, operand] : llvm::enumerate(load.getMapOperands())) {
      if (!map.isFunctionOfDim(pos))
        continue;
      if (!isNestIV(operand))
        return fail("a load's coordinates are not loop indices");
      dep = dep | nest.get(operand);
      if (operand != vectorIV)
        continue;
      // Contiguous along the vector dimension: only the last coordinate
      // uses it, as the index itself plus an offset that does not.
      unsigned numResults = map.getNumResults();
      for (unsigned r = 0; r + 1 < numResults; ++r)
        if (map.getResult(r).isFunctionOfDim(pos))
          return fail("a load reads across the vector dimension");
      AffineExpr last = map.getResult(numResults - 1);
      AffineExpr offset = simplifyAffineExpr(
          last - getAffineDimExpr(pos, load.getContext()), map.getNumDims(), 0);
      if (offset.isFunctionOfDim(pos))
        return fail("a load reads the vector dimension with a stride");
    }
    // Memory holds an i1 per byte but a vector of i1 packs them in bits:
    // such loads stay scalar (a row or reduction dependence is fine).
    if (auto intType = dyn_cast<IntegerType>(load.getType());
        dep.vec && intType && intType.getWidth() % 8 != 0)
      return fail("a load reads i" + Twine(intType.getWidth()) +
                  " elements along the vector dimension");
    nest.dependence[load.getResult()] = dep;
    return true;
  }

  ContractionNest &nest;
  std::string &whyNot;
  /// The parallel index of each of the store's coordinates.
  SmallVector<unsigned> storeDims;
};
} // namespace

std::optional<ContractionNest>
cpu::matchContractionNest(affine::AffineParallelOp op, std::string &whyNot) {
  ContractionNest nest;
  NestMatcher matcher(nest, whyNot);
  if (!matcher.match(op))
    return std::nullopt;
  return nest;
}

SmallVector<Value> cpu::getUsedIndices(affine::AffineLoadOp load) {
  SmallVector<Value> used;
  AffineMap map = load.getAffineMap();
  for (auto [pos, operand] : llvm::enumerate(load.getMapOperands()))
    if (map.isFunctionOfDim(pos))
      used.push_back(operand);
  return used;
}

bool cpu::isPackable(const ContractionNest &nest, affine::AffineLoadOp load) {
  Dependence dep = nest.get(load.getResult());
  if (!dep.vec || dep.row)
    return false;
  auto ivs = nest.parallel.getIVs();
  for (Value operand : getUsedIndices(load)) {
    auto it = llvm::find(ivs, operand);
    if (it != ivs.end() &&
        std::distance(ivs.begin(), it) != static_cast<long>(nest.vectorDim))
      return false;
    if (it == ivs.end() &&
        !llvm::any_of(nest.loops, [&](affine::AffineForOp loop) {
          return loop.getInductionVar() == operand;
        }))
      return false;
  }
  return true;
}

bool cpu::readsParameter(affine::AffineLoadOp load) {
  auto arg = dyn_cast<BlockArgument>(load.getMemRef());
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func->hasAttr(kEntryAttrName) &&
         arg.getOwner() == &func.getBody().front() &&
         func.getArgAttr(arg.getArgNumber(), kParamAttrName);
}

CpuScheduleAttr Schedule::toAttr(MLIRContext *ctx) const {
  return CpuScheduleAttr::get(ctx, lanes, rows, vectors, panelsPerBlock, pack,
                              unrollInner, reductionChunk);
}

std::optional<Schedule> Schedule::fromAttr(Attribute attr) {
  auto typed = dyn_cast_or_null<CpuScheduleAttr>(attr);
  if (!typed)
    return std::nullopt;
  Schedule schedule;
  schedule.lanes = typed.getLanes();
  schedule.rows = typed.getRows();
  schedule.vectors = typed.getVectors();
  schedule.panelsPerBlock = typed.getPanelsPerBlock();
  schedule.pack = typed.getPack();
  schedule.unrollInner = typed.getUnrollInner();
  schedule.reductionChunk = typed.getReductionChunk();
  return schedule;
}
