//===- Interpreter.h - Reference evaluator of Tile IR -----------*- C++ -*-===//
//
// The reference interpreter: a deliberately plain evaluator of Tile-dialect
// functions on host data, written for clarity rather than speed. It is the
// oracle that compiled code is tested against, so it shares no code with the
// lowerings: contraction index ranges come from a rational relaxation of the
// constraints (a superset of the exact integer ranges that
// tile-compute-bounds infers) and every point is checked for validity.
//
// Values are computed exactly: integers as int64_t wrapped to their width
// and signedness after every operation, floats as double rounded to their
// element type (f16, bf16, f32, f64) after every operation, and stored at
// their own width. A tensor too large to allocate (or whose size overflows)
// is an error at the op that makes it. Behaviour that
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
#include <memory>
#include <vector>

namespace mlir::plaidml::reference {

/// A host tensor of the reference interpreter, row-major. Elements are
/// stored compactly at their own width (i1 and 8-bit integers in one byte,
/// 16-, 32- and 64-bit integers in two, four and eight, f32 and f64 as
/// float and double), except f16 and bf16, which are kept as float (which
/// holds every value of them exactly). Buffers are created through create(),
/// which checks the element count and the byte size for overflow and the
/// allocation itself, and reports a failure as an error instead of
/// aborting. They move but do not copy (clone() copies, checked too).
class Buffer {
public:
  /// A zero-filled buffer of `type`, or an error at `loc` naming the type and
  /// the bytes asked for when the size overflows or memory runs out.
  static FailureOr<Buffer> create(RankedTensorType type, Location loc);
  /// A copy, or an error at `loc` as for create().
  FailureOr<Buffer> clone(Location loc) const;

  Buffer(Buffer &&) = default;
  Buffer &operator=(Buffer &&) = default;

  RankedTensorType getType() const { return type; }
  Type getElementType() const { return type.getElementType(); }
  bool isFloat() const { return isa<FloatType>(getElementType()); }
  int64_t getNumElements() const { return numElements; }

  /// Element `i` (row-major) as a double / as an integer. getInt on a float
  /// buffer and getFloat on an integer buffer convert.
  double getFloat(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Stores `v`, rounded (floats) or wrapped (integers) to the element type.
  void setFloat(int64_t i, double v);
  void setInt(int64_t i, int64_t v);

  /// The number of bytes of the element type's storage layout: what
  /// toBytes returns and fromBytes takes.
  size_t getByteSize() const;
  /// Writes the elements to `bytes` (getByteSize() of them), little-endian
  /// in the element type's storage layout (i1 as one byte 0/1, f16/bf16 as
  /// IEEE binary16 / bfloat16 bits).
  void writeBytes(MutableArrayRef<uint8_t> bytes) const;
  /// The same, in a new vector.
  std::vector<uint8_t> toBytes() const;
  /// Fills the buffer from `bytes`; fails when the size does not match.
  LogicalResult fromBytes(ArrayRef<uint8_t> bytes);

  /// Buffer from a constant attribute of a Tile element type (errors at
  /// `loc` as for create()).
  static FailureOr<Buffer> fromAttr(DenseElementsAttr attr, Location loc);

private:
  /// How an element is stored.
  enum class Storage : uint8_t {
    I1,
    S8,
    U8,
    S16,
    U16,
    S32,
    U32,
    S64,
    U64,
    F32,
    F64
  };
  struct Free {
    void operator()(uint8_t *p) const;
  };
  Buffer(RankedTensorType type, int64_t numElements);

  RankedTensorType type;
  int64_t numElements = 0;
  Storage storage = Storage::F32;
  unsigned elementBytes = 4;
  std::unique_ptr<uint8_t, Free> data;
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
