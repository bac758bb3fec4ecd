//===- HostArray.h - Host arrays and .npy files -----------------*- C++ -*-===//
//
// Element types as the runtime knows them, a host array (shape, element type,
// raw little-endian bytes), and reading/writing NumPy .npy files. No MLIR
// here: the runtime-only build and plaidml-run use these directly.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_HOSTARRAY_H
#define PLAIDML_RUNTIME_HOSTARRAY_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

/// Element types of Tile tensors. Signless MLIR integers map to the signed
/// kinds (docs/Design.md section 3: signless is treated as signed).
enum class DType : uint8_t {
  i1,
  si8,
  si16,
  si32,
  si64,
  ui8,
  ui16,
  ui32,
  ui64,
  f16,
  bf16,
  f32,
  f64
};

/// "f32", "si32", "ui8", "i1", ... (the spelling of MLIR types).
const char *getDTypeName(DType dtype);
/// Parses a type name: MLIR spellings (f32, si32, ui8, i32 meaning signed)
/// and NumPy-like ones (int32, uint8, float32, bool).
std::optional<DType> parseDType(std::string_view name);
/// Bytes per element (i1 takes one byte).
size_t getDTypeSize(DType dtype);

/// A dense row-major array in host memory.
struct HostArray {
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t getNumElements() const;
  /// "2x3xf32" (or "f32" for a scalar).
  std::string describe() const;
};

/// Parses a shape-and-type string such as "2x3xf32" or "f32" (a scalar)
/// into `shape` and `dtype` without allocating data. Rejects dimensions whose
/// product overflows. On failure returns false and sets `error`.
bool parseShapeAndType(std::string_view spec, std::vector<int64_t> &shape,
                       DType &dtype, std::string &error);

/// Spells a shape and element type as "2x3xf32" ("f32" for a scalar).
std::string describeShapeAndType(const std::vector<int64_t> &shape,
                                 DType dtype);

/// Parses a shape-and-type string such as "2x3xf32" or "f32" (a scalar) and
/// returns a zero-filled array of that type.
/// On failure returns nullopt and sets `error`.
std::optional<HostArray> parseArraySpec(std::string_view spec,
                                        std::string &error);

/// Sizes `array.bytes` (zero-filled) for its shape and element type. The
/// size is computed with overflow checks and the allocation is checked, so
/// memory that cannot be had is an error naming `what` and the bytes asked
/// for, never an abort. On failure returns false and sets `error`.
bool allocateArray(HostArray &array, const std::string &what,
                   std::string &error);

/// Reads a .npy file (format versions 1-3, little-endian, C order).
/// On failure returns nullopt and sets `error` to a one-line reason.
std::optional<HostArray> readNpy(const std::string &path, std::string &error);

/// Writes `array` as a .npy file (bf16 is written as float32, which holds it
/// exactly, since NumPy has no bfloat16). Returns false and sets `error` on
/// failure.
bool writeNpy(const std::string &path, const HostArray &array,
              std::string &error);

/// Arrays of more elements than this are summarized by formatArray (as
/// NumPy's print threshold), showing kPrintEdgeItems at each end of every
/// dimension.
constexpr int64_t kPrintThreshold = 1000;
constexpr int64_t kPrintEdgeItems = 3;

/// `array` as text, the way `plaidml-run --print` shows it: nested brackets
/// in row-major order, one line per innermost row (indented by depth),
/// floats with %g, integers by their signedness; an empty array is "[]", a
/// scalar its value. No trailing newline. Unless `all`, an array of more
/// than kPrintThreshold elements is summarized like NumPy does: the first
/// and last kPrintEdgeItems of each longer dimension around "...".
std::string formatArray(const HostArray &array, bool all = false);

/// Converts element `i` of `array` to double (for printing and comparisons).
double getElementAsDouble(const HostArray &array, int64_t i);

/// Element `i` of an integer (or i1) array, exactly: sign-extended for
/// signed types, zero-extended for unsigned ones (ui64 values above
/// INT64_MAX come back as their two's-complement bit pattern).
int64_t getElementAsInt(const HostArray &array, int64_t i);

/// True for ui8..ui64.
bool isUnsignedDType(DType dtype);
/// True for f16, bf16, f32, f64.
bool isFloatDType(DType dtype);

/// Stores `value` as element `i` of `array`: floats round to nearest even
/// (f16/bf16 included), integers truncate toward zero and wrap to their
/// width, i1 stores `value != 0`.
void setElementFromDouble(HostArray &array, int64_t i, double value);

/// An array of `dtype` and `shape` whose first elements are `values`
/// (row-major, stored by setElementFromDouble), the rest 0.
HostArray makeArray(DType dtype, std::vector<int64_t> shape,
                    const std::vector<double> &values = {});

/// Stores the integer `value` as element `i` of `array` exactly (64-bit
/// values do not go through a double): integers wrap to their width, floats
/// round to nearest, i1 stores `value != 0`. The inverse of getElementAsInt.
void setElementFromInt(HostArray &array, int64_t i, int64_t value);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_HOSTARRAY_H
