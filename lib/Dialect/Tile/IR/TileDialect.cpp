//===- TileDialect.cpp - Tile dialect registration ------------------------===//
//
// Registers the Tile operations and attributes, and materializes folded
// constants as tile.constant.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::plaidml::tile;

#include "plaidml/Dialect/Tile/IR/TileEnums.cpp.inc"
#include "plaidml/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "plaidml/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
