//===- TileToAffine.h - Tile to affine conversion ---------------*- C++ -*-===//
//
// The reusable pieces of convert-tile-to-affine, for compilers that build
// their own conversion: the type converter (statically shaped tensors to
// identity-layout memrefs with signless element types), the patterns that
// rewrite Tile ops and Tile functions into affine loop nests on memrefs, and
// the conversion target those patterns expect. The calling convention they
// produce is docs/ABI.md section 1.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_CONVERSION_TILETOAFFINE_TILETOAFFINE_H
#define PLAIDML_CONVERSION_TILETOAFFINE_TILETOAFFINE_H

#include "mlir/Transforms/DialectConversion.h"

// The attribute names of the calling convention (docs/ABI.md section 1):
// kEntryAttrName, kInputsAttrName, kOutputsAttrName.
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

namespace mlir::plaidml {

/// Converts `tensor<2x3xsi32>` to `memref<2x3xi32>`: same shape, identity
/// layout, signless element type (i1 stays i1). Other types are unchanged.
class TileToAffineTypeConverter : public TypeConverter {
public:
  TileToAffineTypeConverter();
};

/// Adds the patterns that lower every Tile op, the signature of functions
/// on tensors, and their func.return. Every tile.contract must carry the
/// bounds of tile-compute-bounds (the pattern does not match otherwise).
/// `borderFill`: a contraction whose writes cover a box of its output (a
/// zero-padded copy, a convolution stored into the interior of the next
/// one's padded input) stores its init only outside that box, in one nest
/// per side of each dimension, instead of filling the whole output first.
/// `splitGuards`: a reduction nest guarded by its constraints (an implicitly
/// padded window) is split into nests without guards where the guards hold
/// throughout (the interior) and one nest per border value, in which they
/// bound the window instead.
void populateTileToAffineConversionPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns,
                                            bool borderFill = true,
                                            bool splitGuards = true);

/// Marks Tile illegal, the dialects the patterns produce legal, and
/// func.func / func.return legal once no tensor types remain in them.
void configureTileToAffineConversionTarget(ConversionTarget &target);

} // namespace mlir::plaidml

#endif // PLAIDML_CONVERSION_TILETOAFFINE_TILETOAFFINE_H
