//===- OpenCLCHelpers.cpp - Helper functions of OpenCL C kernels ----------===//
//
// The helper library the generated kernels call, each function defined in
// the program on its first use: the f16 emulation without cl_khr_fp16
// (rounding a float to f16, an f16's bits), NaN-propagating minimum and
// maximum, and integer division that cannot trap.
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

using namespace mlir;

namespace mlir::plaidml::openclc {

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

} // namespace mlir::plaidml::openclc
