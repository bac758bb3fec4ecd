//===- ContractionBounds.cpp - Index ranges of a contraction --------------===//
//
// Computes the iteration box of a tile.contract. Every constraint of the
// valid-point set (user `cons`, recorded bounds, and the `0 <= e <= D - 1`
// checks of each sink and source access) is flattened once, sharing the local
// variables that floordiv/mod/ceildiv introduce, into one Presburger system.
// Each index's interval comes from the rational simplex optimum, tightened to
// the exact integer optimum by integer-emptiness queries; each candidate
// constraint is then kept only if the box and its negation still have an
// integer point. Arithmetic is DynamicAPInt throughout, so huge dimensions
// cannot overflow; only the final bounds must fit in int64_t.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/Analysis/ContractionBounds.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/Simplex.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/DynamicAPInt.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::plaidml::tile;
using llvm::DynamicAPInt;

std::optional<SmallVector<int64_t>>
mlir::plaidml::tile::getLinearForm(AffineExpr expr, unsigned numDims) {
  std::vector<SmallVector<int64_t, 8>> flat;
  FlatLinearConstraints locals(numDims);
  if (failed(getFlattenedAffineExprs(AffineMap::get(numDims, 0, expr), &flat,
                                     &locals)) ||
      locals.getNumLocalVars() != 0)
    return std::nullopt;
  return SmallVector<int64_t>(flat[0].begin(), flat[0].end());
}
using presburger::BoundType;
using presburger::IntegerPolyhedron;
using presburger::MaybeOptimum;
using presburger::Simplex;

namespace {
/// One constraint of the valid-point set: `row . (dims, locals, 1) >= 0`, or
/// `== 0` for an equality. `expr` is its form over the index dims, for `cons`.
struct Constraint {
  SmallVector<DynamicAPInt> row;
  AffineExpr expr;
  bool isEq = false;
  /// Recorded bounds are constraints too, but the new box always implies
  /// them, so they are never candidates for `cons`.
  bool isCandidate = true;
};
} // namespace

static SmallVector<DynamicAPInt> toDynamic(ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [](int64_t v) { return DynamicAPInt(v); });
}

/// True when `sys` has an integer point whose variable `pos` satisfies
/// `var <= value` (UB) or `var >= value` (LB).
static bool hasPointWith(const IntegerPolyhedron &sys, BoundType type,
                         unsigned pos, const DynamicAPInt &value) {
  IntegerPolyhedron copy(sys);
  copy.addBound(type, pos, value);
  return !copy.isIntegerEmpty();
}

/// The integer minimum of variable `pos` over the integer points of `sys`,
/// given a lower bound `lo` and an attained value `hi`. The rational minimum
/// rounded up is usually attained; when it is not (parity, strides, local
/// variables), bisect on "some point has var <= v", which is monotone in v.
static DynamicAPInt integerMin(const IntegerPolyhedron &sys, unsigned pos,
                               DynamicAPInt lo, DynamicAPInt hi) {
  if (hasPointWith(sys, BoundType::UB, pos, lo))
    return lo;
  // Invariant: no point has var <= lo; some point has var <= hi.
  while (hi - lo > 1) {
    DynamicAPInt mid = floorDiv(lo + hi, DynamicAPInt(2));
    (hasPointWith(sys, BoundType::UB, pos, mid) ? hi : lo) = mid;
  }
  return hi;
}

/// Mirror image of integerMin: `hi` is an upper bound, `lo` is attained.
static DynamicAPInt integerMax(const IntegerPolyhedron &sys, unsigned pos,
                               DynamicAPInt lo, DynamicAPInt hi) {
  if (hasPointWith(sys, BoundType::LB, pos, hi))
    return hi;
  // Invariant: some point has var >= lo; no point has var >= hi.
  while (hi - lo > 1) {
    DynamicAPInt mid = floorDiv(lo + hi, DynamicAPInt(2));
    (hasPointWith(sys, BoundType::LB, pos, mid) ? lo : hi) = mid;
  }
  return lo;
}

/// True when no integer point of `box` satisfies `row . x + shift >= 0`.
static bool noPointWith(const IntegerPolyhedron &box,
                        ArrayRef<DynamicAPInt> row, int64_t sign,
                        int64_t shift) {
  SmallVector<DynamicAPInt> ineq =
      llvm::map_to_vector(row, [&](const DynamicAPInt &c) { return c * sign; });
  ineq.back() += shift;
  IntegerPolyhedron copy(box);
  copy.addInequality(ineq);
  return copy.isIntegerEmpty();
}

/// True when every integer point of `box` satisfies `c`: the box together
/// with the negation of `c` has no integer point.
static bool isImpliedBy(const IntegerPolyhedron &box, const Constraint &c) {
  // not(e >= 0) is -e - 1 >= 0; not(e == 0) is e - 1 >= 0 or -e - 1 >= 0.
  if (!noPointWith(box, c.row, -1, -1))
    return false;
  return !c.isEq || noPointWith(box, c.row, 1, -1);
}

static std::string toString(const DynamicAPInt &value) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << value;
  return str;
}

static std::optional<int64_t> toInt64(const DynamicAPInt &value) {
  if (value < DynamicAPInt(std::numeric_limits<int64_t>::min()) ||
      value > DynamicAPInt(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return static_cast<int64_t>(value);
}

FailureOr<ContractionBounds>
mlir::plaidml::tile::computeContractionBounds(ContractionOp op) {
  MLIRContext *ctx = op.getContext();
  unsigned numIdxs = op.getNumIdxs();

  // The accesses, paired with the extents of the tensors they index.
  SmallVector<std::pair<AffineMap, ArrayRef<int64_t>>> accesses;
  accesses.push_back(
      {op.getSink(), cast<RankedTensorType>(op.getType()).getShape()});
  for (auto [attr, input] : llvm::zip_equal(op.getSrcs(), op.getInputs()))
    accesses.push_back({cast<AffineMapAttr>(attr).getValue(),
                        cast<RankedTensorType>(input.getType()).getShape()});

  // Flatten every expression with one flattener so that identical floordivs
  // share one local variable and flattened rows compare equal.
  SmallVector<AffineExpr> exprs;
  std::optional<IntegerSet> userCons = op.getCons();
  if (userCons)
    llvm::append_range(exprs, userCons->getConstraints());
  for (auto &access : accesses)
    llvm::append_range(exprs, access.first.getResults());
  std::vector<SmallVector<int64_t, 8>> flat;
  FlatLinearConstraints locals(numIdxs);
  if (failed(getFlattenedAffineExprs(AffineMap::get(numIdxs, 0, exprs, ctx),
                                     &flat, &locals))) {
    // Name the culprit: a division or modulo by a non-positive constant (the
    // verifier rules out symbols, so nothing else fails to flatten).
    // (Not getFlattenedAffineExpr: in MLIR 22 it reads past an empty result
    // when flattening fails.)
    for (AffineExpr expr : exprs) {
      std::vector<SmallVector<int64_t, 8>> ignored;
      if (succeeded(getFlattenedAffineExprs(AffineMap::get(numIdxs, 0, expr),
                                            &ignored)))
        continue;
      std::string str;
      llvm::raw_string_ostream(str) << expr;
      return op.emitOpError("cannot compute bounds of '")
             << str << "': floordiv, ceildiv and mod need a positive "
             << "constant divisor";
    }
    return op.emitOpError("cannot flatten the maps and constraints");
  }
  unsigned numCols = locals.getNumCols();

  SmallVector<Constraint> constraints;
  unsigned next = 0;
  if (userCons) {
    for (unsigned i = 0, e = userCons->getNumConstraints(); i < e; ++i)
      constraints.push_back(
          {toDynamic(flat[next++]),
           simplifyAffineExpr(userCons->getConstraint(i), numIdxs, 0),
           userCons->isEq(i)});
  }
  if (op.hasBounds()) {
    for (auto [i, lo, hi] :
         llvm::enumerate(*op.getLowerBounds(), *op.getUpperBounds())) {
      SmallVector<DynamicAPInt> row(numCols, DynamicAPInt(0));
      row[i] = 1;
      row.back() = -DynamicAPInt(lo);
      constraints.push_back({row, AffineExpr(), false, false});
      row[i] = -1;
      row.back() = DynamicAPInt(hi);
      constraints.push_back({row, AffineExpr(), false, false});
    }
  }
  for (auto &[map, shape] : accesses) {
    for (auto [expr, extent] : llvm::zip_equal(map.getResults(), shape)) {
      SmallVector<DynamicAPInt> row = toDynamic(flat[next++]);
      constraints.push_back({row, simplifyAffineExpr(expr, numIdxs, 0), false});
      // extent - 1 - e >= 0
      for (DynamicAPInt &c : row)
        c = -c;
      row.back() += DynamicAPInt(extent) - 1;
      AffineExpr upper = getAffineConstantExpr(extent - 1, ctx) - expr;
      constraints.push_back(
          {row, simplifyAffineExpr(upper, numIdxs, 0), false});
    }
  }

  IntegerPolyhedron system(locals);
  for (const Constraint &c : constraints) {
    if (c.isEq)
      system.addEquality(c.row);
    else
      system.addInequality(c.row);
  }

  ContractionBounds result;
  result.empty = system.isIntegerEmpty();
  if (result.empty) {
    result.lower.assign(numIdxs, 0);
    result.upper.assign(numIdxs, -1);
  } else {
    // The system has an integer point, so by Meyer's theorem its integer
    // hull recedes along every ray of the rational polyhedron: an index that
    // is rationally unbounded is unbounded over the valid points too.
    Simplex simplex(system);
    bool failedAny = false;
    for (unsigned i = 0; i < numIdxs; ++i) {
      SmallVector<DynamicAPInt> unit(numCols, DynamicAPInt(0));
      unit[i] = 1;
      MaybeOptimum<presburger::Fraction> min =
          simplex.computeOptimum(Simplex::Direction::Down, unit);
      MaybeOptimum<presburger::Fraction> max =
          simplex.computeOptimum(Simplex::Direction::Up, unit);
      if (!min.isBounded() || !max.isBounded()) {
        const char *side = !min.isBounded() && !max.isBounded()
                               ? "below and above"
                               : (!min.isBounded() ? "below" : "above");
        op.emitError("index '")
            << op.getIdxName(i) << "' is unbounded " << side
            << "; bound it with a tensor access or a constraint";
        failedAny = true;
        continue;
      }
      DynamicAPInt lo = presburger::ceil(*min), hi = presburger::floor(*max);
      lo = integerMin(system, i, lo, hi);
      hi = integerMax(system, i, lo, hi);
      std::optional<int64_t> lo64 = toInt64(lo), hi64 = toInt64(hi);
      if (!lo64 || !hi64) {
        op.emitError("index '")
            << op.getIdxName(i) << "' ranges over [" << toString(lo) << ", "
            << toString(hi) << "], which does not fit in 64 bits";
        failedAny = true;
        continue;
      }
      result.lower.push_back(*lo64);
      result.upper.push_back(*hi64);
    }
    if (failedAny)
      return failure();
  }

  // Keep the constraints that some integer point of the box violates.
  IntegerPolyhedron box(locals);
  for (unsigned i = 0; i < numIdxs; ++i) {
    box.addBound(BoundType::LB, i, result.lower[i]);
    box.addBound(BoundType::UB, i, result.upper[i]);
  }
  SmallVector<AffineExpr> kept;
  SmallVector<bool> keptEq;
  SmallVector<const Constraint *> seen;
  for (const Constraint &c : constraints) {
    if (!c.isCandidate || llvm::any_of(seen, [&](const Constraint *s) {
          return s->isEq == c.isEq && s->row == c.row;
        }))
      continue;
    seen.push_back(&c);
    if (isImpliedBy(box, c))
      continue;
    kept.push_back(c.expr);
    keptEq.push_back(c.isEq);
  }
  if (!kept.empty())
    result.cons = IntegerSet::get(numIdxs, 0, kept, keptEq);
  return result;
}

FailureOr<ContractionBounds>
mlir::plaidml::tile::recordContractionBounds(ContractionOp op) {
  FailureOr<ContractionBounds> bounds = computeContractionBounds(op);
  if (failed(bounds))
    return failure();
  MLIRContext *ctx = op.getContext();
  op.setLowerBoundsAttr(DenseI64ArrayAttr::get(ctx, bounds->lower));
  op.setUpperBoundsAttr(DenseI64ArrayAttr::get(ctx, bounds->upper));
  if (bounds->cons)
    op.setConsAttr(IntegerSetAttr::get(bounds->cons));
  else
    op.removeConsAttr();
  return bounds;
}
