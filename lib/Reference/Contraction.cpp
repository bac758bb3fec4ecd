//===- Contraction.cpp - Reference evaluation of tile.contract ------------===//
//
// Evaluates a contraction by its definition: start from the broadcast init,
// visit every integer point of a box that contains all valid points, keep the
// points whose accesses are in range and whose constraints hold, and
// aggregate the combined inputs into the output element the sink names.
//
// The box comes from a rational relaxation (simplex optimum, rounded
// outward) of the constraint system, deliberately not from
// tile-compute-bounds: a box that is too large costs time, never results,
// so the oracle stays independent of the exact integer analysis it checks.
// Bounds already recorded on the op are constraints like any other.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "Scalar.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Analysis/Presburger/Simplex.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IntegerSet.h"

#include <optional>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::reference;
using namespace mlir::plaidml::tile;

namespace {
/// Upper limit on visited points, so a typo does not hang a test.
constexpr int64_t kMaxPoints = int64_t(1) << 32;

/// floor(a / b) and a mod b with the affine dialect's semantics (b > 0).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// Value of `expr` at the integer point `dims`.
int64_t evalExpr(AffineExpr expr, ArrayRef<int64_t> dims) {
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dims[d.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t l = evalExpr(bin.getLHS(), dims), r = evalExpr(bin.getRHS(), dims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return floorDiv(l, r);
  case AffineExprKind::CeilDiv:
    return -floorDiv(-l, r);
  case AffineExprKind::Mod:
    return l - r * floorDiv(l, r);
  default:
    llvm_unreachable("symbols are rejected by the verifier");
  }
}

/// Row-major offset of `map` at `dims` in `shape`, or nullopt when an
/// access falls outside the tensor.
std::optional<int64_t> accessOffset(AffineMap map, ArrayRef<int64_t> dims,
                                    ArrayRef<int64_t> shape) {
  int64_t offset = 0;
  for (auto [expr, size] : llvm::zip_equal(map.getResults(), shape)) {
    int64_t v = evalExpr(expr, dims);
    if (v < 0 || v >= size)
      return std::nullopt;
    offset = offset * size + v;
  }
  return offset;
}

/// The constraint system whose integer points are the valid points.
IntegerSet buildValiditySet(ContractionOp op) {
  unsigned numDims = op.getNumIdxs();
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> eqFlags;
  auto addRange = [&](AffineMap map, ArrayRef<int64_t> shape) {
    for (auto [expr, size] : llvm::zip_equal(map.getResults(), shape)) {
      exprs.push_back(expr);
      exprs.push_back(getAffineConstantExpr(size - 1, ctx) - expr);
      eqFlags.append(2, false);
    }
  };
  addRange(op.getSink(), cast<RankedTensorType>(op.getType()).getShape());
  for (auto [attr, input] : llvm::zip_equal(op.getSrcs(), op.getInputs()))
    addRange(cast<AffineMapAttr>(attr).getValue(),
             cast<RankedTensorType>(input.getType()).getShape());
  // Recorded bounds are part of validity (tile-compute-bounds drops the
  // constraints they imply).
  if (op.hasBounds()) {
    for (unsigned d = 0; d < numDims; ++d) {
      AffineExpr x = getAffineDimExpr(d, ctx);
      exprs.push_back(x - (*op.getLowerBounds())[d]);
      exprs.push_back((*op.getUpperBounds())[d] - x);
      eqFlags.append(2, false);
    }
  }
  if (auto cons = op.getCons()) {
    IntegerSet set = *cons;
    for (unsigned i = 0; i < set.getNumConstraints(); ++i) {
      exprs.push_back(set.getConstraint(i));
      eqFlags.push_back(set.isEq(i));
    }
  }
  // IntegerSet::get needs a constraint to find its context: a contraction
  // of scalars (no index, no check) gets the one that always holds.
  if (exprs.empty()) {
    exprs.push_back(getAffineConstantExpr(0, ctx));
    eqFlags.push_back(false);
  }
  return IntegerSet::get(numDims, 0, exprs, eqFlags);
}

/// A box containing every valid point (rational bounds rounded outward), or
/// an empty optional when there is no valid point. Fails with an error on
/// an unbounded index.
FailureOr<std::optional<SmallVector<std::pair<int64_t, int64_t>>>>
relaxedBox(ContractionOp op) {
  using namespace presburger;
  FlatLinearValueConstraints cst(buildValiditySet(op));
  Simplex simplex(cst);
  if (simplex.isEmpty())
    return std::optional<SmallVector<std::pair<int64_t, int64_t>>>();
  SmallVector<std::pair<int64_t, int64_t>> box;
  for (unsigned d = 0, e = op.getNumIdxs(); d < e; ++d) {
    SmallVector<DynamicAPInt> coeffs(cst.getNumVars() + 1, DynamicAPInt(0));
    coeffs[d] = DynamicAPInt(1);
    MaybeOptimum<Fraction> lo =
        simplex.computeOptimum(Simplex::Direction::Down, coeffs);
    MaybeOptimum<Fraction> hi =
        simplex.computeOptimum(Simplex::Direction::Up, coeffs);
    if (!lo.isBounded() || !hi.isBounded()) {
      const char *side = !lo.isBounded() && !hi.isBounded()
                             ? "below and above"
                             : (!lo.isBounded() ? "below" : "above");
      return op.emitError("index '")
             << op.getIdxName(d) << "' is unbounded " << side
             << "; bound it with a tensor access or a constraint";
    }
    box.emplace_back(int64_t(presburger::ceil(*lo)),
                     int64_t(presburger::floor(*hi)));
  }
  return std::optional(box);
}

} // namespace

FailureOr<Buffer>
reference::evaluateContraction(ContractionOp op,
                               ArrayRef<const Buffer *> operands) {
  auto resultType = cast<RankedTensorType>(op.getType());
  Type outType = resultType.getElementType();
  FailureOr<Buffer> created = Buffer::create(resultType, op.getLoc());
  if (failed(created))
    return failure();
  Buffer &result = *created;
  const Buffer &init = *operands[0];
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    SmallVector<int64_t> coords = delinearize(i, resultType.getShape());
    writeScalar(result, i,
                readAs(init, broadcastIndex(coords, init.getType().getShape()),
                       outType));
  }

  auto box = relaxedBox(op);
  if (failed(box))
    return failure();
  if (!box->has_value())
    return created; // no valid point: the result is the init

  int64_t numPoints = 1;
  for (auto [lo, hi] : **box) {
    if (hi < lo)
      return created;
    int64_t extent = hi - lo + 1;
    if (extent > kMaxPoints / numPoints)
      return op.emitError("the reference interpreter would visit more than ")
             << kMaxPoints << " index points";
    numPoints *= extent;
  }

  ArrayRef<const Buffer *> inputs = operands.drop_front();
  SmallVector<AffineMap> srcs;
  for (Attribute a : op.getSrcs())
    srcs.push_back(cast<AffineMapAttr>(a).getValue());
  AffineMap sink = op.getSink();
  std::optional<IntegerSet> cons = op.getCons();
  AggregationKind agg = op.getAgg();
  CombinationKind combo = op.getCombo();

  // Types the combination is computed in (see tile.contract): add and mul
  // in the result type, which holds every input exactly (the verifier
  // checks it); eq and cond compare in the promoted input type.
  auto elem = [&](unsigned i) { return inputs[i]->getElementType(); };
  Type comboType = combo == CombinationKind::eq
                       ? IntegerType::get(op.getContext(), 1)
                   : combo == CombinationKind::cond ? elem(2)
                   : combo == CombinationKind::none ? elem(0)
                                                    : outType;
  // With add/mul/max/min the first visit of an element combines with init;
  // `assign` overwrites, and two writes to one element are an error: one
  // flag per output element records the writes.
  std::optional<Buffer> assigned;
  if (agg == AggregationKind::assign) {
    FailureOr<Buffer> flags = Buffer::create(
        RankedTensorType::get(resultType.getShape(),
                              IntegerType::get(op.getContext(), 1)),
        op.getLoc());
    if (failed(flags))
      return failure();
    assigned.emplace(std::move(*flags));
  }

  SmallVector<int64_t> point(op.getNumIdxs());
  SmallVector<int64_t> offsets(inputs.size());
  for (int64_t n = 0; n < numPoints; ++n) {
    int64_t rest = n;
    for (int64_t d = static_cast<int64_t>(point.size()) - 1; d >= 0; --d) {
      auto [lo, hi] = (**box)[d];
      point[d] = lo + rest % (hi - lo + 1);
      rest /= (hi - lo + 1);
    }
    if (cons) {
      bool ok = true;
      for (unsigned c = 0; ok && c < cons->getNumConstraints(); ++c) {
        int64_t v = evalExpr(cons->getConstraint(c), point);
        ok = cons->isEq(c) ? v == 0 : v >= 0;
      }
      if (!ok)
        continue;
    }
    std::optional<int64_t> out =
        accessOffset(sink, point, resultType.getShape());
    if (!out)
      continue;
    bool inRange = true;
    for (auto [k, map] : llvm::enumerate(srcs)) {
      std::optional<int64_t> off =
          accessOffset(map, point, inputs[k]->getType().getShape());
      if (!off) {
        inRange = false;
        break;
      }
      offsets[k] = *off;
    }
    if (!inRange)
      continue;

    std::string error;
    Scalar value;
    switch (combo) {
    case CombinationKind::none:
      value = readAs(*inputs[0], offsets[0], comboType);
      break;
    case CombinationKind::add:
    case CombinationKind::mul: {
      auto r = applyBinary(
          combo == CombinationKind::add ? BinaryKind::Add : BinaryKind::Mul,
          readAs(*inputs[0], offsets[0], outType),
          readAs(*inputs[1], offsets[1], outType), outType, error);
      value = *r; // add and mul are always specified
      break;
    }
    case CombinationKind::eq:
    case CombinationKind::cond: {
      Type eqType = promoteElementTypes(elem(0), elem(1));
      bool equal = compare("eq", readAs(*inputs[0], offsets[0], eqType),
                           readAs(*inputs[1], offsets[1], eqType), eqType);
      if (combo == CombinationKind::eq)
        value.i = equal;
      else if (equal)
        value = readAs(*inputs[2], offsets[2], comboType);
      break;
    }
    }
    value = convertScalar(value, comboType, outType);

    if (agg == AggregationKind::assign) {
      if (assigned->getInt(*out)) {
        InFlightDiagnostic diag =
            op.emitError("'assign' contraction writes output element [");
        llvm::interleaveComma(delinearize(*out, resultType.getShape()), diag);
        return diag << "] more than once";
      }
      assigned->setInt(*out, 1);
      writeScalar(result, *out, value);
      continue;
    }
    BinaryKind kind = agg == AggregationKind::add   ? BinaryKind::Add
                      : agg == AggregationKind::mul ? BinaryKind::Mul
                      : agg == AggregationKind::max ? BinaryKind::Max
                                                    : BinaryKind::Min;
    auto r =
        applyBinary(kind, readAs(result, *out, outType), value, outType, error);
    writeScalar(result, *out, *r);
  }
  return created;
}
