//===- EmitOpenCLC.cpp - Outlined GPU kernels as OpenCL C 1.2 -------------===//
//
// translateGpuModuleToOpenCLC: prints the gpu.funcs of a gpu.module as one
// OpenCL C 1.2 program. Every op result becomes a C variable (`uint v3 =
// v1 + v2;`), constants become literals at their uses, scf loops and ifs
// become C loops and ifs with their carried values in variables declared
// before them. Signless integers are held in unsigned C types, whose
// arithmetic wraps as arith's does (signed overflow would be undefined in
// C), and each op that cares converts to the signed type it names
// (arith.divsi, cmpi slt, shrsi, sitofp). Whatever has no translation is an
// error at the op, never a guess. docs/OpenCLPipeline.md lists the subset.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

#include "plaidml/Runtime/KernelBundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/IndentedOstream.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::plaidml;

namespace {

//===----------------------------------------------------------------------===//
// Types and literals
//===----------------------------------------------------------------------===//

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

bool isSupportedIntWidth(unsigned w) {
  return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
}

/// Bits of an integer or index value (index is held in a `long`).
unsigned getIntWidth(Type type) {
  if (type.isIndex())
    return 64;
  return cast<IntegerType>(type).getWidth();
}

/// The C type holding a value: signless integers unsigned, i1 as bool,
/// index as long.
std::string getValueTypeName(Type type) {
  if (type.isIndex())
    return "long";
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    switch (intTy.getWidth()) {
    case 1:
      return "bool";
    case 8:
      return "uchar";
    case 16:
      return "ushort";
    case 32:
      return "uint";
    default:
      return "ulong";
    }
  }
  if (type.isF16())
    return "half";
  if (type.isF64())
    return "double";
  return "float";
}

/// The C element type of a buffer: i1 as bytes, like the host and the
/// Vulkan kernels.
std::string getBufferElementTypeName(Type type) {
  if (type.isInteger(1))
    return "uchar";
  if (type.isBF16())
    return "ushort";
  return getValueTypeName(type);
}

/// The signed C type of `width` bits.
std::string getSignedTypeName(unsigned width) {
  switch (width) {
  case 8:
    return "char";
  case 16:
    return "short";
  case 32:
    return "int";
  default:
    return "long";
  }
}

/// The shortest decimal spelling of `value` that reads back exactly as a
/// float (or as a double), with a fraction or exponent so that C reads it
/// as floating point.
std::string formatFloat(double value, bool isDouble) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (isDouble ? std::strtod(buf, nullptr) == value
                 : std::strtof(buf, nullptr) == static_cast<float>(value))
      break;
  }
  std::string text = buf;
  if (text.find_first_of(".en") == std::string::npos)
    text += ".0";
  return text;
}

/// `halfAsFloat`: an f16 value is held in a float (no cl_khr_fp16); the
/// literal is the f16 value, which a float holds exactly.
std::string getFloatLiteral(const APFloat &value, Type type,
                            bool halfAsFloat = false) {
  std::string text;
  bool isDouble = type.isF64();
  if (value.isNaN()) {
    text = "NAN";
  } else if (value.isInfinity()) {
    text = value.isNegative() ? "(-INFINITY)" : "INFINITY";
  } else {
    APFloat wide = value;
    bool losesInfo;
    wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
    text = formatFloat(wide.convertToDouble(), isDouble);
    if (!isDouble)
      text += "f";
    if (text[0] == '-')
      text = "(" + text + ")";
    if (isDouble || type.isF32() || (type.isF16() && halfAsFloat))
      return text;
  }
  if (isDouble)
    return "((double)" + text + ")";
  if (type.isF16() && !halfAsFloat)
    return "((half)" + text + ")";
  return text;
}

std::string getIntLiteral(const APInt &value, Type type) {
  if (type.isInteger(1))
    return value.isZero() ? "false" : "true";
  if (type.isIndex()) {
    int64_t v = value.getSExtValue();
    if (v == INT64_MIN)
      return "(-9223372036854775807L - 1L)";
    // int literals convert to long where they meet the long variables.
    std::string text = std::to_string(v);
    if (v < INT32_MIN || v > INT32_MAX)
      text += "L";
    return v < 0 ? "(" + text + ")" : text;
  }
  unsigned w = value.getBitWidth();
  std::string suffix = w == 64 ? "ul" : "u";
  // Small negative numbers read better as such: (uint)-1.
  int64_t s = value.getSExtValue();
  if (s < 0 && s >= -65536)
    return "((" + getValueTypeName(type) + ")-" + std::to_string(-s) + ")";
  return std::to_string(value.getZExtValue()) + suffix;
}

//===----------------------------------------------------------------------===//
// The program: helpers the kernels call, extensions they need
//===----------------------------------------------------------------------===//

struct Program {
  bool needsFp16 = false;
  bool needsFp64 = false;
  /// Definitions of the helper functions, in first-use order.
  std::vector<std::string> helpers;
  llvm::StringSet<> helperNames;

  /// Returns `name`, defining it from `definition` on first use.
  std::string use(const std::string &name, const std::string &definition) {
    if (helperNames.insert(name).second)
      helpers.push_back(definition);
    return name;
  }
};

/// `float plaidml_round_half(float x)`: x rounded to the nearest f16 (ties
/// to even), as a float. Without cl_khr_fp16, f16 values are held in floats
/// and every op that produces one rounds its float result with this, as
/// the CPU and the reference interpreter round each f16 op. vstore_half_rte
/// and vload_half are OpenCL C 1.2 core; so are pointers to half.
std::string getRoundHalfHelper(Program &program, bool fromDouble) {
  StringRef type = fromDouble ? "double" : "float";
  std::string name =
      fromDouble ? "plaidml_round_half_double" : "plaidml_round_half";
  std::string def;
  llvm::raw_string_ostream os(def);
  os << "float " << name << "(" << type << " x) {\n"
     << "  ushort bits;\n"
     << "  vstore_half_rte(x, 0, (__private half *)&bits);\n"
     << "  return vload_half(0, (__private const half *)&bits);\n"
     << "}\n";
  return program.use(name, def);
}

/// The bits of an f16 held in a float, and back (arith.bitcast without
/// cl_khr_fp16, where there is no as_half).
std::string getHalfBitsHelper(Program &program, bool toBits) {
  std::string def;
  llvm::raw_string_ostream os(def);
  if (toBits)
    os << "ushort plaidml_half_to_bits(float x) {\n"
       << "  ushort bits;\n"
       << "  vstore_half_rte(x, 0, (__private half *)&bits);\n"
       << "  return bits;\n"
       << "}\n";
  else
    os << "float plaidml_half_from_bits(ushort bits) {\n"
       << "  return vload_half(0, (__private const half *)&bits);\n"
       << "}\n";
  return program.use(toBits ? "plaidml_half_to_bits" : "plaidml_half_from_bits",
                     def);
}

/// `T plaidml_maximumf_T(T a, T b)` and friends: arith.maximumf/minimumf
/// propagate NaN and order -0 below +0; OpenCL's fmax/fmin return the other
/// operand for NaN.
std::string getMinMaxHelper(Program &program, bool isMax, StringRef type) {
  std::string name =
      (Twine("plaidml_") + (isMax ? "maximumf_" : "minimumf_") + type).str();
  std::string def;
  llvm::raw_string_ostream os(def);
  os << type << " " << name << "(" << type << " a, " << type << " b) {\n"
     << "  if (isnan(a) || isnan(b))\n"
     << "    return a + b;\n"
     << "  if (a == b)\n"
     << "    return signbit(a) ? " << (isMax ? "b" : "a") << " : "
     << (isMax ? "a" : "b") << ";\n"
     << "  return a " << (isMax ? ">" : "<") << " b ? a : b;\n"
     << "}\n";
  return program.use(name, def);
}

/// Integer division and remainder that cannot trap: the divisor becomes 1
/// where it is 0 or where MIN / -1 would overflow (x86's idiv faults on both,
/// and PoCL runs kernels on the host CPU). The Tile lowering guards these
/// already (ScalarOps.cpp); this keeps hand-written IR from crashing the
/// process too.
std::string getDivHelper(Program &program, StringRef kind, unsigned width) {
  bool isSigned = kind.ends_with("si");
  std::string type =
      isSigned ? getSignedTypeName(width < 32 ? 32 : width)
               : (width <= 32 ? std::string("uint") : std::string("ulong"));
  std::string name = ("plaidml_" + kind + "_" + type).str();
  std::string def;
  llvm::raw_string_ostream os(def);
  os << type << " " << name << "(" << type << " a, " << type << " b) {\n";
  if (isSigned)
    os << "  if (b == 0 || (a == " << (type == "int" ? "INT_MIN" : "LONG_MIN")
       << " && b == -1))\n";
  else
    os << "  if (b == 0)\n";
  os << "    b = 1;\n";
  if (kind == "divsi" || kind == "divui")
    os << "  return a / b;\n";
  else if (kind == "remsi" || kind == "remui")
    os << "  return a % b;\n";
  else if (kind == "floordivsi")
    os << "  " << type << " q = a / b;\n"
       << "  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;\n";
  else if (kind == "ceildivsi")
    os << "  " << type << " q = a / b;\n"
       << "  return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;\n";
  else // ceildivui
    os << "  return a / b + (a % b != 0 ? 1 : 0);\n";
  os << "}\n";
  return program.use(name, def);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

class KernelEmitter {
public:
  KernelEmitter(const OpenCLCOptions &options, Program &program,
                raw_indented_ostream &os)
      : options(options), program(program), os(os) {}

  LogicalResult emitKernel(gpu::GPUFuncOp func);

private:
  // Diagnostics: every problem is reported once per op name, message and
  // location; emission goes on so that all of them are seen.
  void error(Operation *op, const Twine &message);
  void unsupported(Operation *op) {
    error(op, "has no OpenCL C translation yet");
  }
  /// Checks that the device can hold `type`, reporting at `op` with `what`
  /// ("computes on", "reads", "writes") otherwise.
  bool checkType(Operation *op, Type type, StringRef what,
                 StringRef where = "");
  bool checkOpTypes(Operation *op);

  /// Without cl_khr_fp16, f16 values are held in floats (rounded to f16
  /// after every op) and f16 buffers are read and written with
  /// vload_half/vstore_half_rte.
  bool isEmulatedHalf(Type type) const { return type.isF16() && !options.fp16; }
  /// The C type holding a value of `type` (f16 as float when emulated).
  std::string typeName(Type type) const {
    return isEmulatedHalf(type) ? "float" : getValueTypeName(type);
  }
  /// `expr` (a float) rounded to f16.
  std::string roundHalf(const std::string &expr) {
    return getRoundHalfHelper(program, /*fromDouble=*/false) + "(" + expr + ")";
  }
  /// Declares a variable for the f16-or-other result of a computing op,
  /// rounding an emulated f16 result unless the op is exact on f16 values.
  void assignComputed(Operation *op, const std::string &expr);

  // Names and expressions.
  std::string name(Value v) { return names.lookup(v); }
  std::string newName() { return "v" + std::to_string(nextId++); }
  /// Declares a variable for `result` holding `expr`.
  void assign(Value result, const std::string &expr);
  /// `v` widened to uint/ulong (zero-extended) or int/long (sign-extended).
  std::string asUnsigned(Value v);
  std::string asSigned(Value v);
  /// An expression computed in uint/ulong or int/long, back in `type`.
  std::string narrow(const std::string &expr, Type type);
  std::string linearIndex(Operation *op, Value memref, ValueRange indices);

  // Ops.
  void emitBlock(Block &block);
  void emitOp(Operation *op);
  void emitArith(Operation *op);
  void emitCast(Operation *op);
  void emitMath(Operation *op);
  void emitFor(scf::ForOp op);
  void emitIf(scf::IfOp op);
  void emitWhile(scf::WhileOp op);
  /// Declares one variable per value of `values` (uninitialized, or from
  /// `inits`) and returns their names.
  SmallVector<std::string> declare(ValueRange values, ValueRange inits = {});
  /// `targets[i] = values[i]`, through temporaries when one value may be
  /// another target.
  void assignAll(ArrayRef<std::string> targets, ValueRange values);

  const OpenCLCOptions &options;
  Program &program;
  raw_indented_ostream &os;
  DenseMap<Value, std::string> names;
  /// memref.alloca results: private arrays, f16 ones held as floats.
  llvm::SmallPtrSet<Value, 4> privateBuffers;
  unsigned nextId = 0;
  llvm::StringSet<> reported;
  bool hadError = false;
};

void KernelEmitter::error(Operation *op, const Twine &message) {
  hadError = true;
  std::string text =
      ("'" + op->getName().getStringRef() + "' " + message).str();
  std::string key;
  llvm::raw_string_ostream keyOs(key);
  keyOs << op->getLoc() << text;
  if (reported.insert(key).second)
    op->emitError(text);
}

bool KernelEmitter::checkType(Operation *op, Type type, StringRef what,
                              StringRef where) {
  auto missing = [&](StringRef ext, StringRef option) {
    error(op, what + " " + typeString(type) + where +
                  ", which needs the OpenCL extension " + ext + " (option " +
                  option + "); " + options.device + " does not have it");
    return false;
  };
  if (type.isIndex())
    return true;
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    if (isSupportedIntWidth(intTy.getWidth()))
      return true;
  } else if (type.isF32()) {
    return true;
  } else if (type.isF16()) {
    // Without cl_khr_fp16: held in floats, stored with vstore_half_rte.
    if (options.fp16)
      program.needsFp16 = true;
    return true;
  } else if (type.isF64()) {
    if (!options.fp64)
      return missing("cl_khr_fp64", "fp64");
    program.needsFp64 = true;
    return true;
  }
  error(op, what + " " + typeString(type) + where +
                ", which OpenCL C does not support on any device");
  return false;
}

bool KernelEmitter::checkOpTypes(Operation *op) {
  bool ok = true;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return checkType(op, load.getType(), "reads", " from a buffer");
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return checkType(op, store.getValueToStore().getType(), "writes",
                     " to a buffer");
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return checkType(op, alloca.getType().getElementType(), "holds",
                     " in private memory");
  // Loops and branches only carry values that the ops computing them, which
  // speak for the Tile op, are checked for.
  if (op->getNumRegions() > 0 || op->hasTrait<OpTrait::IsTerminator>())
    return true;
  for (Type t : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                   llvm::to_vector(op->getResultTypes()))) {
    if (isa<MemRefType>(t))
      continue;
    if (!t.isIntOrIndexOrFloat()) {
      unsupported(op);
      return false;
    }
    ok &= checkType(op, t, "computes on");
  }
  return ok;
}

void KernelEmitter::assign(Value result, const std::string &expr) {
  std::string n = newName();
  os << typeName(result.getType()) << " " << n << " = " << expr << ";\n";
  names[result] = n;
}

void KernelEmitter::assignComputed(Operation *op, const std::string &expr) {
  Value result = op->getResult(0);
  // These give an f16 value from f16 operands without rounding.
  bool exact =
      isa<arith::SelectOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp, arith::RemFOp, math::AbsFOp,
          math::CopySignOp, math::CeilOp, math::FloorOp, math::TruncOp,
          math::RoundOp, math::RoundEvenOp>(op);
  if (isEmulatedHalf(result.getType()) && !exact)
    assign(result, roundHalf(expr));
  else
    assign(result, expr);
}

std::string KernelEmitter::asUnsigned(Value v) {
  Type t = v.getType();
  if (t.isIndex())
    return "(ulong)" + name(v);
  unsigned w = getIntWidth(t);
  if (w < 32)
    return "(uint)" + name(v);
  return name(v);
}

std::string KernelEmitter::asSigned(Value v) {
  Type t = v.getType();
  if (t.isIndex())
    return name(v);
  switch (getIntWidth(t)) {
  case 1:
    return "(-(int)" + name(v) + ")";
  case 8:
    return "(int)(char)" + name(v);
  case 16:
    return "(int)(short)" + name(v);
  case 32:
    return "(int)" + name(v);
  default:
    return "(long)" + name(v);
  }
}

std::string KernelEmitter::narrow(const std::string &expr, Type type) {
  if (type.isIndex())
    return "(long)(" + expr + ")";
  if (type.isInteger(1))
    return "((" + expr + ") & 1) != 0";
  return "(" + getValueTypeName(type) + ")(" + expr + ")";
}

std::string KernelEmitter::linearIndex(Operation *op, Value memref,
                                       ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    error(op, "accesses a buffer with a dynamic or non-strided layout, "
              "which has no OpenCL C translation yet");
    return "0";
  }
  // Constant indices fold into the offset.
  std::string expr;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    if (std::optional<int64_t> c = getConstantIntValue(index)) {
      offset += *c * stride;
      continue;
    }
    if (stride == 0)
      continue;
    if (!expr.empty())
      expr += " + ";
    expr += name(index);
    if (stride != 1)
      expr += " * " + std::to_string(stride);
  }
  if (offset != 0 || expr.empty())
    expr += expr.empty() ? std::to_string(offset)
                         : (offset < 0 ? " - " + std::to_string(-offset)
                                       : " + " + std::to_string(offset));
  return expr;
}

SmallVector<std::string> KernelEmitter::declare(ValueRange values,
                                                ValueRange inits) {
  SmallVector<std::string> declared;
  for (auto [i, v] : llvm::enumerate(values)) {
    std::string n = newName();
    os << typeName(v.getType()) << " " << n;
    if (i < inits.size())
      os << " = " << name(inits[i]);
    os << ";\n";
    declared.push_back(n);
  }
  return declared;
}

void KernelEmitter::assignAll(ArrayRef<std::string> targets,
                              ValueRange values) {
  if (targets.size() == 1) {
    if (targets[0] != name(values[0]))
      os << targets[0] << " = " << name(values[0]) << ";\n";
    return;
  }
  SmallVector<std::string> temps;
  for (Value v : values) {
    temps.push_back(newName());
    os << typeName(v.getType()) << " " << temps.back() << " = " << name(v)
       << ";\n";
  }
  for (auto [target, temp] : llvm::zip(targets, temps))
    os << target << " = " << temp << ";\n";
}

void KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    emitOp(&op);
}

void KernelEmitter::emitFor(scf::ForOp op) {
  if (!op.getInductionVar().getType().isIndex() || op.getUnsignedCmp()) {
    error(op, "over " + typeString(op.getInductionVar().getType()) +
                  (op.getUnsignedCmp() ? " (unsigned)" : "") +
                  " has no OpenCL C translation yet");
    return;
  }
  SmallVector<std::string> carried =
      declare(op.getRegionIterArgs(), op.getInitArgs());
  for (auto [arg, result, n] :
       llvm::zip(op.getRegionIterArgs(), op.getResults(), carried)) {
    names[arg] = n;
    names[result] = n;
  }
  std::string iv = newName();
  names[op.getInductionVar()] = iv;
  os << "for (long " << iv << " = " << name(op.getLowerBound()) << "; " << iv
     << " < " << name(op.getUpperBound()) << "; " << iv
     << " += " << name(op.getStep()) << ") {\n";
  os.indent();
  emitBlock(*op.getBody());
  assignAll(carried, op.getBody()->getTerminator()->getOperands());
  os.unindent();
  os << "}\n";
}

void KernelEmitter::emitIf(scf::IfOp op) {
  SmallVector<std::string> results = declare(op.getResults());
  for (auto [result, n] : llvm::zip(op.getResults(), results))
    names[result] = n;
  auto emitBranch = [&](Region &region) {
    os.indent();
    emitBlock(region.front());
    for (auto [target, v] :
         llvm::zip(results, region.front().getTerminator()->getOperands()))
      os << target << " = " << name(v) << ";\n";
    os.unindent();
  };
  os << "if (" << name(op.getCondition()) << ") {\n";
  emitBranch(op.getThenRegion());
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    emitBranch(op.getElseRegion());
  }
  os << "}\n";
}

void KernelEmitter::emitWhile(scf::WhileOp op) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  SmallVector<std::string> carried =
      declare(before.getArguments(), op.getInits());
  for (auto [arg, n] : llvm::zip(before.getArguments(), carried))
    names[arg] = n;
  // The results are what scf.condition forwards; the after region sees the
  // same values.
  SmallVector<std::string> results = declare(op.getResults());
  for (auto [result, arg, n] :
       llvm::zip(op.getResults(), after.getArguments(), results)) {
    names[result] = n;
    names[arg] = n;
  }
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  os << "for (;;) {\n";
  os.indent();
  emitBlock(before);
  for (auto [target, v] : llvm::zip(results, condition.getArgs()))
    os << target << " = " << name(v) << ";\n";
  os << "if (!" << name(condition.getCondition()) << ")\n";
  os << "  break;\n";
  emitBlock(after);
  assignAll(carried, after.getTerminator()->getOperands());
  os.unindent();
  os << "}\n";
}

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

void KernelEmitter::emitOp(Operation *op) {
  // Constants are literals; the ops that use them report their types (a
  // constant's location is often lost to folding).
  if (!isa<arith::ConstantOp, ub::PoisonOp>(op) && !checkOpTypes(op))
    return;
  Dialect *dialect = op->getDialect();
  StringRef ns = dialect ? dialect->getNamespace() : "";

  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Attribute value = constant.getValue();
    if (auto f = dyn_cast<FloatAttr>(value))
      names[constant] = getFloatLiteral(f.getValue(), f.getType(),
                                        isEmulatedHalf(f.getType()));
    else if (auto i = dyn_cast<IntegerAttr>(value))
      names[constant] = getIntLiteral(i.getValue(), i.getType());
    else
      unsupported(op);
    return;
  }
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    Type t = poison.getType();
    if (isa<FloatType>(t))
      names[poison] = getFloatLiteral(
          APFloat::getZero(cast<FloatType>(t).getFloatSemantics()), t,
          isEmulatedHalf(t));
    else if (t.isIntOrIndex())
      names[poison] = getIntLiteral(APInt(getIntWidth(t), 0), t);
    else
      unsupported(op);
    return;
  }
  if (ns == "arith") {
    emitArith(op);
    return;
  }
  if (ns == "math") {
    emitMath(op);
    return;
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    std::string index = linearIndex(op, load.getMemRef(), load.getIndices());
    // An f16 buffer without cl_khr_fp16: vload_half gives the float.
    if (isEmulatedHalf(load.getType()) &&
        !privateBuffers.contains(load.getMemRef())) {
      assign(load, "vload_half(" + index + ", " + name(load.getMemRef()) + ")");
      return;
    }
    std::string elem = name(load.getMemRef()) + "[" + index + "]";
    assign(load, load.getType().isInteger(1) ? elem + " != 0" : elem);
    return;
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    std::string index = linearIndex(op, store.getMemRef(), store.getIndices());
    // The value is already an f16 held in a float: the rounding is exact.
    if (isEmulatedHalf(store.getValueToStore().getType()) &&
        !privateBuffers.contains(store.getMemRef())) {
      os << "vstore_half_rte(" << name(store.getValueToStore()) << ", " << index
         << ", " << name(store.getMemRef()) << ");\n";
      return;
    }
    os << name(store.getMemRef()) << "[" << index
       << "] = " << name(store.getValueToStore()) << ";\n";
    return;
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
    MemRefType type = alloca.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace()) {
      unsupported(op);
      return;
    }
    std::string n = newName();
    // Private f16 arrays hold floats without cl_khr_fp16 (no half
    // variables), as the values do.
    Type elem = type.getElementType();
    os << (isEmulatedHalf(elem) ? std::string("float")
                                : getBufferElementTypeName(elem))
       << " " << n << "[" << std::max<int64_t>(type.getNumElements(), 1)
       << "];\n";
    names[alloca] = n;
    privateBuffers.insert(alloca);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    emitFor(forOp);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    emitIf(ifOp);
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    emitWhile(whileOp);
    return;
  }
  auto dim = [](gpu::Dimension d) {
    return std::to_string(static_cast<unsigned>(d));
  };
  std::string builtin =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<gpu::ThreadIdOp>([&](auto o) {
            return "get_local_id(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::BlockIdOp>([&](auto o) {
            return "get_group_id(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::BlockDimOp>([&](auto o) {
            return "get_local_size(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::GridDimOp>([&](auto o) {
            return "get_num_groups(" + dim(o.getDimension()) + ")";
          })
          .Case<gpu::GlobalIdOp>([&](auto o) {
            return "get_global_id(" + dim(o.getDimension()) + ")";
          })
          .Default([&](Operation *) { return std::string(); });
  if (!builtin.empty()) {
    assign(op->getResult(0), "(long)" + builtin);
    return;
  }
  if (isa<gpu::BarrierOp>(op)) {
    os << "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
    return;
  }
  if (isa<gpu::ReturnOp>(op)) {
    os << "return;\n";
    return;
  }
  unsupported(op);
}

/// A C identifier (the name the host looks the kernel up by, unchanged).
bool isValidKernelName(StringRef name) {
  if (name.empty() || (!llvm::isAlpha(name[0]) && name[0] != '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult KernelEmitter::emitKernel(gpu::GPUFuncOp func) {
  if (!func.isKernel()) {
    func.emitError("only kernels have an OpenCL C translation; '")
        << func.getName() << "' is not one";
    return failure();
  }
  if (!isValidKernelName(func.getName()))
    return func.emitError("kernel name '")
           << func.getName() << "' is not an OpenCL C identifier";
  if (!func.getBody().hasOneBlock())
    return func.emitError("kernel '")
           << func.getName()
           << "' has several blocks; only structured control flow (scf) has "
              "an OpenCL C translation";
  if (!func.getWorkgroupAttributions().empty() ||
      !func.getPrivateAttributions().empty())
    return func.emitError("kernel '")
           << func.getName()
           << "' has workgroup or private attributions, which have no "
              "OpenCL C translation yet";

  // Buffers written by the kernel; the others are `const`.
  llvm::SmallPtrSet<Value, 8> written;
  func.walk([&](memref::StoreOp store) { written.insert(store.getMemRef()); });

  SmallVector<std::string> params;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || type.getMemorySpace()) {
      func.emitError("kernel argument ")
          << i << " of '" << func.getName() << "' is " << arg.getType()
          << ", not a statically shaped buffer in the default memory "
             "space; kernels take only buffers (docs/ABI.md section 6)";
      return failure();
    }
    std::string n = "arg" + std::to_string(i);
    names[arg] = n;
    params.push_back(
        "__global " + std::string(written.contains(arg) ? "" : "const ") +
        getBufferElementTypeName(type.getElementType()) + " *" + n);
  }

  os << "__kernel ";
  std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
  if (block && block->size() == 3)
    os << "__attribute__((reqd_work_group_size(" << (*block)[0] << ", "
       << (*block)[1] << ", " << (*block)[2] << ")))\n";
  // One line when it fits in 80 columns, else one parameter per line.
  std::string signature = "void " + func.getName().str() + "(";
  std::string joined = llvm::join(params, ", ");
  if (signature.size() + joined.size() + 3 <= 80)
    os << signature << joined << ") {\n";
  else
    os << signature << "\n    " << llvm::join(params, ",\n    ") << ") {\n";
  os.indent();
  Block &body = func.getBody().front();
  emitBlock(body);
  // The final gpu.return is the end of the function.
  os.unindent();
  os << "}\n";
  return failure(hadError);
}

} // namespace

LogicalResult mlir::plaidml::translateGpuModuleToOpenCLC(
    gpu::GPUModuleOp module, const OpenCLCOptions &options, raw_ostream &os) {
  Program program;
  std::string kernels;
  llvm::raw_string_ostream kernelStream(kernels);
  raw_indented_ostream indented(kernelStream);
  bool failed = false;
  for (Operation &op : module.getBody()->getOperations()) {
    auto func = dyn_cast<gpu::GPUFuncOp>(op);
    if (!func) {
      op.emitError("'") << op.getName()
                        << "' in a gpu.module has no OpenCL C translation";
      failed = true;
      continue;
    }
    KernelEmitter emitter(options, program, indented);
    if (!kernels.empty())
      indented << "\n";
    failed |= mlir::failed(emitter.emitKernel(func));
  }

  os << "// OpenCL C 1.2 of gpu.module @" << module.getName()
     << ", generated by PlaidML.\n";
  // arith ops round every operation; no contractions into fma.
  os << "#pragma OPENCL FP_CONTRACT OFF\n";
  if (program.needsFp64)
    os << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (program.needsFp16)
    os << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  os << "\n";
  for (const std::string &definition : program.helpers)
    os << definition << "\n";
  os << kernels;
  return failure(failed);
}

std::optional<std::string>
mlir::plaidml::getOpenCLCSource(gpu::ObjectAttr object) {
  DictionaryAttr properties = object.getProperties();
  auto format = properties ? properties.getAs<StringAttr>(kKernelFormatAttrName)
                           : StringAttr();
  if (!format)
    return std::nullopt;
  StringRef bytes = object.getObject().getValue();
  if (format.getValue() == kBundleKernelFormat) {
    ::plaidml::rt::StatusOr<::plaidml::rt::KernelBundle> bundle =
        ::plaidml::rt::decodeKernelModule(bytes.data(), bytes.size());
    if (!bundle.ok() || !bundle->openclC)
      return std::nullopt;
    return *bundle->openclC;
  }
  if (format.getValue() != kOpenCLCKernelFormat)
    return std::nullopt;
  if (bytes.ends_with(StringRef("\0", 1)))
    bytes = bytes.drop_back();
  return bytes.str();
}
