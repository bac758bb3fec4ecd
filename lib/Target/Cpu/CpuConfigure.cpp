//===- CpuConfigure.cpp - Schedules for the CPU reduction nests -----------===//
//
// plaidml-cpu-configure: chooses, per reduction nest, the register block
// (rows x vectors), the cache block (panels per block) and whether to pack,
// from a cost model of loads against FMAs, and records it as
// `plaidml.cpu.schedule`. Passes.td describes the model.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "ContractionNest.h"
#include "plaidml/Target/Cpu/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUCONFIGUREPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::cpu;

namespace {

/// Loads per reduction step, by what they vary with.
struct LoadCounts {
  int64_t vec = 0, row = 0, both = 0, neither = 0;
  /// Of `both`, the loads whose row coordinate slides with the innermost
  /// reduction index (convolution windows), and that loop's trip count
  /// when it is small enough to unroll (0 otherwise).
  int64_t sliding = 0, unrollTrips = 0;
};

/// The trip count of the innermost reduction loop when `load` reads a
/// window: one coordinate adds the row index and that loop's index.
int64_t getSlidingTrips(const ContractionNest &nest,
                        affine::AffineLoadOp load) {
  if (!nest.rowDim)
    return 0;
  affine::AffineForOp inner = nest.loops.back();
  int64_t trips = inner.getConstantUpperBound() - inner.getConstantLowerBound();
  if (trips > 4)
    return 0;
  Value rowIV = nest.parallel.getIVs()[*nest.rowDim];
  auto operands = load.getMapOperands();
  for (AffineExpr e : load.getAffineMap().getResults()) {
    bool row = false, reduction = false;
    for (auto [pos, operand] : llvm::enumerate(operands)) {
      if (!e.isFunctionOfDim(pos))
        continue;
      row |= operand == rowIV;
      reduction |= operand == inner.getInductionVar();
    }
    if (row && reduction)
      return trips;
  }
  return 0;
}

LoadCounts countLoads(const ContractionNest &nest) {
  LoadCounts counts;
  for (Operation *op : nest.body) {
    auto load = dyn_cast<affine::AffineLoadOp>(op);
    if (!load)
      continue;
    Dependence dep = nest.get(load.getResult());
    if (dep.row && dep.vec) {
      ++counts.both;
      if (int64_t trips = getSlidingTrips(nest, load)) {
        ++counts.sliding;
        counts.unrollTrips = trips;
      }
    } else if (dep.vec)
      ++counts.vec;
    else if (dep.row)
      ++counts.row;
    else
      ++counts.neither;
  }
  return counts;
}

/// The fewest reduction points a chunk may have: fewer, and loading and
/// storing the accumulators between chunks costs more than it saves.
constexpr int64_t kMinChunkPoints = 32;

/// Cycles from an FMA to the next FMA that adds to its result (4 on the
/// x86 cores of the last decade, 4 or so on Arm's).
constexpr double kFmaLatency = 4;

/// Cycles each load or broadcast of a step adds to its bound, on targets
/// without AVX-512: among blocks bound by their FMAs, the one with fewer
/// loads per FMA wins. Measured on a Zen 3 core (2026-12-04, the convolutions
/// of ResNet-50): 4 x 3 blocks (7 loads per 12 FMAs) ran 4-21% faster than
/// 5 x 2 (7 per 10) and 6 x 2 (8 per 12) on 3x3 convolutions although all
/// three reach the FMA bound with the operands in L1 (a loop of them alone
/// does), and ResNet-50 whole 4% (medians of the best run per round) to 9%
/// (of the median runs) faster with this cost at 0.3 than without; 0.05 and
/// 0.15 changed less, 1.0 took 4 x 3 everywhere and was slower. With
/// AVX-512 a broadcast is an operand of the FMA, and the blocks measured on
/// such a core (14 x 2) stay.
constexpr double kLoadCost = 0.3;

/// Cycles of one reduction step of a rows x vectors block: two FMAs and
/// two loads (or broadcasts) per cycle, and at least one FMA latency, since
/// each accumulator's FMAs depend on each other: a block of fewer than 8
/// accumulators leaves the FMA units idle part of the time (a 2 x 2
/// remainder block costs as much as a 4 x 2 one).
double stepCost(const LoadCounts &loads, int64_t rows, int64_t vectors,
                double loadCost) {
  if (rows == 0 || vectors == 0)
    return 0;
  double fmas = rows * vectors;
  // Unrolled, a window of `rows` rows over t steps reads rows + t - 1
  // distinct rows.
  double sliding = 0;
  if (loads.unrollTrips)
    sliding = loads.sliding * vectors * (rows + loads.unrollTrips - 1.0) /
              loads.unrollTrips;
  double memory = loads.vec * vectors + loads.row * rows +
                  (loads.both - loads.sliding) * rows * vectors + sliding +
                  loads.neither;
  return std::max(std::max(fmas, memory) / 2, kFmaLatency) + loadCost * memory;
}

/// Reduction-step cycles of the whole iteration space with blocks of
/// `rows` x `vectors`, remainders included (they get smaller blocks). The
/// remainder vectors' blocks are counted with `rows` rows, although the
/// generator gives them more (Schedule::remainderRows): counted so, the
/// model preferred 4 x 2 blocks to 4 x 3 on 1x1 convolutions of 64
/// channels, which ran 28% slower.
double totalCost(const LoadCounts &loads, int64_t rowExtent,
                 int64_t fullVectors, int64_t rows, int64_t vectors,
                 double loadCost) {
  int64_t panels = fullVectors / vectors, tailVectors = fullVectors % vectors;
  int64_t rowBlocks = rowExtent / rows, tailRows = rowExtent % rows;
  auto columnCost = [&](int64_t v) {
    return rowBlocks * stepCost(loads, rows, v, loadCost) +
           stepCost(loads, tailRows, v, loadCost);
  };
  return panels * columnCost(vectors) + columnCost(tailVectors);
}

/// The vector register width for the target, or 0 (no vectors).
unsigned getVectorBits(const CpuTarget &target) {
  llvm::SmallVector<llvm::StringRef> features;
  llvm::StringRef(target.manifestFeatures).split(features, ',');
  auto has = [&](llvm::StringRef f) {
    return llvm::is_contained(features, ("+" + f).str());
  };
  llvm::StringRef triple = target.triple;
  if (triple.starts_with("x86_64") || triple.starts_with("i686")) {
    if (has("avx512f"))
      return 512;
    if (has("avx"))
      return 256;
    return 128;
  }
  if (triple.starts_with("aarch64"))
    return 128;
  return 0;
}

struct CpuConfigurePass
    : public plaidml::impl::CpuConfigurePassBase<CpuConfigurePass> {
  using CpuConfigurePassBase::CpuConfigurePassBase;

  void runOnOperation() override {
    if (blockBytes < 1) {
      getOperation().emitError()
          << "plaidml-cpu-configure: block-bytes must be at least 1, not "
          << static_cast<int64_t>(blockBytes);
      return signalPassFailure();
    }
    if (chunkBytes < 0) {
      getOperation().emitError()
          << "plaidml-cpu-configure: chunk-bytes must be at least 0, not "
          << static_cast<int64_t>(chunkBytes);
      return signalPassFailure();
    }
    unsigned bits = vectorBits;
    if (bits == 0) {
      TargetAttr attr = getTargetOrDefault(getOperation());
      llvm::Expected<CpuTarget> target =
          resolveCpuTarget(attr.getTriple(), attr.getCpu(), attr.getFeatures());
      if (!target) {
        getOperation().emitError()
            << "plaidml-cpu-configure: " << llvm::toString(target.takeError());
        return signalPassFailure();
      }
      bits = getVectorBits(*target);
    }
    // x86 has 32 vector registers with AVX-512, 16 otherwise; keep four for
    // the loaded operands.
    int64_t accumulators = (bits >= 512 ? 32 : 16) - 4;

    for (auto parallel :
         getOperation().getBody().getOps<affine::AffineParallelOp>()) {
      // A schedule already there (written by hand, or by an earlier run)
      // is kept as it is.
      if (parallel->hasAttr(Schedule::attrName)) {
        if (remarks)
          parallel.emitRemark()
              << "CPU schedule kept: " << parallel->getAttr(Schedule::attrName);
        continue;
      }
      std::string whyNot;
      std::optional<ContractionNest> nest =
          matchContractionNest(parallel, whyNot);
      if (!nest) {
        if (remarks)
          parallel.emitRemark() << "no CPU schedule: " << whyNot;
        continue;
      }
      std::optional<Schedule> schedule =
          choose(*nest, bits, accumulators, whyNot);
      if (!schedule) {
        if (remarks)
          parallel.emitRemark() << "no CPU schedule: " << whyNot;
        continue;
      }
      parallel->setAttr(Schedule::attrName,
                        schedule->toAttr(parallel.getContext()));
      if (remarks) {
        int64_t rowExtent = nest->rowDim ? nest->extent(*nest->rowDim) : 1;
        std::string group;
        if (schedule->rows > rowExtent)
          group = llvm::formatv(" ({0} outer rows of {1})",
                                schedule->rows / rowExtent, rowExtent);
        parallel.emitRemark() << llvm::formatv(
            "CPU schedule: {0}{6} x {1} vectors of {2}, {3} panels per "
            "block{4}{5}{7}",
            schedule->rows, schedule->vectors, schedule->lanes,
            schedule->panelsPerBlock, schedule->pack ? ", packed" : "",
            schedule->unrollInner ? ", inner reduction loop unrolled" : "",
            group,
            schedule->reductionChunk
                ? llvm::formatv(", reduction in chunks of {0}",
                                schedule->reductionChunk)
                      .str()
                : std::string());
      }
    }
  }

  std::optional<Schedule> choose(const ContractionNest &nest, unsigned bits,
                                 int64_t accumulators, std::string &whyNot) {
    unsigned accBits = nest.accType.getIntOrFloatBitWidth();
    if (bits < 2 * accBits) {
      whyNot = "the target has no vectors of " + std::to_string(accBits) +
               "-bit elements";
      return std::nullopt;
    }
    Schedule best;
    // The vector width: the target's, or a narrower one (down to 4 lanes)
    // when it covers more of the vector dimension. A vector operation costs
    // about as much as a scalar one, so the columns cost extent / lanes
    // vector steps plus extent % lanes scalar ones: 56 columns are 7
    // vectors of 8 rather than 3 of 16 and 8 scalars; 14 columns, too
    // narrow for one vector of 16, are 3 vectors of 4 and 2 scalars.
    int64_t extent = nest.extent(nest.vectorDim);
    best.lanes = bits / accBits;
    for (int64_t lanes = bits / accBits; lanes >= 4; lanes /= 2) {
      auto cost = [&](int64_t l) { return extent / l + extent % l; };
      if (extent >= lanes &&
          (extent < best.lanes || cost(lanes) < cost(best.lanes)))
        best.lanes = lanes;
    }
    int64_t fullVectors = extent / best.lanes;
    if (fullVectors == 0) {
      whyNot = llvm::formatv("the vector dimension has {0} elements, fewer "
                             "than one vector of {1}",
                             extent, std::min<int64_t>(best.lanes, 4));
      return std::nullopt;
    }
    int64_t rowExtent = nest.rowDim ? nest.extent(*nest.rowDim) : 1;
    LoadCounts loads = countLoads(nest);
    int64_t packable = 0;
    for (Operation *op : nest.body)
      if (auto load = dyn_cast<affine::AffineLoadOp>(op))
        packable += isPackable(nest, load);
    auto panelBytes = [&](int64_t vectors) {
      return nest.reductionPoints() * vectors * best.lanes * (accBits / 8) *
             std::max<int64_t>(packable, 1);
    };
    // Operands read per row and vector (a convolution's input) are read
    // once per column panel: with all of the vectors in one panel, each of
    // their cache lines is read once.
    int64_t minVectors = loads.both > 0 && fullVectors <= 4 ? fullVectors : 1;
    // Rows narrower than a register block (a 7 x 7 map) may be blocked in
    // whole rows of the outer dimension (two rows of 7 in a block of 14),
    // where nothing is read per row and vector (a window that slides with
    // the row is reused within one row only). Costs are then compared over
    // all the outer rows.
    int64_t outerExtent = nest.outerRowDim && loads.both == 0
                              ? nest.extent(*nest.outerRowDim)
                              : 1;
    // A panel of packable data larger than a cache block streams from
    // further away for each row block that reads it, unless the reduction
    // runs in chunks whose slice of the panel (`chunk-bytes`) each row
    // block reads from the L1 cache: the innermost reduction loop in
    // chunks, the partial sums stored and loaded again between them.
    int64_t rowPoints = 1;
    for (unsigned i = 0, e = nest.lowerBounds.size(); i < e; ++i)
      if (i != nest.vectorDim)
        rowPoints *= nest.extent(i);
    affine::AffineForOp innerLoop = nest.loops.back();
    int64_t innerTrips =
        innerLoop.getConstantUpperBound() - innerLoop.getConstantLowerBound();
    int64_t outerPoints = nest.reductionPoints() / innerTrips;
    // The chunk (iterations of the innermost loop) for `vectors`, or 0.
    auto chooseChunk = [&](int64_t vectors, int64_t rows) -> int64_t {
      if (packable == 0 || loads.unrollTrips || rowPoints <= rows ||
          chunkBytes <= 0)
        return 0;
      int64_t pointBytes = panelBytes(vectors) / nest.reductionPoints();
      for (int64_t chunk = innerTrips / 2; chunk >= 1; --chunk)
        if (innerTrips % chunk == 0 &&
            outerPoints * chunk * pointBytes <= chunkBytes)
          return outerPoints * chunk >= kMinChunkPoints ? chunk : 0;
      return 0;
    };
    double loadCost = bits >= 512 ? 0 : kLoadCost;
    std::optional<double> bestCost;
    for (int64_t vectors = minVectors;
         vectors <= std::min<int64_t>(4, fullVectors); ++vectors) {
      // Registers for the accumulators, the vectors of one step's
      // operand, and (without AVX-512's broadcast operands) the
      // broadcast scalar.
      int64_t usable =
          std::min<int64_t>(accumulators, (bits >= 512 ? 32 : 16) - vectors -
                                              (bits >= 512 ? 0 : 1));
      int64_t maxRows = std::min(rowExtent, usable / vectors);
      if (outerExtent > 1)
        maxRows = std::max(maxRows,
                           std::min(outerExtent, usable / vectors / rowExtent) *
                               rowExtent);
      for (int64_t rows = 1; rows <= maxRows; ++rows) {
        bool group = rows > rowExtent;
        if (group && rows % rowExtent != 0)
          continue;
        double cost =
            group ? totalCost(loads, outerExtent * rowExtent, fullVectors, rows,
                              vectors, loadCost)
                  : outerExtent * totalCost(loads, rowExtent, fullVectors, rows,
                                            vectors, loadCost);
        int64_t chunk = 0;
        if (packable > 0 && panelBytes(vectors) > blockBytes) {
          // Each chunk loads and stores the block's accumulators: about
          // two steps' worth of memory operations.
          chunk = chooseChunk(vectors, rows);
          cost *= chunk ? 1 + 2.0 / (outerPoints * chunk) : 1.25;
        }
        // Cheapest first; among equals the larger block (fewer loop trips).
        if (!bestCost || cost < *bestCost ||
            (cost == *bestCost && rows * vectors > best.rows * best.vectors)) {
          bestCost = cost;
          best.rows = rows;
          best.vectors = vectors;
          best.reductionChunk = chunk;
        }
      }
    }

    // Cache blocks of panels whose packable data fits blockBytes.
    int64_t panels = fullVectors / best.vectors;
    // At least min(panels, 4) blocks, so that threads have blocks to share.
    int64_t perBlock = blockBytes / panelBytes(best.vectors);
    perBlock = std::min<int64_t>(
        perBlock, llvm::divideCeil(panels, std::min<int64_t>(panels, 4)));
    best.panelsPerBlock = std::max<int64_t>(perBlock, 1);
    // Packing pays when more than one row block reads a packed panel.
    bool grouped = best.rows > rowExtent;
    int64_t rowReuse =
        grouped ? outerExtent * rowExtent / best.rows : rowExtent / best.rows;
    for (auto [i, extent] :
         llvm::enumerate(llvm::zip_equal(nest.lowerBounds, nest.upperBounds))) {
      if (i != nest.vectorDim && (!nest.rowDim || i != *nest.rowDim) &&
          (!grouped || i != *nest.outerRowDim))
        rowReuse *= std::get<1>(extent) - std::get<0>(extent);
    }
    // A parameter's panels are packed once for all calls: that pays with a
    // single row block too (a GEMV reads contiguous panels instead of a
    // vector or two per row of the matrix, a page apart).
    bool allParams =
        packable > 0 && llvm::all_of(nest.body, [&](Operation *op) {
          auto load = dyn_cast<affine::AffineLoadOp>(op);
          return !load || !isPackable(nest, load) || readsParameter(load);
        });
    best.pack = packable > 0 && (rowReuse > 1 || allParams) && panels > 0;
    best.unrollInner = loads.unrollTrips > 0;
    return best;
  }
};
} // namespace
