//===- OutputStationary.cpp - Reduce windowed sinks per output element ----===//
//
// tile-output-stationary: a reduction whose sink writes `h + kh` (the input
// gradient of a convolution or a pooling, a transposed convolution) sends
// many index points to one output element, so its lowering can only visit
// them in order. A change of variables makes the sink a plain index: with
// `y = h + kh`, `h` becomes `y - kh` in every access and constraint, the
// sink result becomes `y`, and `lb(h) <= y - kh <= ub(h)` keeps exactly the
// old points. Each output element is then one reduction over the window
// (output-stationary), which the lowering runs in parallel with the
// accumulator in a register.
//
// For each sink result that is not a plain index, the index eliminated is
// one with coefficient 1 that appears in no other sink result and has the
// largest range of the result's indices (so the reduction left runs over the
// small window, not over the image with most points rejected); results
// without one (a strided `2 * h + kh`, where only the window index has
// coefficient 1) stay. The box of the new index comes from the old one and
// recordContractionBounds tightens the box and the constraints.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/Analysis/ContractionBounds.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"

namespace mlir::plaidml::tile {
#define GEN_PASS_DEF_TILEOUTPUTSTATIONARYPASS
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

namespace {
/// Rewrites `op` in place; true when it changed.
bool makeOutputStationary(ContractionOp op) {
  if (op.getAgg() == AggregationKind::assign || !op.hasBounds())
    return false;
  MLIRContext *ctx = op.getContext();
  unsigned numIdxs = op.getNumIdxs();
  SmallVector<int64_t> lbs(*op.getLowerBounds()), ubs(*op.getUpperBounds());
  for (unsigned d = 0; d < numIdxs; ++d)
    if (ubs[d] < lbs[d])
      return false; // Empty box: nothing to reduce.

  AffineMap sink = op.getSink();
  SmallVector<AffineExpr> results(sink.getResults());
  // Substitution of each eliminated index, identity for the others.
  SmallVector<AffineExpr> replacement;
  for (unsigned d = 0; d < numIdxs; ++d)
    replacement.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineExpr> newCons;
  auto usedElsewhere = [&](unsigned d, unsigned except) {
    for (auto [pos, e] : llvm::enumerate(results))
      if (pos != except && e.isFunctionOfDim(d))
        return true;
    return false;
  };
  bool changed = false;
  auto shape = cast<RankedTensorType>(op.getType()).getShape();
  for (unsigned pos = 0; pos < results.size(); ++pos) {
    if (isa<AffineDimExpr>(results[pos]))
      continue;
    std::optional<SmallVector<int64_t>> linear =
        getLinearForm(results[pos], numIdxs);
    if (!linear)
      continue;
    SmallVector<int64_t> &form = *linear;
    // The index to eliminate: coefficient 1, in no other result, the
    // largest range of the result's indices.
    std::optional<unsigned> pick;
    int64_t widest = -1;
    for (unsigned d = 0; d < numIdxs; ++d)
      if (form[d] != 0)
        widest = std::max(widest, ubs[d] - lbs[d]);
    for (unsigned d = 0; d < numIdxs && !pick; ++d)
      if (form[d] == 1 && ubs[d] - lbs[d] == widest && !usedElsewhere(d, pos))
        pick = d;
    if (!pick)
      continue;
    unsigned d = *pick;
    // y = form(dims): its range over the box, within the output.
    int64_t lo = form[numIdxs], hi = form[numIdxs];
    for (unsigned i = 0; i < numIdxs; ++i) {
      lo += form[i] * (form[i] > 0 ? lbs[i] : ubs[i]);
      hi += form[i] * (form[i] > 0 ? ubs[i] : lbs[i]);
    }
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, shape[pos] - 1);
    if (hi < lo)
      continue;
    // d = y - (form - d), with y in d's slot.
    AffineExpr y = getAffineDimExpr(d, ctx);
    AffineExpr old = y - form[numIdxs];
    for (unsigned i = 0; i < numIdxs; ++i)
      if (i != d && form[i] != 0)
        old = old - getAffineDimExpr(i, ctx) * form[i];
    newCons.push_back(old - lbs[d]);
    newCons.push_back(ubs[d] - old);
    replacement[d] = old;
    lbs[d] = lo;
    ubs[d] = hi;
    results[pos] = y;
    changed = true;
  }
  if (!changed)
    return false;

  auto substitute = [&](AffineExpr e) {
    return simplifyAffineExpr(e.replaceDims(replacement), numIdxs, 0);
  };
  auto substituteMap = [&](AffineMap map) {
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : map.getResults())
      exprs.push_back(substitute(e));
    return AffineMap::get(numIdxs, 0, exprs, ctx);
  };
  SmallVector<Attribute> srcs;
  for (AffineMap src : op.getSrcs().getAsValueRange<AffineMapAttr>())
    srcs.push_back(AffineMapAttr::get(substituteMap(src)));
  // Old constraints over the new indices; the new ones are already in them
  // (each mentions its `y` and the indices left).
  SmallVector<AffineExpr> consExprs;
  SmallVector<bool> eqFlags;
  if (std::optional<IntegerSet> cons = op.getCons()) {
    for (auto [e, eq] :
         llvm::zip_equal(cons->getConstraints(), cons->getEqFlags())) {
      consExprs.push_back(substitute(e));
      eqFlags.push_back(eq);
    }
  }
  for (AffineExpr e : newCons) {
    consExprs.push_back(e);
    eqFlags.push_back(false);
  }
  op.setSinkAttr(AffineMapAttr::get(AffineMap::get(numIdxs, 0, results, ctx)));
  op.setSrcsAttr(ArrayAttr::get(ctx, srcs));
  op.setConsAttr(
      IntegerSetAttr::get(IntegerSet::get(numIdxs, 0, consExprs, eqFlags)));
  op.setLowerBoundsAttr(DenseI64ArrayAttr::get(ctx, lbs));
  op.setUpperBoundsAttr(DenseI64ArrayAttr::get(ctx, ubs));
  return true;
}

struct TileOutputStationaryPass
    : public impl::TileOutputStationaryPassBase<TileOutputStationaryPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](ContractionOp op) {
      if (!makeOutputStationary(op))
        return;
      if (failed(recordContractionBounds(op)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::plaidml::tile
