//===- ContractionNest.h - Reduction nests the CPU code generator takes --===//
//
// The loop nest shape convert-tile-to-affine (and plaidml-fuse-elementwise)
// give a reduction, recognized once for plaidml-cpu-configure, which chooses
// a schedule for it, and plaidml-cpu-tile-contractions, which generates it:
//
//   affine.parallel (%p0, ..., %pn) = (constant bounds) {
//     <prologue: loads and arithmetic, e.g. the init>
//     %r = affine.for %k0 = a to b iter_args(%acc0 = %init) {
//       %s = affine.for %k1 = ... iter_args(%acc1 = %acc0) {   // perfectly
//         <body: loads and arithmetic>                          // nested
//         affine.yield %next
//       }
//       affine.yield %s
//     }
//     <epilogue: loads and arithmetic on %r, e.g. bias and activation>
//     affine.store %v, %out[permutation of %p0..%pn]
//   }
//
// The vector dimension is the parallel index of the stored element's last
// (contiguous) coordinate; the row dimension the one before it. Every load
// must read along the vector dimension contiguously or not depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_CPU_CONTRACTIONNEST_H
#define PLAIDML_LIB_TARGET_CPU_CONTRACTIONNEST_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <optional>

namespace mlir::plaidml::cpu {

/// Which block coordinates a value of the nest varies with: the row index
/// (`row`) and/or the vector index (`vec`).
struct Dependence {
  bool row = false;
  bool vec = false;
  Dependence operator|(Dependence other) const {
    return {row || other.row, vec || other.vec};
  }
};

struct ContractionNest {
  // Op handles are mutable: their accessors are not const.
  mutable affine::AffineParallelOp parallel;
  /// Constant bounds of the parallel indices.
  SmallVector<int64_t> lowerBounds, upperBounds;
  /// The reduction loops, outermost first (at least one).
  mutable SmallVector<affine::AffineForOp> loops;
  /// The final store and the element type the reduction accumulates in.
  mutable affine::AffineStoreOp store;
  Type accType;
  /// Positions (in `parallel`'s indices) of the vector and row dimensions;
  /// `rowDim` is empty when the output has rank 1.
  unsigned vectorDim = 0;
  std::optional<unsigned> rowDim;
  /// The index of the store's coordinate before the row's, when register
  /// blocks may span several of its rows (nothing in the nest reads it
  /// without the row index): a schedule's `rows` above the row extent
  /// means `rows / extent` whole rows of it.
  std::optional<unsigned> outerRowDim;
  /// The loads and ops of the prologue, the innermost body and the
  /// epilogue, in order (terminators and loops excluded).
  SmallVector<Operation *> prologue, body, epilogue;
  /// What each value defined in the nest depends on.
  DenseMap<Value, Dependence> dependence;

  /// The stored value's dependence is row+vec for every reduction.
  Dependence get(Value v) const { return dependence.lookup(v); }
  int64_t extent(unsigned dim) const {
    return upperBounds[dim] - lowerBounds[dim];
  }
  /// The total number of reduction points (product of the loop trip counts).
  int64_t reductionPoints() const;
};

/// The operands of `load`'s map that its results use.
SmallVector<Value> getUsedIndices(affine::AffineLoadOp load);

/// Recognizes `op` as a vectorizable reduction nest, or explains (in
/// `whyNot`) why not.
std::optional<ContractionNest> matchContractionNest(affine::AffineParallelOp op,
                                                    std::string &whyNot);

/// True when `load` (in the nest's body) depends on the vector dimension
/// and on reduction indices only: its data for a column block can be
/// packed once and read by every row block.
bool isPackable(const ContractionNest &nest, affine::AffineLoadOp load);

/// Whether `load` reads a parameter: an argument of its entry function
/// marked `plaidml.param`, the same values on every call (only an entry
/// function gets a preparation, where such data is packed once).
bool readsParameter(affine::AffineLoadOp load);

/// The schedule plaidml-cpu-configure records on the nest as its
/// `#plaidml.cpu_schedule` and plaidml-cpu-tile-contractions
/// follows.
struct Schedule {
  /// Vector lanes (elements of the accumulator type per register).
  int64_t lanes = 0;
  /// Register block: `rows` rows of `vectors` vectors each. More rows than
  /// the row dimension has: that many whole rows of it per outer row
  /// (`ContractionNest::outerRowDim`), `rows / extent` outer rows.
  int64_t rows = 1, vectors = 1;
  /// Column panels (of lanes * vectors columns) per cache block.
  int64_t panelsPerBlock = 1;
  /// Whether packable operands are copied into a contiguous buffer per
  /// cache block.
  bool pack = false;
  /// Whether the innermost reduction loop is unrolled into the block.
  bool unrollInner = false;
  /// Iterations of the innermost reduction loop per chunk, or 0: the
  /// reduction runs in chunks, each over all the row blocks of a column
  /// panel (its slice of packed data stays in the L1 cache), the partial
  /// sums in a scratch buffer between chunks.
  int64_t reductionChunk = 0;

  static constexpr StringLiteral attrName = kCpuScheduleAttrName;
  CpuScheduleAttr toAttr(MLIRContext *ctx) const;
  static std::optional<Schedule> fromAttr(Attribute attr);

  /// Rows of the register blocks of the remainder vectors' panel (`tail`
  /// vectors, fewer than `vectors`) along a row dimension of `rowExtent`:
  /// as many as keep the full block's accumulators, at most the row
  /// extent, at least `rows` (a block of whole outer rows keeps `rows`).
  int64_t remainderRows(int64_t tail, int64_t rowExtent) const {
    if (rows >= rowExtent)
      return rows;
    return std::clamp<int64_t>(rows * vectors / tail, rows, rowExtent);
  }
};

} // namespace mlir::plaidml::cpu

#endif // PLAIDML_LIB_TARGET_CPU_CONTRACTIONNEST_H
