//===- RegisterTile.h - Register tiles of GPU reduction nests ---*- C++ -*-===//
//
// What plaidml-gpu-configure and plaidml-gpu-register-tile share about the
// register tile of an outermost reduction nest: whether a nest has the
// shape the rewrite handles (analyzeRegisterTileNest), the tile the
// configuration chooses for it (chooseRegisterTile) and the rewrite itself
// (applyRegisterTile). Internal to lib/Target/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_GPU_REGISTERTILE_H
#define PLAIDML_LIB_TARGET_GPU_REGISTERTILE_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::plaidml {

/// Whether `op` may be copied freely (in front of a reduction chain, or into
/// each output's epilogue): it neither has regions nor writes memory.
bool isCopyable(Operation *op);

/// The ranges of `par` when it has constant ranges from 0 with unit steps
/// and no reductions; else failure, the reason in `why`.
LogicalResult getZeroBasedRanges(affine::AffineParallelOp par,
                                 SmallVector<int64_t> &ranges,
                                 std::string &why);

/// An outermost reduction nest the register tile can rewrite.
struct RegisterTileNest {
  affine::AffineParallelOp par;
  /// The constant ranges of `par` (lower bounds 0, unit steps).
  SmallVector<int64_t> ranges;
  /// The reduction chain: chain[0] is in the parallel body, chain[i + 1] in
  /// chain[i]'s body; each carries the accumulators as iter_args.
  SmallVector<affine::AffineForOp> chain;
};

/// Fills `nest` for `par`, or returns failure with the reason in `why`.
LogicalResult analyzeRegisterTileNest(affine::AffineParallelOp par,
                                      RegisterTileNest &nest, std::string &why);

/// The factors (one per dimension) the configuration chooses: powers of two
/// up to `maxFactor` along the innermost two dimensions, where every one of
/// the two has a load in the chain that does not depend on it (a copy then
/// reuses that load), halved while fewer than `minIterations` iterations
/// would remain or more than `maxAccumulators` accumulators would be live;
/// none for a chain with more than `maxReductionLoops` loops of more than
/// one iteration (a convolution's window). All ones when no tile helps;
/// `why` then says why.
SmallVector<int64_t>
chooseRegisterTile(const RegisterTileNest &nest, int64_t maxFactor,
                   int64_t minIterations, int64_t maxAccumulators,
                   int64_t maxReductionLoops, std::string &why);

/// Rewrites `nest` so that each iteration computes a block of `factors`
/// outputs; erases the old loop and returns the new one, which keeps the
/// old loop's discardable attributes except the register tile.
affine::AffineParallelOp applyRegisterTile(RegisterTileNest &nest,
                                           ArrayRef<int64_t> factors);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_TARGET_GPU_REGISTERTILE_H
