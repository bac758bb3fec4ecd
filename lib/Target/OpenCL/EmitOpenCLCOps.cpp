//===- EmitOpenCLCOps.cpp - arith, casts and math as OpenCL C -------------===//
//
// The KernelEmitter's translation of arith ops, casts and math ops into C
// expressions: signless values converted to the signed type an op names
// (divsi, cmpi slt, shrsi, sitofp), division guarded against traps, f16
// results rounded when f16 is emulated, math ops as OpenCL builtins.
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace mlir::plaidml::openclc {

void KernelEmitter::emitArith(Operation *op) {
  auto bin = [&](StringRef sym) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    Type t = op->getResult(0).getType();
    if (isa<FloatType>(t) || t.isIndex() || getIntWidth(t) >= 32)
      return name(a) + " " + sym.str() + " " + name(b);
    return narrow(asUnsigned(a) + " " + sym.str() + " " + asUnsigned(b), t);
  };
  auto bitwise = [&](StringRef sym) {
    return name(op->getOperand(0)) + " " + sym.str() + " " +
           name(op->getOperand(1));
  };
  auto divide = [&](StringRef kind) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    Type t = op->getResult(0).getType();
    bool isSigned = kind.ends_with("si");
    std::string helper = getDivHelper(program, kind, getIntWidth(t));
    std::string call = helper + "(" + (isSigned ? asSigned(a) : asUnsigned(a)) +
                       ", " + (isSigned ? asSigned(b) : asUnsigned(b)) + ")";
    return narrow(call, t);
  };
  auto shift = [&](bool left, bool isSigned) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    Type t = op->getResult(0).getType();
    std::string lhs = isSigned ? asSigned(a) : asUnsigned(a);
    std::string expr = lhs + (left ? " << " : " >> ") + asUnsigned(b);
    if (!isSigned && (t.isIndex() ? false : getIntWidth(t) >= 32))
      return expr;
    return narrow(expr, t);
  };
  auto pick = [&](bool isSigned, StringRef cmp) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    std::string x = isSigned ? asSigned(a) : asUnsigned(a);
    std::string y = isSigned ? asSigned(b) : asUnsigned(b);
    return x + " " + cmp.str() + " " + y + " ? " + name(a) + " : " + name(b);
  };
  auto fminmax = [&](bool isMax) {
    Type t = op->getResult(0).getType();
    return getMinMaxHelper(program, isMax, typeName(t)) + "(" +
           name(op->getOperand(0)) + ", " + name(op->getOperand(1)) + ")";
  };

  std::string expr =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<arith::AddFOp>([&](auto) { return bin("+"); })
          .Case<arith::SubFOp>([&](auto) { return bin("-"); })
          .Case<arith::MulFOp>([&](auto) { return bin("*"); })
          .Case<arith::DivFOp>([&](auto) { return bin("/"); })
          .Case<arith::RemFOp>([&](auto o) {
            return "fmod(" + name(o.getLhs()) + ", " + name(o.getRhs()) + ")";
          })
          .Case<arith::NegFOp>(
              [&](auto o) { return "-" + name(o.getOperand()); })
          .Case<arith::MaximumFOp>([&](auto) { return fminmax(true); })
          .Case<arith::MinimumFOp>([&](auto) { return fminmax(false); })
          .Case<arith::MaxNumFOp>([&](auto o) {
            return "fmax(" + name(o.getLhs()) + ", " + name(o.getRhs()) + ")";
          })
          .Case<arith::MinNumFOp>([&](auto o) {
            return "fmin(" + name(o.getLhs()) + ", " + name(o.getRhs()) + ")";
          })
          .Case<arith::AddIOp>([&](auto) { return bin("+"); })
          .Case<arith::SubIOp>([&](auto) { return bin("-"); })
          .Case<arith::MulIOp>([&](auto) { return bin("*"); })
          .Case<arith::AndIOp>([&](auto) { return bitwise("&"); })
          .Case<arith::OrIOp>([&](auto) { return bitwise("|"); })
          .Case<arith::XOrIOp>([&](auto) { return bitwise("^"); })
          .Case<arith::ShLIOp>([&](auto) { return shift(true, false); })
          .Case<arith::ShRUIOp>([&](auto) { return shift(false, false); })
          .Case<arith::ShRSIOp>([&](auto) { return shift(false, true); })
          .Case<arith::DivSIOp>([&](auto) { return divide("divsi"); })
          .Case<arith::DivUIOp>([&](auto) { return divide("divui"); })
          .Case<arith::RemSIOp>([&](auto) { return divide("remsi"); })
          .Case<arith::RemUIOp>([&](auto) { return divide("remui"); })
          .Case<arith::FloorDivSIOp>([&](auto) { return divide("floordivsi"); })
          .Case<arith::CeilDivSIOp>([&](auto) { return divide("ceildivsi"); })
          .Case<arith::CeilDivUIOp>([&](auto) { return divide("ceildivui"); })
          .Case<arith::MaxSIOp>([&](auto) { return pick(true, ">"); })
          .Case<arith::MinSIOp>([&](auto) { return pick(true, "<"); })
          .Case<arith::MaxUIOp>([&](auto) { return pick(false, ">"); })
          .Case<arith::MinUIOp>([&](auto) { return pick(false, "<"); })
          .Case<arith::SelectOp>([&](auto o) {
            return name(o.getCondition()) + " ? " + name(o.getTrueValue()) +
                   " : " + name(o.getFalseValue());
          })
          .Case<arith::CmpIOp>([&](arith::CmpIOp o) -> std::string {
            using P = arith::CmpIPredicate;
            Value a = o.getLhs(), b = o.getRhs();
            auto cmp = [&](bool isSigned, StringRef sym) {
              return (isSigned ? asSigned(a) : asUnsigned(a)) + " " +
                     sym.str() + " " + (isSigned ? asSigned(b) : asUnsigned(b));
            };
            switch (o.getPredicate()) {
            case P::eq:
              return name(a) + " == " + name(b);
            case P::ne:
              return name(a) + " != " + name(b);
            case P::slt:
              return cmp(true, "<");
            case P::sle:
              return cmp(true, "<=");
            case P::sgt:
              return cmp(true, ">");
            case P::sge:
              return cmp(true, ">=");
            case P::ult:
              return cmp(false, "<");
            case P::ule:
              return cmp(false, "<=");
            case P::ugt:
              return cmp(false, ">");
            case P::uge:
              return cmp(false, ">=");
            }
            llvm_unreachable("unknown cmpi predicate");
          })
          .Case<arith::CmpFOp>([&](arith::CmpFOp o) -> std::string {
            using P = arith::CmpFPredicate;
            std::string a = name(o.getLhs()), b = name(o.getRhs());
            switch (o.getPredicate()) {
            case P::AlwaysFalse:
              return "false";
            case P::AlwaysTrue:
              return "true";
            case P::OEQ:
              return a + " == " + b;
            case P::OGT:
              return a + " > " + b;
            case P::OGE:
              return a + " >= " + b;
            case P::OLT:
              return a + " < " + b;
            case P::OLE:
              return a + " <= " + b;
            case P::ONE:
              return "(" + a + " < " + b + " || " + a + " > " + b + ")";
            case P::ORD:
              return "(!isnan(" + a + ") && !isnan(" + b + "))";
            case P::UEQ:
              return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
            case P::UGT:
              return "!(" + a + " <= " + b + ")";
            case P::UGE:
              return "!(" + a + " < " + b + ")";
            case P::ULT:
              return "!(" + a + " >= " + b + ")";
            case P::ULE:
              return "!(" + a + " > " + b + ")";
            case P::UNE:
              return a + " != " + b;
            case P::UNO:
              return "(isnan(" + a + ") || isnan(" + b + "))";
            }
            llvm_unreachable("unknown cmpf predicate");
          })
          .Default([&](Operation *) { return std::string(); });
  if (expr.empty()) {
    emitCast(op);
    return;
  }
  assignComputed(op, expr);
}

void KernelEmitter::emitCast(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1) {
    unsupported(op);
    return;
  }
  Value in = op->getOperand(0);
  Type from = in.getType(), to = op->getResult(0).getType();
  std::string toName = typeName(to);
  // Set where the expression is already an f16 value (emulated f16).
  bool rounded = false;
  // An integer (or index) value converted to another integer type.
  auto toInt = [&](const std::string &wide) {
    if (to.isInteger(1))
      return "(" + wide + " & 1) != 0";
    if (StringRef(wide).starts_with("(" + toName + ")"))
      return wide;
    return "(" + toName + ")" + wide;
  };
  std::string expr =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<arith::ExtUIOp>([&](auto) { return toInt(asUnsigned(in)); })
          .Case<arith::ExtSIOp>([&](auto) { return toInt(asSigned(in)); })
          .Case<arith::TruncIOp>([&](auto) { return toInt(name(in)); })
          .Case<arith::IndexCastOp>([&](auto) {
            return to.isIndex() ? "(long)" + asSigned(in) : toInt(name(in));
          })
          .Case<arith::IndexCastUIOp>([&](auto) {
            return to.isIndex() ? "(long)" + asUnsigned(in) : toInt(name(in));
          })
          .Case<arith::SIToFPOp>(
              [&](auto) { return "(" + toName + ")" + asSigned(in); })
          .Case<arith::UIToFPOp>(
              [&](auto) { return "(" + toName + ")" + asUnsigned(in); })
          .Case<arith::FPToSIOp>([&](auto) -> std::string {
            unsigned w = getIntWidth(to);
            if (w == 1)
              return "(int)" + name(in) + " != 0";
            return "(" + toName + ")(" + getSignedTypeName(w < 32 ? 32 : w) +
                   ")" + name(in);
          })
          .Case<arith::FPToUIOp>([&](auto) -> std::string {
            unsigned w = getIntWidth(to);
            if (w == 1)
              return "(uint)" + name(in) + " != 0";
            if (w < 32)
              return "(" + toName + ")(uint)" + name(in);
            return "(" + toName + ")" + name(in);
          })
          .Case<arith::ExtFOp>([&](auto) -> std::string {
            // An emulated f16 is already a float.
            if (isEmulatedHalf(from) && to.isF32())
              return name(in);
            return "(" + toName + ")" + name(in);
          })
          .Case<arith::TruncFOp>([&](arith::TruncFOp o) -> std::string {
            if (o.getRoundingmodeAttr())
              return "";
            if (isEmulatedHalf(to)) {
              // Rounded once, from the double itself where it is one.
              rounded = true;
              if (from.isF64())
                return getRoundHalfHelper(program, /*fromDouble=*/true) + "(" +
                       name(in) + ")";
              return roundHalf(name(in));
            }
            return "(" + toName + ")" + name(in);
          })
          .Case<arith::BitcastOp>([&](auto) -> std::string {
            if (isa<FloatType>(from) == isa<FloatType>(to))
              return isa<FloatType>(from) ? "" : name(in);
            if (isEmulatedHalf(to)) {
              rounded = true;
              return getHalfBitsHelper(program, /*toBits=*/false) + "(" +
                     name(in) + ")";
            }
            if (isEmulatedHalf(from))
              return getHalfBitsHelper(program, /*toBits=*/true) + "(" +
                     name(in) + ")";
            return "as_" + toName + "(" + name(in) + ")";
          })
          .Default([&](Operation *) { return std::string(); });
  if (expr.empty()) {
    unsupported(op);
    return;
  }
  // sitofp, uitofp to an emulated f16: computed in float, then rounded.
  if (isEmulatedHalf(to) && !rounded)
    expr = roundHalf(expr);
  assign(op->getResult(0), expr);
}

void KernelEmitter::emitMath(Operation *op) {
  auto call = [&](StringRef fn) {
    std::string expr = fn.str() + "(";
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      expr += (i ? ", " : "") + name(v);
    return expr + ")";
  };
  std::string expr =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<math::AbsFOp>([&](auto) { return call("fabs"); })
          .Case<math::CeilOp>([&](auto) { return call("ceil"); })
          .Case<math::FloorOp>([&](auto) { return call("floor"); })
          .Case<math::TruncOp>([&](auto) { return call("trunc"); })
          .Case<math::RoundOp>([&](auto) { return call("round"); })
          .Case<math::RoundEvenOp>([&](auto) { return call("rint"); })
          .Case<math::SqrtOp>([&](auto) { return call("sqrt"); })
          .Case<math::RsqrtOp>([&](auto) { return call("rsqrt"); })
          .Case<math::CbrtOp>([&](auto) { return call("cbrt"); })
          .Case<math::ExpOp>([&](auto) { return call("exp"); })
          .Case<math::Exp2Op>([&](auto) { return call("exp2"); })
          .Case<math::ExpM1Op>([&](auto) { return call("expm1"); })
          .Case<math::LogOp>([&](auto) { return call("log"); })
          .Case<math::Log2Op>([&](auto) { return call("log2"); })
          .Case<math::Log10Op>([&](auto) { return call("log10"); })
          .Case<math::Log1pOp>([&](auto) { return call("log1p"); })
          .Case<math::SinOp>([&](auto) { return call("sin"); })
          .Case<math::CosOp>([&](auto) { return call("cos"); })
          .Case<math::TanOp>([&](auto) { return call("tan"); })
          .Case<math::SinhOp>([&](auto) { return call("sinh"); })
          .Case<math::CoshOp>([&](auto) { return call("cosh"); })
          .Case<math::TanhOp>([&](auto) { return call("tanh"); })
          .Case<math::AsinOp>([&](auto) { return call("asin"); })
          .Case<math::AcosOp>([&](auto) { return call("acos"); })
          .Case<math::AtanOp>([&](auto) { return call("atan"); })
          .Case<math::AsinhOp>([&](auto) { return call("asinh"); })
          .Case<math::AcoshOp>([&](auto) { return call("acosh"); })
          .Case<math::AtanhOp>([&](auto) { return call("atanh"); })
          .Case<math::Atan2Op>([&](auto) { return call("atan2"); })
          .Case<math::ErfOp>([&](auto) { return call("erf"); })
          .Case<math::ErfcOp>([&](auto) { return call("erfc"); })
          .Case<math::PowFOp>([&](auto) { return call("pow"); })
          .Case<math::CopySignOp>([&](auto) { return call("copysign"); })
          .Case<math::FmaOp>([&](auto) { return call("fma"); })
          .Case<math::FPowIOp>([&](math::FPowIOp o) {
            return "pown(" + name(o.getLhs()) + ", " + asSigned(o.getRhs()) +
                   ")";
          })
          .Case<math::IsNaNOp>([&](auto) { return call("isnan") + " != 0"; })
          .Case<math::IsInfOp>([&](auto) { return call("isinf") + " != 0"; })
          .Case<math::IsFiniteOp>(
              [&](auto) { return call("isfinite") + " != 0"; })
          .Case<math::AbsIOp>([&](math::AbsIOp o) -> std::string {
            Value a = o.getOperand();
            Type t = a.getType();
            return asSigned(a) + " < 0 ? " + narrow("-" + asSigned(a), t) +
                   " : " + name(a);
          })
          .Case<math::CountLeadingZerosOp>([&](auto o) -> std::string {
            if (o.getType().isInteger(1))
              return "";
            return "(" + getValueTypeName(o.getType()) + ")" + call("clz");
          })
          .Case<math::CtPopOp>([&](auto o) -> std::string {
            if (o.getType().isInteger(1))
              return "";
            return "(" + getValueTypeName(o.getType()) + ")" + call("popcount");
          })
          .Default([&](Operation *) { return std::string(); });
  if (expr.empty()) {
    unsupported(op);
    return;
  }
  assignComputed(op, expr);
}

} // namespace mlir::plaidml::openclc
