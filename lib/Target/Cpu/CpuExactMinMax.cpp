//===- CpuExactMinMax.cpp - Plain maximumf/minimumf on the CPU ------------===//
//
// plaidml-cpu-exact-min-max: removes the by-hand ordering of signed zeros
// that convert-tile-to-affine puts around every float max and min (for GPU
// drivers whose max returns either zero); LLVM lowers arith.maximumf and
// minimumf to IEEE 754 maximum and minimum, -0 < +0 included. Passes.td
// shows the pattern.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUEXACTMINMAXPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;

namespace {
/// Whether `v` is `cmpf oeq, x, 0.0` (either zero).
bool isZeroTest(Value v, Value x) {
  auto cmp = v.getDefiningOp<arith::CmpFOp>();
  return cmp && cmp.getPredicate() == arith::CmpFPredicate::OEQ &&
         cmp.getLhs() == x && matchPattern(cmp.getRhs(), m_AnyZeroFloat());
}

/// Whether `v` is `x + y`, in either order.
bool isSum(Value v, Value x, Value y) {
  auto add = v.getDefiningOp<arith::AddFOp>();
  return add && ((add.getLhs() == x && add.getRhs() == y) ||
                 (add.getLhs() == y && add.getRhs() == x));
}

/// Whether `v` is `-((-x) + (-y))`, in either order of the sum.
bool isNegatedSumOfNegations(Value v, Value x, Value y) {
  auto negOf = [](Value n) -> Value {
    auto op = n.getDefiningOp<arith::NegFOp>();
    return op ? op.getOperand() : Value();
  };
  auto add = negOf(v) ? negOf(v).getDefiningOp<arith::AddFOp>() : nullptr;
  if (!add)
    return false;
  Value a = negOf(add.getLhs()), b = negOf(add.getRhs());
  return a && b && ((a == x && b == y) || (a == y && b == x));
}

/// The maximumf or minimumf that `select` computes, when it is
/// select(x == 0 && y == 0, x + y, maximumf(x, y)) or
/// select(x == 0 && y == 0, -((-x) + (-y)), minimumf(x, y)); else null.
Value getPlainMinMax(arith::SelectOp select) {
  Value result = select.getFalseValue();
  Operation *minMax = result.getDefiningOp();
  if (!isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp>(minMax))
    return {};
  Value x = minMax->getOperand(0), y = minMax->getOperand(1);
  auto both = select.getCondition().getDefiningOp<arith::AndIOp>();
  if (!both ||
      !((isZeroTest(both.getLhs(), x) && isZeroTest(both.getRhs(), y)) ||
        (isZeroTest(both.getLhs(), y) && isZeroTest(both.getRhs(), x))))
    return {};
  Value combined = select.getTrueValue();
  bool matches = isa<arith::MaximumFOp>(minMax)
                     ? isSum(combined, x, y)
                     : isNegatedSumOfNegations(combined, x, y);
  return matches ? result : Value();
}

/// Erases `op` and, recursively, the operations it leaves without uses
/// (the comparisons, the sum) that have no other effect.
void eraseDead(Operation *op) {
  SmallVector<Operation *> work{op};
  DenseSet<Operation *> erased;
  while (!work.empty()) {
    Operation *dead = work.pop_back_val();
    if (erased.contains(dead) || !dead->use_empty() || !isPure(dead))
      continue;
    for (Value v : dead->getOperands())
      if (Operation *def = v.getDefiningOp())
        work.push_back(def);
    erased.insert(dead);
    dead->erase();
  }
}

struct CpuExactMinMaxPass
    : public plaidml::impl::CpuExactMinMaxPassBase<CpuExactMinMaxPass> {
  void runOnOperation() override {
    SmallVector<std::pair<arith::SelectOp, Value>> plain;
    getOperation().walk([&](arith::SelectOp select) {
      if (Value minMax = getPlainMinMax(select))
        plain.push_back({select, minMax});
    });
    for (auto [select, minMax] : plain) {
      select.getResult().replaceAllUsesWith(minMax);
      eraseDead(select);
    }
  }
};
} // namespace
