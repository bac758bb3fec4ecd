//===- Gradients.cpp - Reverse-mode differentiation of Tile IR ------------===//
//
// buildGradients: finds the ops of the block that lie on a path from a wrt
// value to the loss, walks them in reverse order and, for each, adds the
// contribution of its result's adjoint to the adjoints of its operands. A
// contraction's adjoint is a contraction over the same index space (same
// accesses, constraints, index names and recorded bounds) whose sink is the
// input's access and whose sources are the output's access and the other
// inputs: an `add` aggregation of `mul` becomes the usual transposed
// products, `max`/`min` send the adjoint to the elements equal to the result
// (a `cond` combination), `mul` aggregation divides the result by the input.
// Elementwise adjoints are summed back over the broadcast dimensions of each
// operand by a contraction.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/Transforms/Gradients.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/IR/TileTraits.h"
#include "plaidml/Dialect/Tile/IR/TileTypes.h"
#include "plaidml/Dialect/Tile/Utils/ContractionBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace mlir::plaidml::tile {
namespace {

bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

/// Emits the ops of the backward program.
class GradientBuilder {
public:
  GradientBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  /// A constant of `type` (any shape) filled with `value`.
  Value splat(RankedTensorType type, double value) {
    Type elem = type.getElementType();
    Attribute attr;
    if (auto ft = dyn_cast<FloatType>(elem))
      attr = FloatAttr::get(ft, value);
    else
      attr = IntegerAttr::get(elem, static_cast<int64_t>(value));
    return ConstantOp::create(b, loc, DenseElementsAttr::get(type, attr));
  }
  /// A rank-0 constant of element type `elem`.
  Value scalar(Type elem, double value) {
    return splat(RankedTensorType::get({}, elem), value);
  }
  Value scalarLike(Value v, double value) {
    return scalar(typeOf(v).getElementType(), value);
  }

  template <typename OpT> Value binary(Value lhs, Value rhs) {
    Type type = inferElementwiseResultType(
        TypeRange{lhs.getType(), rhs.getType()}, ElementwiseRule::Arithmetic);
    return OpT::create(b, loc, type, lhs, rhs);
  }
  Value add(Value a, Value c) { return binary<AddOp>(a, c); }
  Value sub(Value a, Value c) { return binary<SubOp>(a, c); }
  Value mul(Value a, Value c) { return binary<MulOp>(a, c); }
  Value div(Value a, Value c) { return binary<DivOp>(a, c); }
  Value neg(Value a) { return NegOp::create(b, loc, a.getType(), a); }
  template <typename OpT> Value unary(Value a) {
    return OpT::create(b, loc, a.getType(), a);
  }
  Value cmp(CmpPredicate pred, Value lhs, Value rhs) {
    Type type = inferElementwiseResultType(
        TypeRange{lhs.getType(), rhs.getType()}, ElementwiseRule::Predicate);
    return CmpOp::create(b, loc, type,
                         CmpPredicateAttr::get(b.getContext(), pred), lhs, rhs);
  }
  /// `cond ? t : f` (t's element type wins; f is usually a scalar zero).
  Value select(Value cond, Value t, Value f) {
    auto shape = broadcastShapes(
        {typeOf(cond).getShape(), typeOf(t).getShape(), typeOf(f).getShape()});
    Type elem = promoteElementTypes(typeOf(t).getElementType(),
                                    typeOf(f).getElementType());
    return SelectOp::create(b, loc, RankedTensorType::get(*shape, elem), cond,
                            t, f);
  }
  Value castTo(Value v, Type elem) {
    if (typeOf(v).getElementType() == elem)
      return v;
    return CastOp::create(b, loc, typeOf(v).clone(elem), v);
  }

  /// `g` (the shape of a broadcast result) summed over the dimensions that
  /// broadcasting added or stretched, and converted to `target`.
  Value fit(Value g, RankedTensorType target) {
    RankedTensorType gt = typeOf(g);
    if (gt.getShape() != target.getShape()) {
      ArrayRef<int64_t> from = gt.getShape(), to = target.getShape();
      unsigned r = from.size(), t = to.size();
      SmallVector<AffineExpr> sinkExprs;
      for (unsigned j = 0; j < t; ++j) {
        unsigned d = r - t + j;
        if (to[j] == 1 && from[d] != 1)
          sinkExprs.push_back(b.getAffineConstantExpr(0));
        else
          sinkExprs.push_back(b.getAffineDimExpr(d));
      }
      AffineMap sink = AffineMap::get(r, 0, sinkExprs, b.getContext());
      AffineMap src = AffineMap::getMultiDimIdentityMap(r, b.getContext());
      auto resultType = RankedTensorType::get(to, gt.getElementType());
      g = ContractionOp::create(
          b, loc, resultType, AggregationKind::add, CombinationKind::none,
          scalar(gt.getElementType(), 0.0), ValueRange{g}, sink,
          b.getAffineMapArrayAttr({src}), IntegerSetAttr(), ArrayAttr(),
          DenseI64ArrayAttr(), DenseI64ArrayAttr());
    }
    return castTo(g, target.getElementType());
  }

  /// `op`'s constraints together with the range checks of the input
  /// accesses in `dropped`: a gradient contraction that leaves out a forward
  /// access must still exclude the points that access excluded.
  IntegerSetAttr indexSpaceOf(ContractionOp op, ArrayRef<unsigned> dropped) {
    SmallVector<AffineExpr> exprs;
    SmallVector<bool> eqFlags;
    unsigned numSymbols = 0;
    if (IntegerSetAttr cons = op.getConsAttr()) {
      IntegerSet set = cons.getValue();
      numSymbols = set.getNumSymbols();
      llvm::append_range(exprs, set.getConstraints());
      llvm::append_range(eqFlags, set.getEqFlags());
    }
    for (unsigned i : dropped) {
      AffineMap map = cast<AffineMapAttr>(op.getSrcs()[i]).getValue();
      ArrayRef<int64_t> shape = typeOf(op.getInputs()[i]).getShape();
      for (unsigned k = 0; k < map.getNumResults(); ++k) {
        AffineExpr e = map.getResult(k);
        exprs.push_back(e);
        exprs.push_back(b.getAffineConstantExpr(shape[k] - 1) - e);
        eqFlags.append(2, false);
      }
    }
    if (exprs.empty())
      return IntegerSetAttr();
    return IntegerSetAttr::get(
        IntegerSet::get(op.getNumIdxs(), numSymbols, exprs, eqFlags));
  }

  /// A contraction like `op` (index space, constraints, names, bounds) with
  /// `agg` (add), `combo`, `inputs` accessed by `srcs`, written at `sink`
  /// into a tensor shaped like `like`, converted to `like`'s element type.
  Value contractLike(ContractionOp op, CombinationKind combo,
                     ArrayRef<Value> inputs, ArrayRef<AffineMap> srcs,
                     AffineMap sink, RankedTensorType like,
                     ArrayRef<unsigned> dropped = {}) {
    SmallVector<Type> elems;
    for (Value v : inputs)
      elems.push_back(typeOf(v).getElementType());
    Type elem = getContractionElementType(AggregationKind::add, combo, elems);
    auto resultType = RankedTensorType::get(like.getShape(), elem);
    Value r = ContractionOp::create(
        b, loc, resultType, AggregationKind::add, combo, scalar(elem, 0.0),
        inputs, sink, b.getAffineMapArrayAttr(srcs), indexSpaceOf(op, dropped),
        op.getIdxsAttr(), op.getLowerBoundsAttr(), op.getUpperBoundsAttr());
    return castTo(r, like.getElementType());
  }

  OpBuilder &b;
  Location loc;
};

} // namespace

FailureOr<SmallVector<Value>> buildGradients(OpBuilder &builder, Value loss,
                                             ArrayRef<Value> wrt) {
  Location loc = loss.getLoc();
  if (!isFloatTensor(loss))
    return emitError(loc) << "the loss must be a float tensor, not "
                          << loss.getType();
  Block *block = loss.getParentBlock();
  for (Value w : wrt) {
    if (!isFloatTensor(w))
      return emitError(w.getLoc())
             << "cannot differentiate with respect to a value of type "
             << w.getType() << " (only float tensors have gradients)";
    if (w.getParentBlock() != block)
      return emitError(w.getLoc()) << "a value to differentiate with respect "
                                      "to is not in the loss's block";
  }

  // The ops from the first wrt use to the loss, and which values are
  // active: float values that depend on a wrt value and that the loss
  // depends on.
  llvm::DenseSet<Value> fromWrt(wrt.begin(), wrt.end());
  SmallVector<Operation *> ops;
  Operation *lossOp = loss.getDefiningOp();
  if (lossOp) {
    for (Operation &op : *block) {
      bool any = false;
      for (Value operand : op.getOperands())
        any |= fromWrt.contains(operand);
      if (any) {
        for (Value r : op.getResults())
          if (isFloatTensor(r))
            fromWrt.insert(r);
        ops.push_back(&op);
      }
      if (&op == lossOp)
        break;
    }
  }
  llvm::DenseSet<Value> toLoss{loss};
  SmallVector<Operation *> path;
  for (Operation *op : llvm::reverse(ops)) {
    bool any = false;
    for (Value r : op->getResults())
      any |= toLoss.contains(r);
    if (!any)
      continue;
    path.push_back(op);
    for (Value operand : op->getOperands())
      if (fromWrt.contains(operand))
        toLoss.insert(operand);
  }
  auto active = [&](Value v) {
    return fromWrt.contains(v) && toLoss.contains(v);
  };

  GradientBuilder g(builder, loc);
  llvm::DenseMap<Value, Value> adjoint;
  auto accumulate = [&](Value v, Value contribution) {
    if (!active(v) || !contribution)
      return;
    contribution = g.fit(contribution, g.typeOf(v));
    auto it = adjoint.find(v);
    if (it == adjoint.end())
      adjoint[v] = contribution;
    else
      it->second = g.add(it->second, contribution);
  };
  adjoint[loss] = g.splat(g.typeOf(loss), 1.0);

  for (Operation *op : path) {
    Value result = op->getResult(0);
    auto it = adjoint.find(result);
    if (it == adjoint.end())
      continue;
    Value d = it->second;
    g.loc = op->getLoc();
    auto operand = [&](unsigned i) { return op->getOperand(i); };
    Value zeroValue;
    auto zeroOf = [&]() {
      if (!zeroValue)
        zeroValue = g.scalarLike(d, 0.0);
      return zeroValue;
    };

    if (isa<AddOp>(op)) {
      accumulate(operand(0), d);
      accumulate(operand(1), d);
    } else if (isa<SubOp>(op)) {
      accumulate(operand(0), d);
      if (active(operand(1)))
        accumulate(operand(1), g.neg(d));
    } else if (isa<MulOp>(op)) {
      if (active(operand(0)))
        accumulate(operand(0), g.mul(d, operand(1)));
      if (active(operand(1)))
        accumulate(operand(1), g.mul(d, operand(0)));
    } else if (isa<DivOp>(op)) {
      if (active(operand(0)))
        accumulate(operand(0), g.div(d, operand(1)));
      if (active(operand(1)))
        accumulate(operand(1), g.neg(g.div(g.mul(d, result), operand(1))));
    } else if (isa<ModOp>(op)) {
      // a mod b = a - trunc(a / b) * b.
      accumulate(operand(0), d);
      if (active(operand(1)))
        accumulate(operand(1), g.neg(g.mul(d, g.div(g.sub(operand(0), result),
                                                    operand(1)))));
    } else if (isa<PowOp>(op)) {
      Value a = operand(0), e = operand(1);
      if (active(a)) {
        Value em1 = g.sub(e, g.scalarLike(e, 1.0));
        accumulate(a, g.mul(d, g.mul(e, g.binary<PowOp>(a, em1))));
      }
      if (active(e))
        accumulate(e, g.mul(d, g.mul(result, g.unary<LogOp>(a))));
    } else if (isa<MaxOp, MinOp>(op)) {
      // Ties go to the left operand.
      bool isMax = isa<MaxOp>(op);
      Value a = operand(0), c = operand(1);
      Value pickA = g.cmp(isMax ? CmpPredicate::ge : CmpPredicate::le, a, c);
      accumulate(a, g.select(pickA, d, zeroOf()));
      accumulate(c, g.select(pickA, zeroOf(), d));
    } else if (isa<NegOp>(op)) {
      accumulate(operand(0), g.neg(d));
    } else if (isa<AbsOp>(op)) {
      Value x = operand(0);
      accumulate(x, g.select(g.cmp(CmpPredicate::lt, x, g.scalarLike(x, 0.0)),
                             g.neg(d), d));
    } else if (isa<ReluOp>(op)) {
      Value x = operand(0);
      accumulate(x, g.select(g.cmp(CmpPredicate::gt, x, g.scalarLike(x, 0.0)),
                             d, zeroOf()));
    } else if (isa<ExpOp>(op)) {
      accumulate(operand(0), g.mul(d, result));
    } else if (isa<LogOp>(op)) {
      accumulate(operand(0), g.div(d, operand(0)));
    } else if (isa<SqrtOp>(op)) {
      accumulate(operand(0), g.div(g.mul(d, g.scalarLike(d, 0.5)), result));
    } else if (isa<TanhOp>(op)) {
      accumulate(operand(0),
                 g.mul(d, g.sub(g.scalarLike(d, 1.0), g.mul(result, result))));
    } else if (isa<SigmoidOp>(op)) {
      accumulate(operand(0),
                 g.mul(d, g.mul(result, g.sub(g.scalarLike(d, 1.0), result))));
    } else if (isa<SinOp>(op)) {
      accumulate(operand(0), g.mul(d, g.unary<CosOp>(operand(0))));
    } else if (isa<CosOp>(op)) {
      accumulate(operand(0), g.neg(g.mul(d, g.unary<SinOp>(operand(0)))));
    } else if (isa<ErfOp>(op)) {
      Value x = operand(0);
      Value e = g.unary<ExpOp>(g.neg(g.mul(x, x)));
      accumulate(
          x,
          g.mul(d,
                g.mul(e, g.scalarLike(x, 2.0 / std::sqrt(llvm::numbers::pi)))));
    } else if (isa<FloorOp, CeilOp, RoundOp>(op)) {
      // Piecewise constant: no contribution.
    } else if (auto sel = dyn_cast<SelectOp>(op)) {
      accumulate(sel.getTrueValue(), g.select(sel.getCond(), d, zeroOf()));
      accumulate(sel.getFalseValue(), g.select(sel.getCond(), zeroOf(), d));
    } else if (isa<CastOp>(op)) {
      accumulate(operand(0), d);
    } else if (isa<ReshapeOp>(op)) {
      accumulate(operand(0),
                 ReshapeOp::create(
                     builder, g.loc,
                     g.typeOf(operand(0)).clone(g.typeOf(d).getElementType()),
                     d));
    } else if (auto gather = dyn_cast<GatherOp>(op)) {
      // gather clamps its indices; scatter the adjoint to the same
      // (clamped) positions, summing repeats.
      Value t = gather.getTensor(), idx = gather.getIndices();
      int64_t axis = gather.getAxis();
      int64_t n = g.typeOf(t).getDimSize(axis);
      Value clamped = g.binary<MaxOp>(
          g.binary<MinOp>(idx, g.scalarLike(idx, static_cast<double>(n - 1))),
          g.scalarLike(idx, 0.0));
      accumulate(
          t, ScatterOp::create(builder, g.loc,
                               g.typeOf(t).clone(g.typeOf(d).getElementType()),
                               d, clamped, static_cast<uint64_t>(axis)));
    } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
      // scatter drops out-of-range indices: gather the adjoint back and
      // zero the updates that went nowhere.
      Value u = scatter.getUpdates(), idx = scatter.getIndices();
      int64_t axis = scatter.getAxis();
      int64_t n = g.typeOf(result).getDimSize(axis);
      Value gathered = GatherOp::create(
          builder, g.loc, g.typeOf(u).clone(g.typeOf(d).getElementType()), d,
          idx, static_cast<uint64_t>(axis));
      Value inRange = g.binary<LogicalAndOp>(
          g.cmp(CmpPredicate::ge, idx, g.scalarLike(idx, 0.0)),
          g.cmp(CmpPredicate::lt, idx,
                g.scalarLike(idx, static_cast<double>(n))));
      // Line the mask up with the index dimensions of the updates.
      SmallVector<int64_t> maskShape(axis, 1);
      llvm::append_range(maskShape, g.typeOf(idx).getShape());
      maskShape.resize(g.typeOf(u).getRank(), 1);
      Value mask = ReshapeOp::create(
          builder, g.loc, RankedTensorType::get(maskShape, builder.getI1Type()),
          inRange);
      accumulate(u, g.select(mask, gathered, zeroOf()));
    } else if (auto con = dyn_cast<ContractionOp>(op)) {
      AggregationKind agg = con.getAgg();
      CombinationKind combo = con.getCombo();
      AffineMap sink = con.getSink();
      SmallVector<AffineMap> srcs;
      for (Attribute a : con.getSrcs())
        srcs.push_back(cast<AffineMapAttr>(a).getValue());
      SmallVector<Value> ins(con.getInputs());
      auto inType = [&](unsigned i) { return g.typeOf(ins[i]); };

      if (active(con.getInit())) {
        if (agg == AggregationKind::add) {
          accumulate(con.getInit(), d);
        } else if (agg == AggregationKind::assign) {
          // The elements no valid point writes keep the init.
          Value one = g.scalar(g.typeOf(d).getElementType(), 1.0);
          Value written = ContractionOp::create(
              builder, g.loc, g.typeOf(d), AggregationKind::assign,
              CombinationKind::none, zeroOf(), ValueRange{one}, sink,
              builder.getAffineMapArrayAttr(
                  {AffineMap::get(sink.getNumDims(), 0, builder.getContext())}),
              g.indexSpaceOf(
                  con, llvm::to_vector(llvm::seq<unsigned>(0, ins.size()))),
              con.getIdxsAttr(), con.getLowerBoundsAttr(),
              con.getUpperBoundsAttr());
          accumulate(con.getInit(), g.mul(d, g.sub(one, written)));
        } else {
          return op->emitOpError()
                 << "has no gradient with respect to its init (aggregation '"
                 << stringifyAggregationKind(agg) << "')";
        }
      }

      if (agg == AggregationKind::add || agg == AggregationKind::assign) {
        switch (combo) {
        case CombinationKind::none:
        case CombinationKind::add:
          for (unsigned i = 0; i < ins.size(); ++i) {
            if (!active(ins[i]))
              continue;
            SmallVector<unsigned> others;
            for (unsigned j = 0; j < ins.size(); ++j)
              if (j != i)
                others.push_back(j);
            accumulate(ins[i],
                       g.contractLike(con, CombinationKind::none, {d}, {sink},
                                      srcs[i], inType(i), others));
          }
          break;
        case CombinationKind::mul:
          for (unsigned i = 0; i < 2; ++i)
            if (active(ins[i]))
              accumulate(ins[i], g.contractLike(
                                     con, CombinationKind::mul, {d, ins[1 - i]},
                                     {sink, srcs[1 - i]}, srcs[i], inType(i)));
          break;
        case CombinationKind::cond:
          if (active(ins[2]))
            accumulate(ins[2], g.contractLike(con, CombinationKind::cond,
                                              {ins[0], ins[1], d},
                                              {srcs[0], srcs[1], sink}, srcs[2],
                                              inType(2)));
          break;
        case CombinationKind::eq:
          break;
        }
      } else if ((agg == AggregationKind::max || agg == AggregationKind::min) &&
                 combo == CombinationKind::none) {
        // To every input element equal to the result it reached.
        if (active(ins[0]))
          accumulate(ins[0],
                     g.contractLike(con, CombinationKind::cond,
                                    {ins[0], result, d}, {srcs[0], sink, sink},
                                    srcs[0], inType(0)));
      } else if (agg == AggregationKind::mul &&
                 combo == CombinationKind::none) {
        // d(prod)/dx = prod / x (inputs must be nonzero).
        if (active(ins[0])) {
          Value scaled = g.mul(d, result);
          Value inv = g.div(g.scalarLike(ins[0], 1.0), ins[0]);
          accumulate(ins[0],
                     g.contractLike(con, CombinationKind::mul, {scaled, inv},
                                    {sink, srcs[0]}, srcs[0], inType(0)));
        }
      } else {
        return op->emitOpError()
               << "has no gradient: aggregation '"
               << stringifyAggregationKind(agg) << "' of combination '"
               << stringifyCombinationKind(combo) << "'";
      }
    } else {
      return op->emitOpError() << "has no gradient rule";
    }
  }

  SmallVector<Value> grads;
  for (Value w : wrt) {
    auto it = adjoint.find(w);
    grads.push_back(it != adjoint.end() ? it->second
                                        : g.splat(g.typeOf(w), 0.0));
  }
  return grads;
}

} // namespace mlir::plaidml::tile
