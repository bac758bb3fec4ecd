//===- TileOps.td - Tile dialect operations ---------------*- tablegen -*-===//
//
// Every Tile op: tile.contract, constants, casts, the elementwise unary and
// binary ops, comparisons, select, the shape ops (reshape, index, gather,
// scatter), argsort and prng. Elementwise ops share native traits that check
// NumPy broadcasting and type promotion (see TileTraits.h).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILEOPS_TD
#define PLAIDML_DIALECT_TILE_IR_TILEOPS_TD

include "plaidml/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Traits implemented in C++ (TileTraits.h)
//===----------------------------------------------------------------------===//

class Tile_NativeTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::plaidml::tile";
}
// Result shape is the NumPy broadcast of the operand shapes; result element
// type is the promotion of the operand element types and is not i1.
def Tile_ArithmeticBroadcast : Tile_NativeTrait<"ArithmeticBroadcast">;
// As above, and the promoted element type must be an integer.
def Tile_BitwiseBroadcast : Tile_NativeTrait<"BitwiseBroadcast">;
// Result shape is the broadcast of the operand shapes; element type is i1.
def Tile_PredicateBroadcast : Tile_NativeTrait<"PredicateBroadcast">;

def Tile_Numeric : AnyTypeOf<[AnyI8, AnyI16, AnyI32, AnyI64, Tile_Float],
                             "8-64 bit integer, f16, bf16, f32 or f64">;
def Tile_NumericTensor : StaticShapeTensorOf<[Tile_Numeric]>;

//===----------------------------------------------------------------------===//
// tile.contract
//===----------------------------------------------------------------------===//

def Tile_ContractionOp : Tile_Op<"contract", [Pure]> {
  let summary = "Aggregate a combination of inputs over an affine index space";
  let description = [{
    A contraction is PlaidML's core operation, Einstein notation with an
    explicit aggregation. With index space points `x` (one coordinate per
    dimension of the maps):

    ```
    out = broadcast(init)
    for every valid integer point x:
      out[sink(x)] = agg(out[sink(x)], combo(in0[srcs[0](x)], in1[srcs[1](x)], ...))
    ```

    A point is *valid* when `sink(x)` and every `srcs[i](x)` lie inside
    their tensors and every expression of the optional `cons` integer set is
    `>= 0` (or `== 0` for its equalities). Elements no valid point reaches
    keep `init`.

    - `agg`: `assign`, `add`, `mul`, `max`, `min`. With `assign`, two valid
      points writing the same element is an error of the program.
    - `combo`: `none` (one input), `add`, `mul`, `eq` (two inputs; `eq`
      yields `i1`) or `cond` (three inputs: `a == b ? c : 0`).
    - Types: the result element type must be at least as wide, in the
      promotion order, as the promoted type of the inputs (`i1` for `eq`,
      the type of `c` for `cond`), so it holds every input exactly. `add`
      and `mul` convert their inputs to the result element type and combine
      there: `f16` products are exact in an `f32` result and `si8` products
      accumulate in `si32` without wrapping in `si8` (what mixed-precision
      and quantized layers need). `eq` and `cond` compare `a` and `b` in
      their promoted type, like `tile.cmp`; `none` and `cond` convert the
      value they pass on. `init` has the result element type and a shape
      that broadcasts to the result.
    - `idxs` optionally names the dimensions (for diagnostics and printing).
    - `lower_bounds` / `upper_bounds` (inclusive) are written by
      `tile-compute-bounds`; after it, `cons` holds exactly the constraints
      (including tensor-range checks) the bounds do not imply. Once
      recorded, the bounds are part of validity: a point outside the box is
      not valid, whatever `cons` says (the constraints the box implies have
      been dropped from `cons`).

    Example, a matrix multiplication:

    ```mlir
    %C = tile.contract add, mul, %zero, %A, %B {
           idxs = ["m", "n", "k"],
           sink = affine_map<(m, n, k) -> (m, n)>,
           srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
         : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
    ```

    Canonicalization:

    - An `init` that is a splat constant of any shape is replaced by a rank-0
      `tile.constant` of the same value (it broadcasts to the same result,
      and the IR stays small).
    - An identity contraction folds to its input: combination `none`, no
      `cons`, `sink` and the source map are both the identity map, bounds
      (if recorded) cover the whole tensor, the input has the result type,
      and either `agg` is `assign` or `init` is a splat constant equal to the
      identity of `agg` (0 for `add`, 1 for `mul`, the lowest value (`-inf`
      for floats) for `max`, the highest value (`+inf`) for `min`). A zero of
      either sign counts as the identity of `add`, so `-0.0` inputs may keep
      their sign where `0.0 + -0.0` would give `0.0`.
  }];

  let arguments = (ins Tile_AggregationKindAttr:$agg,
                       Tile_CombinationKindAttr:$combo,
                       Tile_Tensor:$init,
                       Variadic<Tile_Tensor>:$inputs,
                       AffineMapAttr:$sink,
                       AffineMapArrayAttr:$srcs,
                       OptionalAttr<IntegerSetAttr>:$cons,
                       OptionalAttr<StrArrayAttr>:$idxs,
                       OptionalAttr<DenseI64ArrayAttr>:$lower_bounds,
                       OptionalAttr<DenseI64ArrayAttr>:$upper_bounds);
  let results = (outs Tile_Tensor:$result);

  let assemblyFormat = [{
    $agg `,` $combo `,` $init `,` $inputs attr-dict `:` type($init) `,`
    type($inputs) `->` type($result)
  }];

  let extraClassDeclaration = [{
    /// Number of dimensions of the index space.
    unsigned getNumIdxs() { return getSink().getNumDims(); }
    /// Name of index `i` for diagnostics: from `idxs` if given, else `d<i>`.
    std::string getIdxName(unsigned i);
    /// Number of inputs the combination kind takes.
    static unsigned getNumInputsFor(CombinationKind combo);
    /// True once tile-compute-bounds has recorded the index ranges.
    bool hasBounds() { return getLowerBounds() && getUpperBounds(); }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

def Tile_ConstantOp : Tile_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A tensor constant";
  let description = [{
    Produces a tensor from a dense elements attribute whose type is the
    result type.

    ```mlir
    %zero = tile.constant dense<0.0> : tensor<f32>
    %w = tile.constant dense<[1, 2, 3]> : tensor<3xsi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let builders = [
    OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
  let hasFolder = 1;
}

def Tile_CastOp : Tile_Op<"cast", [Pure]> {
  let summary = "Convert the element type of a tensor";
  let description = [{
    Converts every element to the result element type, keeping the shape.
    Float to integer truncates toward zero; integer to integer wraps or
    extends by the source signedness; anything to `i1` tests `!= 0`.

    ```mlir
    %i = tile.cast %x : tensor<4xf32> -> tensor<4xsi32>
    ```

    Folding: a cast to the operand's own type folds to the operand; a cast
    of a constant folds to a constant (not when a float does not fit the
    integer type, and not past 1024 elements unless the constant is a
    splat).
  }];
  let arguments = (ins Tile_Tensor:$operand);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

class Tile_UnaryOp<string mnemonic, Type operandType, string doc,
                   string foldDoc = "">
    : Tile_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = doc;
  let description = "Elementwise `" # mnemonic # "`: " # doc # [{.
    The result has the operand's type.
  }] # foldDoc;
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Tile_NegOp : Tile_UnaryOp<"neg", Tile_NumericTensor, "negation", [{

    Folding: the negation of a constant is a constant (integers wrap).
  }]> {
  let hasFolder = 1;
}
def Tile_AbsOp : Tile_UnaryOp<"abs", Tile_NumericTensor, "absolute value">;
def Tile_ReluOp : Tile_UnaryOp<"relu", Tile_NumericTensor, "max(x, 0)">;
def Tile_ExpOp : Tile_UnaryOp<"exp", Tile_FloatTensor, "exponential">;
def Tile_LogOp : Tile_UnaryOp<"log", Tile_FloatTensor, "natural logarithm">;
def Tile_SqrtOp : Tile_UnaryOp<"sqrt", Tile_FloatTensor, "square root">;
def Tile_TanhOp : Tile_UnaryOp<"tanh", Tile_FloatTensor, "hyperbolic tangent">;
def Tile_SinOp : Tile_UnaryOp<"sin", Tile_FloatTensor, "sine">;
def Tile_CosOp : Tile_UnaryOp<"cos", Tile_FloatTensor, "cosine">;
def Tile_FloorOp : Tile_UnaryOp<"floor", Tile_FloatTensor, "round toward -inf">;
def Tile_CeilOp : Tile_UnaryOp<"ceil", Tile_FloatTensor, "round toward +inf">;
def Tile_RoundOp : Tile_UnaryOp<"round", Tile_FloatTensor,
                                "round half away from zero">;
def Tile_ErfOp : Tile_UnaryOp<"erf", Tile_FloatTensor, "error function">;
def Tile_SigmoidOp : Tile_UnaryOp<"sigmoid", Tile_FloatTensor,
                                  "1 / (1 + exp(-x))">;
def Tile_BitNotOp : Tile_UnaryOp<"bit_not", Tile_IntegerTensor,
                                 "bitwise complement">;

def Tile_LogicalNotOp : Tile_Op<"logical_not", [Pure]> {
  let summary = "x == 0, as i1";
  let description = [{
    Elementwise logical negation: `true` where the operand is zero. The
    result has the operand's shape and element type `i1`.

    ```mlir
    %n = tile.logical_not %x : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tile_Tensor:$operand);
  let results = (outs Tile_BoolTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

// The types print as one type when all three agree
// (`tile.add %a, %b : tensor<4xf32>`), else as
// `: lhs-type, rhs-type -> result-type`.
class Tile_BinaryOp<string mnemonic, Trait resultRule, string doc,
                    list<Trait> traits = [], string foldDoc = "">
    : Tile_Op<mnemonic, !listconcat([Pure, resultRule], traits)> {
  let summary = doc;
  let description = "Elementwise `" # mnemonic # "`: " # doc # [{.
    Operands broadcast like NumPy and their element types promote (see the
    dialect description); the result type is the broadcast shape with the
    promoted element type.

    ```mlir
  }] # "%r = tile." # mnemonic # [{ %a, %b : tensor<4x8xf32>, tensor<8xsi32> -> tensor<4x8xf32>
    ```
  }] # foldDoc;
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<BinaryTypes>(type($lhs), type($rhs), type($result))
  }];
}

def Tile_AddOp : Tile_BinaryOp<"add", Tile_ArithmeticBroadcast,
    "addition", [Commutative], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    `x + 0` and `0 + x` fold to `x` when `x` has the result type; for floats
    only `-0.0` is such an identity (`-0.0 + 0.0` is `+0.0`), so signed
    zeros are preserved.
  }]> {
  let hasFolder = 1;
}
def Tile_SubOp : Tile_BinaryOp<"sub", Tile_ArithmeticBroadcast,
    "subtraction", [], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    `x - 0` folds to `x` when `x` has the result type; for floats only
    `x - (+0.0)` is exact, so `x - (-0.0)` stays.
  }]> {
  let hasFolder = 1;
}
def Tile_MulOp : Tile_BinaryOp<"mul", Tile_ArithmeticBroadcast,
    "multiplication", [Commutative], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    `x * 1` and `1 * x` fold to `x` when `x` has the result type.
  }]> {
  let hasFolder = 1;
}
def Tile_DivOp : Tile_BinaryOp<"div", Tile_ArithmeticBroadcast,
    "division (integers truncate toward zero)", [], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    Integer division by a constant zero, and the overflowing signed
    `MIN / -1`, do not fold. `x / 1` folds to `x` when `x` has the result
    type.
  }]> {
  let hasFolder = 1;
}
def Tile_ModOp : Tile_BinaryOp<"mod", Tile_ArithmeticBroadcast,
    "remainder with the sign of the dividend">;
def Tile_PowOp : Tile_BinaryOp<"pow", Tile_ArithmeticBroadcast, "lhs ** rhs">;
def Tile_MaxOp : Tile_BinaryOp<"max", Tile_ArithmeticBroadcast,
    "maximum", [Commutative], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    Constant NaN operands do not fold. `max(x, x)` folds to `x`.
  }]> {
  let hasFolder = 1;
}
def Tile_MinOp : Tile_BinaryOp<"min", Tile_ArithmeticBroadcast,
    "minimum", [Commutative], [{

    Folding: with two constant operands the result is a constant, computed
    in the result element type after broadcasting and promotion (not past
    1024 elements unless both operands are splats).
    Constant NaN operands do not fold. `min(x, x)` folds to `x`.
  }]> {
  let hasFolder = 1;
}
def Tile_BitAndOp : Tile_BinaryOp<"bit_and", Tile_BitwiseBroadcast,
                                  "bitwise and", [Commutative]>;
def Tile_BitOrOp : Tile_BinaryOp<"bit_or", Tile_BitwiseBroadcast,
                                 "bitwise or", [Commutative]>;
def Tile_BitXorOp : Tile_BinaryOp<"bit_xor", Tile_BitwiseBroadcast,
                                  "bitwise exclusive or", [Commutative]>;
def Tile_ShlOp : Tile_BinaryOp<"shl", Tile_BitwiseBroadcast, "shift left">;
def Tile_ShrOp : Tile_BinaryOp<"shr", Tile_BitwiseBroadcast,
    "shift right (arithmetic for signed, logical for unsigned)">;
def Tile_LogicalAndOp : Tile_BinaryOp<"logical_and", Tile_PredicateBroadcast,
    "both operands nonzero, as i1", [Commutative]>;
def Tile_LogicalOrOp : Tile_BinaryOp<"logical_or", Tile_PredicateBroadcast,
    "either operand nonzero, as i1", [Commutative]>;
def Tile_LogicalXorOp : Tile_BinaryOp<"logical_xor", Tile_PredicateBroadcast,
    "exactly one operand nonzero, as i1", [Commutative]>;

def Tile_CmpOp : Tile_Op<"cmp", [Pure, Tile_PredicateBroadcast]> {
  let summary = "Elementwise comparison, as i1";
  let description = [{
    Compares the operands, broadcast like NumPy, in their promoted element
    type. The result has element type `i1`. Float comparisons are ordered:
    they are false when either operand is NaN, except `ne`, which is true.

    ```mlir
    %lt = tile.cmp lt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
    ```

    Folding: with two constant operands the result is a constant (not past
    1024 elements unless both operands are splats).
  }];
  let arguments = (ins Tile_CmpPredicateAttr:$predicate, Tile_Tensor:$lhs,
                       Tile_Tensor:$rhs);
  let results = (outs Tile_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
}

def Tile_SelectOp : Tile_Op<"select", [Pure]> {
  let summary = "Elementwise `cond ? a : b`";
  let description = [{
    Picks `true_value` where `cond` is nonzero and `false_value` elsewhere.
    All three operands broadcast together; the result element type is the
    promotion of the two value types.

    ```mlir
    %r = tile.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    ```

    Folding: with a splat constant `cond`, or with the same value on both
    sides, the select folds to the chosen value when that value already has
    the result type.
  }];
  let arguments = (ins Tile_Tensor:$cond, Tile_Tensor:$true_value,
                       Tile_Tensor:$false_value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $true_value `,` $false_value attr-dict `:` type($cond) `,`
    type($true_value) `,` type($false_value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Reinterpret a tensor with another shape, row-major";
  let description = [{
    The element count and element type stay the same; elements keep their
    row-major order.

    ```mlir
    %r = tile.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
    ```

    Folding: a reshape to the operand's own type folds to the operand; a
    reshape of a reshape becomes one reshape of the original operand; a
    reshape of a constant is a constant.
  }];
  let arguments = (ins Tile_Tensor:$operand);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_IndexOp : Tile_Op<"index", [Pure]> {
  let summary = "Coordinates along one axis";
  let description = [{
    Produces a tensor of the result type whose element at `(i0, ..., in)` is
    `i<axis>`. The element type must be an integer or float type wide enough
    for the coordinates.

    ```mlir
    %rows = tile.index 0 : tensor<3x4xsi32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "Pick slices of a tensor by integer indices along an axis";
  let description = [{
    With `T` of shape `T0 x ... x Tn` and integer `I` of shape `I0 x ... x Im`,
    the result has shape `T0..T(axis-1) x I0..Im x T(axis+1)..Tn` and

    ```
    out[a..., i..., b...] = T[a..., clamp(I[i...], 0, T(axis) - 1), b...]
    ```

    Out-of-range indices are clamped to the nearest valid one.

    ```mlir
    %e = tile.gather %table, %ids {axis = 0} : tensor<100x16xf32>, tensor<8xsi32> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$tensor, Tile_IntegerTensor:$indices,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $tensor `,` $indices attr-dict `:` type($tensor) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [Pure]> {
  let summary = "Sum slices into a zero tensor at integer indices along an axis";
  let description = [{
    The inverse of `tile.gather`: the result (whose type gives the shape)
    starts at zero and, for every position of `updates`, which has shape
    `R0..R(axis-1) x I0..Im x R(axis+1)..Rn`,

    ```
    out[a..., I[i...], b...] += updates[a..., i..., b...]
    ```

    Updates whose index is outside `[0, R(axis))` are dropped.

    ```mlir
    %g = tile.scatter %upd, %ids {axis = 0} : tensor<8x16xf32>, tensor<8xsi32> -> tensor<100x16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$updates, Tile_IntegerTensor:$indices,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $updates `,` $indices attr-dict `:` type($updates) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sorting and random numbers
//===----------------------------------------------------------------------===//

def Tile_ArgSortOp : Tile_Op<"argsort", [Pure]> {
  let summary = "Stable sort order along an axis, as indices";
  let description = [{
    For every line of `operand` along `axis` (all other coordinates fixed),
    the result line holds the positions of that line's elements in sorted
    order: `result[..., k, ...]` is the position along `axis` of the element
    that comes `k`-th. `asc` sorts from the smallest, `desc` from the
    largest. The sort is *stable*: equal elements keep their original order
    (in both directions, so `desc` is not the reverse of `asc` where there
    are ties). With `asc` the result equals NumPy's
    `np.argsort(x, axis, kind='stable')`.

    The order is total, also on floats: `-0.0` and `+0.0` are equal (ties,
    kept in order) and every NaN is equal to every other NaN and greater than
    every number, `+inf` included; so NaNs come last with `asc` (as in NumPy)
    and first with `desc`. Integers compare by their signedness (signless as
    signed); `i1` has `false < true`.

    The result has the operand's shape and element type `si32` or `i32`
    (the same values), so `axis` may hold at most 2^31 - 1 elements. The
    indices feed `tile.gather` directly to reorder a tensor.

    ```mlir
    // [[3, 1, 2], [1, 1, 0]] -> [[1, 2, 0], [2, 0, 1]]
    %order = tile.argsort asc, %x {axis = 1} : tensor<2x3xf32> -> tensor<2x3xsi32>
    ```

    Lowering: every element counts, along its line, the elements that come
    before it (`O(n^2)` comparisons for a line of `n`, all in parallel, no
    data-dependent control flow), which is its rank, and stores its own
    position at that rank. It is meant for the short axes of networks (top-k
    over classes, sorting boxes); it runs the same on the CPU and GPUs.
  }];
  let arguments = (ins Tile_SortDirectionAttr:$direction,
                       Tile_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs StaticShapeTensorOf<[SI32, I32]>:$result);
  let assemblyFormat = [{
    $direction `,` $operand attr-dict `:` type($operand) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_PrngOp : Tile_Op<"prng", [Pure,
    AllTypesMatch<["state", "new_state"]>]> {
  let summary = "Counter-based random numbers (Philox4x32-10)";
  let description = [{
    Produces a tensor of uniformly distributed random values and the state
    to pass to the next `tile.prng`. The generator is Philox4x32-10
    (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11),
    the same function as `philox4x32` with 10 rounds of the Random123
    library: it maps a 128-bit counter and a 64-bit key to four 32-bit
    words, and every output element is computed independently of the
    others, so the values are bit for bit the same on every device and in
    the reference interpreter, however the work is split.

    `state` is a `tensor<6x(i32|si32|ui32)>` read as unsigned words
    `[k0, k1, c0, c1, c2, c3]`: the key `(k0, k1)` and the counter
    `c = c0 + 2^32 c1 + 2^64 c2 + 2^96 c3`. For result element number `L`
    (row-major), word `L mod 4` of `philox4x32_10(c + L / 4, key)` (the
    128-bit sum wraps) becomes the value:

    | value element type | value from word `w` |
    |---|---|
    | `f32` | `(w >> 8) * 2^-24` |
    | `f16` | `(w >> 21) * 2^-11` |
    | `bf16` | `(w >> 24) * 2^-8` |
    | `f64` | `w * 2^-32` |
    | `i32`, `si32`, `ui32` | `w` itself (the raw bits) |

    Each float value is an exact multiple of a power of two in `[0, 1)`:
    1.0 never occurs. `new_state` has the same key and the counter advanced
    past the blocks used, `c + ceil(N / 4)` for `N` result elements, so a
    chain of `tile.prng` never reuses a counter. Seed a program by choosing
    the key (for example the seed in `k0` and `k1`) and a zero counter.
    The result may have at most 2^31 - 1 elements.

    ```mlir
    %values, %next = tile.prng %state : tensor<6xui32> -> tensor<2x3xf32>
    ```

    Known answer (Random123's `kat_vectors`): key `(0, 0)` and counter 0
    give the words `0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8`.
  }];
  let arguments = (ins StaticShapeTensorOf<[I32, SI32, UI32]>:$state);
  let results = (outs StaticShapeTensorOf<[F16, BF16, F32, F64, I32, SI32,
                                           UI32]>:$values,
                      StaticShapeTensorOf<[I32, SI32, UI32]>:$new_state);
  let assemblyFormat = [{
    $state attr-dict `:` type($state) `->` type($values)
  }];
  let hasVerifier = 1;
}

#endif // PLAIDML_DIALECT_TILE_IR_TILEOPS_TD
