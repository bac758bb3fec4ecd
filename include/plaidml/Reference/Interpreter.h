//===- Interpreter.h - Reference evaluator of Tile IR -----------*- C++ -*-===//
//
// The reference interpreter: a deliberately plain evaluator of Tile-dialect
// functions on host data, written for clarity rather than speed. It is the
// oracle that compiled code is tested against, so it shares no code with the
// lowerings: contraction index ranges come from a rational relaxation of the
// constraints (a superset of the exact integer ranges that
// tile-compute-bounds infers) and every point is checked for validity.
//
// Values are held exactly: integers as int64_t wrapped to their width and
// signedness after every operation, floats as double rounded to their
// element type (f16, bf16, f32, f64) after every operation. Behaviour that
// docs/Design.md leaves unspecified (integer division by zero, out-of-range
// shifts, an `assign` contraction writing one element twice) is reported as
// an error at the op's location instead of producing a value.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_REFERENCE_INTERPRETER_H
#define PLAIDML_REFERENCE_INTERPRETER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <vector>

namespace mlir::plaidml::reference {

/// A host tensor of the reference interpreter. Integer elements (i1 included)
/// live in `ints`, float elements in `floats`, row-major.
class Buffer {
public:
  explicit Buffer(RankedTensorType type);

  RankedTensorType getType() const { return type; }
  Type getElementType() const { return type.getElementType(); }
  bool isFloat() const { return isa<FloatType>(getElementType()); }
  int64_t getNumElements() const { return type.getNumElements(); }

  /// Element `i` (row-major) as a double / as an integer. getInt on a float
  /// buffer and getFloat on an integer buffer convert.
  double getFloat(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Stores `v`, rounded (floats) or wrapped (integers) to the element type.
  void setFloat(int64_t i, double v);
  void setInt(int64_t i, int64_t v);

  /// Little-endian raw bytes in the element type's storage layout (i1 as one
  /// byte 0/1, f16/bf16 as IEEE binary16 / bfloat16 bits).
  std::vector<uint8_t> toBytes() const;
  /// Fills the buffer from `bytes`; fails when the size does not match.
  LogicalResult fromBytes(ArrayRef<uint8_t> bytes);

  /// Buffer from a constant attribute of a Tile element type.
  static Buffer fromAttr(DenseElementsAttr attr);

private:
  RankedTensorType type;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

/// Wraps `v` to `type`'s width and signedness (i1 is 0 or 1).
int64_t wrapInteger(int64_t v, IntegerType type);
/// Rounds `v` to the precision of float `type` (ties to even).
double roundFloat(double v, FloatType type);

/// Evaluates `func` on `inputs` (one per argument, of the argument types).
/// On failure an error has been emitted at the offending op's location.
FailureOr<std::vector<Buffer>> evaluate(func::FuncOp func,
                                        ArrayRef<Buffer> inputs);

} // namespace mlir::plaidml::reference

#endif // PLAIDML_REFERENCE_INTERPRETER_H
