//===- EDSL.h - The C++ embedded language for Tile programs -----*- C++ -*-===//
//
// Builds Tile-dialect programs from C++: symbolic dimensions (TensorDim),
// index variables with affine arithmetic (TensorIndex), tensors with
// elementwise operators and intrinsics, argsort and prng among them
// (Tensor), contractions in index notation (Contraction), layout lenses
// (TensorLens) and programs made of named inputs and outputs (Program),
// whose Tile IR prints as text and compiles through the compiler to an
// artifact for any device.
//
// Shapes are static: a Tensor knows its shape and element type as soon as it
// is built, and each operation is type-checked when it is written. Errors
// (rank mismatches, a dimension bound to two sizes, an unbounded index, types
// an op does not take) throw plaidml::edsl::Error with a message naming the
// tensor and the dimension. The header holds no MLIR type; EDSL/MLIR.h gives
// the MLIR module of a Program to code that wants it. docs/EDSL.md teaches
// the language with examples.
//
// The operations are recorded in one process-wide MLIR context; the EDSL is
// not thread safe (build programs from one thread at a time).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_EDSL_EDSL_H
#define PLAIDML_EDSL_EDSL_H

#include "plaidml/Runtime/HostArray.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace plaidml::edsl {

using rt::DType;

/// Every EDSL error: a program the EDSL cannot build. The message names the
/// tensor and the dimension or index involved.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
struct DimNode;
struct IndexNode;
} // namespace detail

//===----------------------------------------------------------------------===//
// TensorDim
//===----------------------------------------------------------------------===//

/// A dimension size: a constant, a named variable that Tensor::bind_dims
/// binds to a tensor's size, or arithmetic on those. It is evaluated when a
/// contraction or a shape needs it; using an unbound variable then throws.
class TensorDim {
public:
  /// An unbound variable (named `name` in messages, or `?`).
  TensorDim();
  explicit TensorDim(const std::string &name);
  /// A constant.
  TensorDim(int64_t value);
  TensorDim(int value) : TensorDim(static_cast<int64_t>(value)) {}

  /// The size; throws when a variable it uses is unbound.
  int64_t value() const;
  /// Whether every variable it uses is bound.
  bool isBound() const;
  /// As written: `N`, `(H - 3) / 2 + 1`, `4`.
  std::string str() const;

  friend TensorDim operator+(const TensorDim &a, const TensorDim &b);
  friend TensorDim operator-(const TensorDim &a, const TensorDim &b);
  friend TensorDim operator*(const TensorDim &a, const TensorDim &b);
  /// Division rounding toward negative infinity (sizes are non-negative).
  friend TensorDim operator/(const TensorDim &a, const TensorDim &b);
  friend TensorDim operator-(const TensorDim &a);
  friend TensorDim max(const TensorDim &a, const TensorDim &b);
  friend TensorDim min(const TensorDim &a, const TensorDim &b);

  /// Internal: the expression node.
  const std::shared_ptr<detail::DimNode> &getNode() const { return node; }

private:
  friend class Tensor;
  explicit TensorDim(std::shared_ptr<detail::DimNode> node)
      : node(std::move(node)) {}
  std::shared_ptr<detail::DimNode> node;
};

//===----------------------------------------------------------------------===//
// TensorIndex and constraints
//===----------------------------------------------------------------------===//

struct Constraint;

/// An index of a contraction's index space, or an affine expression of
/// indices with rational coefficients (constants and TensorDims): `2 * x + i`,
/// `(x - 1) / 2`. Like the Tile language, an access at a fraction is valid
/// only where it is an integer (unless Contraction::noDefract()).
class TensorIndex {
public:
  /// A fresh index variable (named `name` in the IR and in messages).
  TensorIndex();
  explicit TensorIndex(const std::string &name);
  /// A constant position.
  TensorIndex(int64_t value);
  TensorIndex(int value) : TensorIndex(static_cast<int64_t>(value)) {}
  /// A dimension's size as a constant position.
  TensorIndex(const TensorDim &dim);

  std::string str() const;

  friend TensorIndex operator+(const TensorIndex &a, const TensorIndex &b);
  friend TensorIndex operator-(const TensorIndex &a, const TensorIndex &b);
  /// Products need one constant side (a TensorDim or an integer).
  friend TensorIndex operator*(const TensorIndex &a, const TensorIndex &b);
  /// Exact rational division by a constant.
  friend TensorIndex operator/(const TensorIndex &a, const TensorIndex &b);
  friend TensorIndex operator-(const TensorIndex &a);

  /// `0 <= *this < bound`.
  Constraint operator<(const TensorDim &bound) const;
  Constraint operator<(int64_t bound) const;
  Constraint operator<(int bound) const;

  /// Internal: the expression node.
  const std::shared_ptr<detail::IndexNode> &getNode() const { return node; }

private:
  explicit TensorIndex(std::shared_ptr<detail::IndexNode> node)
      : node(std::move(node)) {}
  std::shared_ptr<detail::IndexNode> node;
};

/// `0 <= index < bound`, a constraint on a contraction's index space.
struct Constraint {
  TensorIndex index;
  TensorDim bound;
};

inline Constraint TensorIndex::operator<(int bound) const {
  return *this < static_cast<int64_t>(bound);
}

//===----------------------------------------------------------------------===//
// TensorLens
//===----------------------------------------------------------------------===//

/// A view of a tensor in another layout: TensorLens("NCHW", "NHWC") on a
/// tensor stored NCHW lets code written for NHWC index it, bind its
/// dimensions and read its shape in NHWC order. A lens on a Contraction
/// names the output's dimensions in the lens order, so the output is stored
/// in the source layout. Layouts are strings of distinct letters, one per
/// dimension.
class TensorLens {
public:
  /// The identity lens.
  TensorLens() = default;
  TensorLens(const std::string &source, const std::string &target);

  /// For lens position `i` (target order), the source dimension it reads.
  const std::vector<unsigned> &getPermutation() const { return perm; }
  bool isIdentity() const { return perm.empty(); }
  /// The composition: first *this, then `next`.
  TensorLens compose(const TensorLens &next) const;
  std::string str() const { return source + "->" + target; }

private:
  std::string source, target;
  std::vector<unsigned> perm;
};

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

class IndexedTensor;

/// A tensor value of a program being built: a placeholder, a constant, or
/// the result of an operation. Copies share the value.
class Tensor {
public:
  /// A null tensor (most operations throw on it).
  Tensor() = default;
  /// Rank-0 constants: si32 (si64 when needed) and f32, like literals.
  Tensor(int value);
  Tensor(int64_t value);
  Tensor(double value);

  bool isNull() const { return value == nullptr; }
  /// The shape (in the lens order when a lens is applied).
  std::vector<int64_t> getShape() const;
  int64_t getRank() const;
  DType getDType() const;
  /// The name given to it (placeholders and named results), or "".
  const std::string &getName() const { return name; }
  /// A copy with a name, used in messages and for program inputs/outputs.
  Tensor named(const std::string &name) const;
  /// "T 2x3xf32", for messages.
  std::string str() const;

  /// Binds each variable to the size of the matching dimension (a constant
  /// or an already bound variable must equal it). The number of dims must
  /// be the rank.
  void bind_dims(std::vector<TensorDim *> dims) const;
  template <typename... Ts> void bind_dims(Ts &...dims) const {
    bind_dims(std::vector<TensorDim *>{&dims...});
  }
  /// The dimensions as constants, in the lens order.
  std::vector<TensorDim> getDims() const;

  /// An access for a contraction: one index per dimension (lens order).
  IndexedTensor operator()(std::vector<TensorIndex> indices) const;
  template <typename... Ts>
  IndexedTensor operator()(const Ts &...indices) const;

  /// The same tensor seen through `lens`.
  Tensor use(const TensorLens &lens) const;
  const TensorLens &getLens() const { return lens; }

  /// Internal: the MLIR value as an opaque pointer (EDSL/MLIR.h).
  const void *getImpl() const { return value; }
  static Tensor fromImpl(const void *value, const std::string &name = "");

private:
  const void *value = nullptr;
  std::string name;
  TensorLens lens;
};

/// A named input of a program: a tensor of `dtype` and `shape`.
Tensor Placeholder(DType dtype, const std::vector<int64_t> &shape,
                   const std::string &name = "");
/// A constant tensor holding `array`'s data.
Tensor Constant(const rt::HostArray &array, const std::string &name = "");
/// A rank-0 constant of `dtype`.
Tensor Constant(DType dtype, double value);

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// One or more accesses joined by a combination, the body of a contraction:
/// `A(i, k)`, `A(i, k) * B(k, j)`, `A(i) + B(i)`, `A(i) == B(i)`,
/// `cond(A(i) == B(i), C(i))`.
class IndexedTensor {
public:
  enum class Combo { None, Add, Mul, Eq, Cond };
  IndexedTensor(Tensor tensor, std::vector<TensorIndex> indices);

  friend IndexedTensor operator*(const IndexedTensor &a,
                                 const IndexedTensor &b);
  friend IndexedTensor operator+(const IndexedTensor &a,
                                 const IndexedTensor &b);
  friend IndexedTensor operator==(const IndexedTensor &a,
                                  const IndexedTensor &b);
  /// `lhs == rhs ? value : 0` (`eq` must be an `==` of two accesses).
  friend IndexedTensor cond(const IndexedTensor &eq,
                            const IndexedTensor &value);

  struct Access {
    Tensor tensor;
    std::vector<TensorIndex> indices;
  };
  Combo getCombo() const { return combo; }
  const std::vector<Access> &getAccesses() const { return accesses; }

private:
  IndexedTensor() = default;
  Combo combo = Combo::None;
  std::vector<Access> accesses;
};

/// `eq`'s two accesses compared, giving `value` where they are equal, else 0.
IndexedTensor cond(const IndexedTensor &eq, const IndexedTensor &value);

template <typename... Ts>
IndexedTensor Tensor::operator()(const Ts &...indices) const {
  return (*this)(std::vector<TensorIndex>{TensorIndex(indices)...});
}

/// Builds one tile.contract:
///
///   Tensor C = Contraction("C").outShape({M, N}).outAccess({i, j})
///                  .sum(A(i, k) * B(k, j));
///
/// Set the shape and access first, then exactly one aggregation (sum, max,
/// min, product, assign); add constraints and an init before or after it.
/// The contraction is built when converted to a Tensor (or by build()).
class Contraction {
public:
  explicit Contraction(const std::string &name = "");
  /// Shape and access given in `lens` order; the output is stored in the
  /// lens's source order.
  Contraction(const TensorLens &lens, const std::string &name = "");

  Contraction &outShape(std::vector<TensorDim> dims);
  Contraction &outAccess(std::vector<TensorIndex> indices);
  Contraction &sum(const IndexedTensor &body);
  Contraction &product(const IndexedTensor &body);
  Contraction &max(const IndexedTensor &body);
  Contraction &min(const IndexedTensor &body);
  Contraction &assign(const IndexedTensor &body);
  Contraction &add_constraint(const Constraint &constraint);
  Contraction &add_constraints(const std::vector<Constraint> &constraints);
  /// The initial value of the output (broadcast to its shape); without
  /// one, the identity of the aggregation.
  Contraction &init(const Tensor &value);
  /// Accesses at fractions floor instead of being valid only at integers.
  Contraction &noDefract();
  /// The result's element type instead of the inferred one (it must hold
  /// the inputs' promoted type exactly, e.g. f32 sums of f16 products).
  Contraction &dtype(DType dtype);

  Tensor build();
  operator Tensor() { return build(); }

private:
  enum class Agg { None, Sum, Product, Max, Min, Assign };
  Contraction &setAgg(Agg agg, const IndexedTensor &body);

  std::string name;
  TensorLens lens;
  std::vector<TensorDim> shape;
  std::vector<TensorIndex> access;
  bool hasShape = false, hasAccess = false;
  Agg agg = Agg::None;
  std::shared_ptr<IndexedTensor> body;
  std::vector<Constraint> constraints;
  Tensor initValue;
  bool defract = true;
  bool hasDType = false;
  DType resultDType = DType::f32;
  Tensor built;
};

//===----------------------------------------------------------------------===//
// Elementwise operators and intrinsics
//===----------------------------------------------------------------------===//

/// A plain number as an operand: it takes the element type of the tensor
/// it meets when that type holds it (like a Tile-language literal: an
/// integer with a float tensor takes the float type, `x * 0.5` of an f16
/// `x` stays f16).
class Scalar {
public:
  template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  Scalar(T v) : isFloat(false), intValue(static_cast<int64_t>(v)) {}
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : isFloat(true), floatValue(static_cast<double>(v)) {}

  bool isFloat;
  int64_t intValue = 0;
  double floatValue = 0;
};

/// A tensor or a scalar: an operand of elementwise operations.
class Operand {
public:
  Operand(const Tensor &t) : tensor(t) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Operand(T v) : scalar(std::make_shared<Scalar>(v)) {}

  Tensor tensor;
  std::shared_ptr<Scalar> scalar;
};

Tensor operator+(const Operand &a, const Operand &b);
Tensor operator-(const Operand &a, const Operand &b);
Tensor operator*(const Operand &a, const Operand &b);
Tensor operator/(const Operand &a, const Operand &b);
Tensor operator%(const Operand &a, const Operand &b);
Tensor operator&(const Operand &a, const Operand &b);
Tensor operator|(const Operand &a, const Operand &b);
Tensor operator^(const Operand &a, const Operand &b);
Tensor operator<<(const Operand &a, const Operand &b);
Tensor operator>>(const Operand &a, const Operand &b);
Tensor operator&&(const Operand &a, const Operand &b);
Tensor operator||(const Operand &a, const Operand &b);
Tensor operator==(const Operand &a, const Operand &b);
Tensor operator!=(const Operand &a, const Operand &b);
Tensor operator<(const Operand &a, const Operand &b);
Tensor operator>(const Operand &a, const Operand &b);
Tensor operator<=(const Operand &a, const Operand &b);
Tensor operator>=(const Operand &a, const Operand &b);
Tensor operator-(const Tensor &x);
Tensor operator!(const Tensor &x);
Tensor operator~(const Tensor &x);

// Unary elementwise ops (float ops need a float tensor).
Tensor abs(const Tensor &x);
Tensor relu(const Tensor &x);
Tensor exp(const Tensor &x);
Tensor log(const Tensor &x);
Tensor sqrt(const Tensor &x);
Tensor tanh(const Tensor &x);
Tensor sin(const Tensor &x);
Tensor cos(const Tensor &x);
Tensor floor(const Tensor &x);
Tensor ceil(const Tensor &x);
Tensor round(const Tensor &x);
Tensor erf(const Tensor &x);
Tensor sigmoid(const Tensor &x);
Tensor bit_not(const Tensor &x);
Tensor logical_not(const Tensor &x);
// Binary elementwise ops that have no operator.
Tensor pow(const Operand &a, const Operand &b);
Tensor max(const Operand &a, const Operand &b);
Tensor min(const Operand &a, const Operand &b);
Tensor logical_xor(const Operand &a, const Operand &b);

/// `cond ? a : b`, broadcasting all three.
Tensor select(const Operand &cond, const Operand &a, const Operand &b);
/// Converts the element type.
Tensor cast(const Tensor &x, DType dtype);
/// Coordinates along `axis` of a tensor of `shape`.
Tensor index(const std::vector<int64_t> &shape, int64_t axis,
             DType dtype = DType::si32);
/// The same elements in `shape`, row-major. One entry may be -1 (inferred).
Tensor reshape(const Tensor &x, std::vector<int64_t> shape);
/// Slices of `x` picked along `axis` by the integer `indices` (clamped).
Tensor gather(const Tensor &x, const Tensor &indices, int64_t axis = 0);
/// Sums `updates` into zeros of `shape` at `indices` along `axis`.
Tensor scatter(const Tensor &updates, const Tensor &indices,
               const std::vector<int64_t> &shape, int64_t axis = 0);

//===----------------------------------------------------------------------===//
// Sorting and random numbers
//===----------------------------------------------------------------------===//

/// The order argsort sorts in.
enum class SortDirection { Asc, Desc };

/// For every line of `x` along `axis` (negative: from the end; in stored
/// order, like gather), the positions of its elements in stable sorted order
/// as si32: with Asc, NumPy's `np.argsort(x, axis, kind='stable')`. Equal
/// elements keep their order in both directions; NaNs come last with Asc and
/// first with Desc. The result feeds gather directly (tile.argsort).
Tensor argsort(const Tensor &x, int64_t axis = -1,
               SortDirection direction = SortDirection::Asc);

/// Random values and the state to pass to the next prng.
struct PrngResult {
  Tensor values;
  Tensor state;
};

/// Counter-based random numbers (Philox4x32-10, tile.prng): `state` holds
/// six 32-bit words `[k0, k1, c0, c1, c2, c3]` (the key and a 128-bit
/// counter). The values have `shape` and `dtype`: floats (f16, bf16, f32,
/// f64) uniform in [0, 1), si32/ui32 the raw 32-bit words; they are bit for
/// bit the same on every device. The returned state has the counter
/// advanced past the blocks used, so chained calls never repeat.
PrngResult prng(const Tensor &state, const std::vector<int64_t> &shape,
                DType dtype = DType::f32);

/// The state that starts a prng stream: key (seed's low and high words),
/// counter 0, as a 6xui32 constant.
Tensor prngSeed(uint64_t seed);

//===----------------------------------------------------------------------===//
// Automatic differentiation
//===----------------------------------------------------------------------===//

/// The gradient of `loss` with respect to each tensor of `wrt` (reverse
/// mode, built as Tile ops; docs/Training.md gives the rules), each of that
/// tensor's shape and type. A loss of several elements counts as their sum;
/// a tensor the loss does not depend on gets zeros. Throws Error for a
/// non-float loss or wrt tensor and for an op on the path that has no
/// gradient, naming it.
std::vector<Tensor> gradients(const Tensor &loss,
                              const std::vector<Tensor> &wrt);

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// The spec of one program input or output.
struct TensorSpec {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
};

/// A function of Tile ops computing `outputs` from `inputs` (placeholders).
/// Every tensor an output depends on must be an input, a constant or built
/// from them. An input may also be an output. `parameters` are inputs too,
/// after `inputs`, marked `plaidml.param`: their values are the same on every
/// call (a model's weights), so a target may compute what it derives from
/// them once (docs/ABI.md section 2).
class Program {
public:
  Program(const std::string &name, const std::vector<Tensor> &inputs,
          const std::vector<Tensor> &outputs,
          const std::vector<Tensor> &parameters = {});
  ~Program();
  Program(Program &&) noexcept;
  Program &operator=(Program &&) noexcept;

  const std::string &getName() const;
  const std::vector<TensorSpec> &getInputs() const;
  const std::vector<TensorSpec> &getOutputs() const;
  /// The Tile IR: a module holding func.func @<name>.
  std::string str() const;

  struct Impl;
  /// Internal (EDSL/MLIR.h).
  Impl &getImpl() const { return *impl; }

private:
  std::unique_ptr<Impl> impl;
};

/// Forgets every tensor built so far (their values become invalid), keeping
/// built Programs. Long-running builders call it between programs.
void resetTensors();

} // namespace plaidml::edsl

#endif // PLAIDML_EDSL_EDSL_H
