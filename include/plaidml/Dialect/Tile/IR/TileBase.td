//===- TileBase.td - Tile dialect, enums and type constraints -*- tablegen -*-===//
//
// The Tile dialect definition, its enumerations (aggregation, combination and
// comparison kinds, sort directions) and the type constraints every Tile op
// shares: statically shaped tensors of the element types docs/Design.md
// section 3 allows.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILEBASE_TD
#define PLAIDML_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::plaidml::tile";
  let summary = "Tensor contractions in index notation, and elementwise ops";
  let description = [{
    The Tile dialect is PlaidML's high-level representation. Values are ranked
    tensors with static shapes (a scalar is a rank-0 tensor) whose element
    type is `i1`, an 8-64 bit signed, unsigned or signless integer (signless
    is treated as signed), `f16`, `bf16`, `f32` or `f64`.

    The central op is `tile.contract`: an aggregation over an index space
    whose points map through affine maps into the output and the inputs. Its
    index ranges are not written by hand: `tile-compute-bounds` infers them
    from the shapes, the accesses and the constraints.

    Elementwise ops broadcast like NumPy (shapes are right-aligned, a size-1
    dimension stretches) and promote mixed element types along
    `i1 < integers by width (unsigned above signed of equal width) < f16/bf16
    < f32 < f64`; `f16` mixed with `bf16` promotes to `f32`, and a signless
    integer mixed with the signed integer of its width promotes to the
    signed one (in either order). The result type written in the IR is the
    broadcast shape with the promoted element type (`i1` for comparisons and
    logical ops), and the verifiers check it.

    Integer semantics: division truncates toward zero, `mod` takes the sign of
    the dividend (C semantics), `shr` is arithmetic on signed and signless
    integers and logical on unsigned ones. Integer division by zero gives an
    unspecified value.
  }];
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Attribute names used by tile-compute-bounds on tile.contract.
    static constexpr llvm::StringLiteral kLowerBoundsAttrName = "lower_bounds";
    static constexpr llvm::StringLiteral kUpperBoundsAttrName = "upper_bounds";
  }];
}

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

def Tile_AggregationKindAttr : I32EnumAttr<"AggregationKind",
    "how a contraction combines values that reach the same output element", [
      I32EnumAttrCase<"assign", 0>,
      I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"mul", 2>,
      I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"min", 4>
    ]> {
  let cppNamespace = "::mlir::plaidml::tile";
}

def Tile_CombinationKindAttr : I32EnumAttr<"CombinationKind",
    "how a contraction combines its inputs at one index point", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"mul", 2>,
      I32EnumAttrCase<"eq", 3>,
      I32EnumAttrCase<"cond", 4>
    ]> {
  let cppNamespace = "::mlir::plaidml::tile";
}

def Tile_CmpPredicateAttr : I32EnumAttr<"CmpPredicate",
    "comparison predicate of tile.cmp", [
      I32EnumAttrCase<"eq", 0>,
      I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>,
      I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>,
      I32EnumAttrCase<"ge", 5>
    ]> {
  let cppNamespace = "::mlir::plaidml::tile";
}

def Tile_SortDirectionAttr : I32EnumAttr<"SortDirection",
    "the order tile.argsort sorts in", [
      I32EnumAttrCase<"asc", 0>,
      I32EnumAttrCase<"desc", 1>
    ]> {
  let cppNamespace = "::mlir::plaidml::tile";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_Integer : AnyTypeOf<[I1, AnyI8, AnyI16, AnyI32, AnyI64],
                             "i1 or 8-64 bit integer">;
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64], "f16, bf16, f32 or f64">;
def Tile_ElementType : AnyTypeOf<[Tile_Integer, Tile_Float],
    "Tile element type (i1, 8-64 bit integer, f16, bf16, f32, f64)">;

def Tile_Tensor : StaticShapeTensorOf<[Tile_ElementType]>;
def Tile_FloatTensor : StaticShapeTensorOf<[Tile_Float]>;
def Tile_IntegerTensor : StaticShapeTensorOf<[Tile_Integer]>;
def Tile_BoolTensor : StaticShapeTensorOf<[I1]>;

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // PLAIDML_DIALECT_TILE_IR_TILEBASE_TD
