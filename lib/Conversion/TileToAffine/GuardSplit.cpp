//===- GuardSplit.cpp - Register reductions split along their guards ------===//
//
// A contraction with constraints (an implicitly padded window: `x + i - 1 >=
// 0`, reads outside the input being invalid points) lowers to a reduction
// nest whose every point is guarded by an affine.if. The CPU code generator
// takes no nest with a guard inside (plaidml-cpu-configure: "'affine.if' is
// not an elementwise op"), so such a nest stays scalar. Most of its output,
// though, is interior: there the guard holds for every point of the window.
// splitReductionBox cuts the nest's index box along the parallel index of
// each such guard into that interior, with no guard, and the few border
// values of the index, each a box of its own in which the guard becomes
// tighter bounds of the window's index. The pieces visit exactly the valid
// points of the original nest, in the same order, so the result is the same
// for every aggregation. docs/CpuPipeline.md, "Guarded windows".
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/Analysis/ContractionBounds.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;

std::optional<SmallVector<LinearConstraint>>
tile_to_affine::getLinearConstraints(IntegerSet cons) {
  SmallVector<LinearConstraint> result;
  unsigned numDims = cons.getNumDims();
  if (cons.getNumSymbols())
    return std::nullopt;
  for (unsigned i = 0, e = cons.getNumConstraints(); i < e; ++i) {
    AffineExpr expr = cons.getConstraint(i);
    std::optional<SmallVector<int64_t>> coeffs =
        tile::getLinearForm(expr, numDims);
    if (!coeffs)
      return std::nullopt;
    result.push_back({expr, std::move(*coeffs), cons.isEq(i)});
  }
  return result;
}

static int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
static int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

/// Drops the guards of `piece` that hold on its whole box, and turns those
/// in which only one reduction index varies (the others fixed) into bounds
/// of that index: in the box of the first border row of a padded window
/// (x = 0), `x + i - 1 >= 0` becomes `i >= 1`. A guard of fixed indices
/// that fails empties the reduction.
static void simplifyPiece(ReductionPiece &piece,
                          ArrayRef<LinearConstraint> cons,
                          const llvm::SmallBitVector &isReduction) {
  unsigned n = piece.lbs.size();
  bool changed = true;
  while (changed) {
    changed = false;
    for (unsigned d = 0; d < n; ++d)
      if (isReduction.test(d) && piece.ubs[d] < piece.lbs[d]) {
        piece.guards.clear(); // No point is visited: nothing to guard.
        return;
      }
    SmallVector<unsigned> kept;
    for (unsigned c : piece.guards) {
      const LinearConstraint &lc = cons[c];
      int64_t least = lc.coeffs[n], fixed = lc.coeffs[n];
      int varying = -1, numVarying = 0;
      for (unsigned d = 0; d < n; ++d) {
        int64_t k = lc.coeffs[d];
        if (k == 0)
          continue;
        least += std::min(k * piece.lbs[d], k * piece.ubs[d]);
        if (piece.lbs[d] == piece.ubs[d]) {
          fixed += k * piece.lbs[d];
        } else {
          varying = d;
          ++numVarying;
        }
      }
      if (!lc.isEq && least >= 0) {
        changed = true; // Holds everywhere in the box.
        continue;
      }
      // Of fixed indices only (every index it reads has one value here):
      // true, or false for every point, which leaves the reduction empty.
      if (numVarying == 0) {
        if (lc.isEq ? fixed == 0 : fixed >= 0) {
          changed = true;
          continue;
        }
        int first = isReduction.find_first();
        if (first >= 0) {
          piece.ubs[first] = piece.lbs[first] - 1;
          piece.guards.clear();
          return;
        }
      }
      if (!lc.isEq && numVarying == 1 && isReduction.test(varying)) {
        int64_t k = lc.coeffs[varying];
        if (k > 0)
          piece.lbs[varying] = std::max(piece.lbs[varying], ceilDiv(-fixed, k));
        else
          piece.ubs[varying] =
              std::min(piece.ubs[varying], floorDiv(fixed, -k));
        changed = true;
        continue;
      }
      kept.push_back(c);
    }
    piece.guards = kept;
  }
}

SmallVector<ReductionPiece>
tile_to_affine::splitReductionBox(ReductionPiece box,
                                  ArrayRef<LinearConstraint> cons,
                                  const llvm::SmallBitVector &isReduction) {
  // A padded window has as many border values per side as its padding: 3
  // for a 7x7 window (ResNet's first convolution), 49 nests over two
  // dimensions. More would mean many nests for little.
  constexpr int64_t kMaxBorder = 3;
  constexpr size_t kMaxPieces = 49;
  unsigned n = box.lbs.size();
  SmallVector<ReductionPiece> done, work{box};
  while (!work.empty()) {
    ReductionPiece piece = work.pop_back_val();
    simplifyPiece(piece, cons, isReduction);
    bool split = false;
    for (unsigned c : piece.guards) {
      const LinearConstraint &lc = cons[c];
      if (lc.isEq)
        continue;
      // The guard's one varying parallel index p, and its least value over
      // the rest of the box: the guard holds for every point where
      // k * p + rest >= 0.
      int p = -1, numParallel = 0;
      int64_t rest = lc.coeffs[n];
      for (unsigned d = 0; d < n; ++d) {
        int64_t k = lc.coeffs[d];
        if (k == 0)
          continue;
        if (!isReduction.test(d) && piece.lbs[d] != piece.ubs[d]) {
          p = d;
          ++numParallel;
        } else {
          rest += std::min(k * piece.lbs[d], k * piece.ubs[d]);
        }
      }
      if (numParallel != 1)
        continue;
      int64_t k = lc.coeffs[p];
      int64_t inLo = piece.lbs[p], inHi = piece.ubs[p];
      if (k > 0)
        inLo = std::max(inLo, ceilDiv(-rest, k));
      else
        inHi = std::min(inHi, floorDiv(rest, -k));
      int64_t before = inLo - piece.lbs[p], after = piece.ubs[p] - inHi;
      if (inLo > inHi || before > kMaxBorder || after > kMaxBorder ||
          done.size() + work.size() + before + after + 1 > kMaxPieces)
        continue;
      auto withRange = [&](int64_t lo, int64_t hi) {
        ReductionPiece part = piece;
        part.lbs[p] = lo;
        part.ubs[p] = hi;
        work.push_back(part);
      };
      for (int64_t v = piece.lbs[p]; v < inLo; ++v)
        withRange(v, v);
      for (int64_t v = inHi + 1; v <= piece.ubs[p]; ++v)
        withRange(v, v);
      withRange(inLo, inHi);
      split = true;
      break;
    }
    if (!split)
      done.push_back(piece);
  }
  // In the order of their boxes (the first border row first).
  llvm::sort(done, [](const ReductionPiece &a, const ReductionPiece &b) {
    return a.lbs < b.lbs;
  });
  return done;
}
