//===- OpenCLCTypes.cpp - OpenCL C types and literals ---------------------===//
//
// The type policy of the OpenCL C printer: which C type holds a value of
// each MLIR type (signless integers in unsigned types, whose arithmetic
// wraps as arith's does; i1 as bool in values and bytes in buffers; index
// as long), and literals that read back exactly.
//
//===----------------------------------------------------------------------===//

#include "OpenCLC.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace mlir::plaidml::openclc {

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
std::string getFloatLiteral(const APFloat &value, Type type, bool halfAsFloat) {
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

} // namespace mlir::plaidml::openclc
