//===- CpuTileContractions.cpp - Vector code for scheduled reductions -----===//
//
// plaidml-cpu-tile-contractions: rewrites every reduction nest carrying a
// `plaidml.cpu.schedule` into cache blocks of column panels (packed where
// the schedule says), register blocks of rows x vectors accumulators kept
// in registers through the reduction loops, vector.fma for multiply-adds,
// the epilogue on vectors and vector stores; remainder rows and vectors get
// smaller blocks, remainder columns a copy of the original nest.
// Passes.td shows the generated structure.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "ContractionNest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUTILECONTRACTIONSPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::cpu;

namespace {
/// Where the generated code stands: the loop indices the affine maps it
/// builds take as dimensions, and what each original index is in them.
struct Frame {
  SmallVector<Value> operands;
  DenseMap<Value, AffineExpr> exprOf;

  AffineExpr addOperand(Value v, MLIRContext *ctx) {
    operands.push_back(v);
    return getAffineDimExpr(operands.size() - 1, ctx);
  }
};

/// A packed copy of one packable load's data: buffer[panel][reduction
/// point...][lane of the panel], of the current cache block's panels, or of
/// all of them (`whole`: a parameter's, packed once at the top of the
/// function, where plaidml-cpu-split-prepare finds it).
struct Packed {
  Value buffer;
  AffineExpr panel;
  bool whole = false;
  /// Laid out by reduction chunks (buffer[panel][chunk][...]).
  bool chunked = false;
};

/// Which part of a reduction `Generator::emitBlock` generates: all of it
/// (`Whole`), or, for a schedule with a reduction chunk, the prologue's
/// initial values stored into the scratch buffer (`Init`), one chunk of the
/// reduction from and back to the scratch buffer (`Chunk`), or the
/// epilogue of the scratch buffer's sums and the store (`Final`).
enum class Part { Whole, Init, Chunk, Final };

class Generator {
public:
  Generator(const ContractionNest &nest, const Schedule &schedule)
      : nest(nest), schedule(schedule), b(nest.parallel),
        loc(nest.parallel.getLoc()), ctx(nest.parallel.getContext()) {}

  void run();

private:
  /// Whether register blocks span several outer rows (rows above the
  /// row extent), and the row extent they are counted in then.
  bool grouped() const {
    return nest.rowDim && nest.outerRowDim &&
           schedule.rows > nest.extent(*nest.rowDim);
  }
  int64_t rowExtent() const {
    return nest.rowDim ? nest.extent(*nest.rowDim) : 1;
  }

  // Index arithmetic.
  AffineExpr cst(int64_t v) { return getAffineConstantExpr(v, ctx); }
  int64_t panelWidth() const { return schedule.vectors * schedule.lanes; }

  /// An affine map of `frame` computing `map` over the original indices,
  /// with `rowOffset` / `vecOffset` added to the row / vector index.
  AffineMap rewriteMap(const Frame &frame, AffineMap map, ValueRange operands,
                       int64_t rowOffset, int64_t vecOffset);

  /// The register block of `rows` x `vectors` at the indices `frame` gives
  /// (the row index is the first row, the vector index the first column):
  /// the part `part` of its reduction; `chunk` (an expression of `frame`)
  /// is the chunk of a `Part::Chunk`.
  void emitBlock(Frame frame, int64_t rows, int64_t vectors,
                 const DenseMap<Operation *, Packed> &packed,
                 Part part = Part::Whole, AffineExpr chunk = {});
  /// The map of `frame` addressing the scratch buffer (one accumulator per
  /// point of the parallel indices) at row `i` and column `col` of a block.
  AffineMap scratchMap(const Frame &frame, int64_t i, int64_t col);
  /// The loop over the panels of the cache block `block` (an expression of
  /// `frame`), at most `panelsPerBlock` of the `panels`; `body` is built in
  /// it with the frame of one panel (its first column) and `packed` read at
  /// that panel. Leaves the builder where it was.
  void emitPanelLoop(
      const Frame &frame, AffineExpr block, int64_t panels,
      const DenseMap<Operation *, Packed> &packed,
      function_ref<void(Frame &, const DenseMap<Operation *, Packed> &)> body);
  /// The full column panels of a schedule with a reduction chunk, in the
  /// cache block `block`: per panel, the initial values, the chunks (each
  /// over every row block of the panel) and the epilogue.
  void emitChunkedPanels(Frame &frame, AffineExpr block, int64_t panels,
                         const DenseMap<Operation *, Packed> &packed);
  /// Copies every packable load's data into a new buffer of `bufferPanels`
  /// panels of `width` columns: `count` panels (an upper bound map of
  /// `frame`) from column `first` (relative to the vector dimension's
  /// start), laid out by chunks of `chunk` (0: not); a parameter's data
  /// instead, its `panels` panels from column `column`, into a buffer made
  /// once at the top of the function. Each is read at panel `panel` (null:
  /// set by emitPanelLoop). Run-time copies are freed by the caller.
  DenseMap<Operation *, Packed>
  emitPacking(Frame &frame, AffineExpr first, AffineMap count,
              int64_t bufferPanels, int64_t column, int64_t panels,
              int64_t width, int64_t chunk, AffineExpr panel);
  /// A buffer of `type` made once at the top of the function and filled
  /// there (plaidml-cpu-split-prepare moves both to the preparation) with
  /// `count` panels of `width` columns of `load`'s data from `column` on.
  Value emitPreparedCopy(affine::AffineLoadOp load, MemRefType type,
                         int64_t column, int64_t count, int64_t width,
                         int64_t chunk);
  /// The copy loops of `load`'s data into `buffer`: `count` panels (an
  /// upper bound map of `frame`) of `width` columns from column `first`
  /// on, laid out by chunks of `chunk` iterations of the innermost
  /// reduction loop (0: not); returns the outermost.
  affine::AffineForOp emitCopy(Frame frame, affine::AffineLoadOp load,
                               Value buffer, AffineExpr first, AffineMap count,
                               int64_t width, int64_t chunk);
  /// The packed buffer's type for `load` with `panels` panels of `width`
  /// columns, by chunks of `chunk` iterations (0: not).
  MemRefType packedType(affine::AffineLoadOp load, int64_t panels,
                        int64_t width, int64_t chunk) const;
  /// Whether the cache blocks copy `load`'s data into packed panels.
  bool isPacked(affine::AffineLoadOp load) const;
  /// Whether some load is packed per cache block (at run time, inside the
  /// block loop) rather than once for the whole function.
  bool packsPerBlock() const;
  /// The parallel indices other than the row and vector ones (positions).
  SmallVector<unsigned> getOtherDims() const;
  /// An affine.parallel over the parallel indices other than the row and
  /// vector ones (plaidml-cpu-parallelize decides whether it runs on
  /// threads), recorded in `frame`; leaves the builder inside.
  void emitOtherLoops(Frame &frame);
  /// The row blocks of `step` rows (and the remainder rows) of one column
  /// position.
  void emitRows(Frame frame, int64_t step,
                function_ref<void(Frame &, int64_t rows)> columns);
  /// The original nest restricted to the vector index range [from, to).
  void emitScalarColumns(int64_t from);

  const ContractionNest &nest;
  const Schedule &schedule;
  /// The partial sums between reduction chunks, shaped like the parallel
  /// indices' ranges (null without a reduction chunk).
  Value scratch;
  OpBuilder b;
  Location loc;
  MLIRContext *ctx;
};

AffineMap Generator::rewriteMap(const Frame &frame, AffineMap map,
                                ValueRange operands, int64_t rowOffset,
                                int64_t vecOffset) {
  Value rowIV = nest.rowDim ? nest.parallel.getIVs()[*nest.rowDim] : Value();
  Value vecIV = nest.parallel.getIVs()[nest.vectorDim];
  // Row i of a block spanning several outer rows is row i % extent of
  // outer row i / extent (the block starts at the row dimension's start).
  Value outerIV;
  int64_t outerOffset = 0;
  if (grouped()) {
    outerIV = nest.parallel.getIVs()[*nest.outerRowDim];
    outerOffset = rowOffset / rowExtent();
    rowOffset %= rowExtent();
  }
  SmallVector<AffineExpr> dims;
  for (auto [pos, operand] : llvm::enumerate(operands)) {
    AffineExpr e = frame.exprOf.lookup(operand);
    if (!e && !map.isFunctionOfDim(pos)) {
      dims.push_back(cst(0)); // an index the map does not use
      continue;
    }
    assert(e && "a used index without a replacement");
    if (operand == rowIV)
      e = e + rowOffset;
    if (outerIV && operand == outerIV)
      e = e + outerOffset;
    if (operand == vecIV)
      e = e + vecOffset;
    dims.push_back(e);
  }
  AffineMap result = map.replaceDimsAndSymbols(dims, {}, frame.operands.size(),
                                               /*numResultSyms=*/0);
  return simplifyAffineMap(result);
}

bool Generator::isPacked(affine::AffineLoadOp load) const {
  // Only when every reduction index addresses the data, so the copy is no
  // larger than the data a block reads.
  return schedule.pack && isPackable(nest, load) &&
         llvm::all_of(nest.loops, [&](affine::AffineForOp loop) {
           return llvm::is_contained(getUsedIndices(load),
                                     loop.getInductionVar());
         });
}

bool Generator::packsPerBlock() const {
  return llvm::any_of(nest.body, [&](Operation *op) {
    auto load = dyn_cast<affine::AffineLoadOp>(op);
    return load && isPacked(load) && !readsParameter(load);
  });
}

SmallVector<unsigned> Generator::getOtherDims() const {
  SmallVector<unsigned> others;
  for (unsigned i = 0, e = nest.lowerBounds.size(); i < e; ++i)
    if (i != nest.vectorDim && (!nest.rowDim || i != *nest.rowDim) &&
        (!grouped() || i != *nest.outerRowDim))
      others.push_back(i);
  return others;
}

void Generator::emitOtherLoops(Frame &frame) {
  SmallVector<unsigned> others = getOtherDims();
  if (others.empty())
    return;
  SmallVector<AffineMap> lbMaps, ubMaps;
  for (unsigned i : others) {
    lbMaps.push_back(AffineMap::getConstantMap(nest.lowerBounds[i], ctx));
    ubMaps.push_back(AffineMap::getConstantMap(nest.upperBounds[i], ctx));
  }
  auto loop = affine::AffineParallelOp::create(
      b, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, lbMaps,
      ValueRange{}, ubMaps, ValueRange{},
      SmallVector<int64_t>(others.size(), 1));
  for (auto [i, iv] : llvm::zip_equal(others, loop.getIVs()))
    frame.exprOf[nest.parallel.getIVs()[i]] = frame.addOperand(iv, ctx);
  b.setInsertionPointToStart(loop.getBody());
}

void Generator::emitRows(Frame frame, int64_t step,
                         function_ref<void(Frame &, int64_t rows)> columns) {
  // The blocks step along the row dimension, `rows` rows at a time, or,
  // for blocks of whole rows, along the outer row dimension, `rows /
  // extent` outer rows at a time; then one block of what is left.
  Value iv;
  int64_t lower = 0, extent = 1, unit = 1;
  if (grouped()) {
    unit = rowExtent();
    step /= unit;
    frame.exprOf[nest.parallel.getIVs()[*nest.rowDim]] =
        cst(nest.lowerBounds[*nest.rowDim]);
    unsigned outerDim = *nest.outerRowDim;
    iv = nest.parallel.getIVs()[outerDim];
    lower = nest.lowerBounds[outerDim];
    extent = nest.extent(outerDim);
  } else if (nest.rowDim) {
    iv = nest.parallel.getIVs()[*nest.rowDim];
    lower = nest.lowerBounds[*nest.rowDim];
    extent = nest.extent(*nest.rowDim);
  }
  int64_t fullBlocks = extent / step, tail = extent % step;
  OpBuilder::InsertionGuard guard(b);
  if (fullBlocks > 0) {
    OpBuilder::InsertionGuard inner(b);
    Frame rowFrame = frame;
    auto loop = affine::AffineForOp::create(b, loc, 0, fullBlocks);
    b.setInsertionPointToStart(loop.getBody());
    if (iv)
      rowFrame.exprOf[iv] =
          rowFrame.addOperand(loop.getInductionVar(), ctx) * step + lower;
    columns(rowFrame, step * unit);
  }
  if (tail > 0) {
    Frame rowFrame = frame;
    if (iv)
      rowFrame.exprOf[iv] = cst(lower + fullBlocks * step);
    columns(rowFrame, tail * unit);
  }
}

affine::AffineForOp Generator::emitCopy(Frame frame, affine::AffineLoadOp load,
                                        Value buffer, AffineExpr first,
                                        AffineMap count, int64_t width,
                                        int64_t chunk) {
  // for panel p < count:
  //   for reduction point r: for lane l (step lanes):
  //     buffer[p, r - lb, l] = load at (r, vec = first + p * width + l)
  OpBuilder::InsertionGuard guard(b);
  Value vecIV = nest.parallel.getIVs()[nest.vectorDim];
  int64_t vecLower = nest.lowerBounds[nest.vectorDim];
  auto panelLoop = affine::AffineForOp::create(b, loc, ValueRange{},
                                               b.getConstantAffineMap(0),
                                               frame.operands, count, 1);
  b.setInsertionPointToStart(panelLoop.getBody());
  AffineExpr p = frame.addOperand(panelLoop.getInductionVar(), ctx);
  SmallVector<AffineExpr> storeIndices{p};
  // With a reduction chunk: buffer[p, chunk, r - lb..., r_inner in chunk,
  // l], so that a chunk's slice of a panel is contiguous.
  if (chunk)
    storeIndices.push_back(cst(0)); // set below
  for (affine::AffineForOp loop : nest.loops) {
    auto copyLoop = affine::AffineForOp::create(
        b, loc, loop.getConstantLowerBound(), loop.getConstantUpperBound());
    b.setInsertionPointToStart(copyLoop.getBody());
    AffineExpr r = frame.addOperand(copyLoop.getInductionVar(), ctx);
    frame.exprOf[loop.getInductionVar()] = r;
    AffineExpr point = r - loop.getConstantLowerBound();
    if (chunk && loop == nest.loops.back()) {
      storeIndices[1] = point.floorDiv(chunk);
      point = point % chunk;
    }
    storeIndices.push_back(point);
  }
  auto laneLoop = affine::AffineForOp::create(b, loc, 0, width, schedule.lanes);
  b.setInsertionPointToStart(laneLoop.getBody());
  AffineExpr l = frame.addOperand(laneLoop.getInductionVar(), ctx);
  frame.exprOf[vecIV] = first + p * width + l + vecLower;
  storeIndices.push_back(l);
  Type elementType = load.getMemRefType().getElementType();
  auto vectorType = VectorType::get({schedule.lanes}, elementType);
  AffineMap loadMap =
      rewriteMap(frame, load.getAffineMap(), load.getMapOperands(), 0, 0);
  Value data = affine::AffineVectorLoadOp::create(
      b, loc, vectorType, load.getMemRef(), loadMap, frame.operands);
  affine::AffineVectorStoreOp::create(
      b, loc, data, buffer,
      AffineMap::get(frame.operands.size(), 0, storeIndices, ctx),
      frame.operands);
  return panelLoop;
}

MemRefType Generator::packedType(affine::AffineLoadOp load, int64_t panels,
                                 int64_t width, int64_t chunk) const {
  SmallVector<int64_t> shape{panels};
  for (affine::AffineForOp loop : nest.loops) {
    int64_t trips = loop.getConstantUpperBound() - loop.getConstantLowerBound();
    if (chunk && loop == nest.loops.back()) {
      shape.insert(shape.begin() + 1, trips / chunk);
      trips = chunk;
    }
    shape.push_back(trips);
  }
  shape.push_back(width);
  return MemRefType::get(shape, load.getMemRefType().getElementType());
}

Value Generator::emitPreparedCopy(affine::AffineLoadOp load, MemRefType type,
                                  int64_t column, int64_t count, int64_t width,
                                  int64_t chunk) {
  // Packed at the top of the function, in a buffer freed before it returns
  // (plaidml-cpu-split-prepare moves both to the preparation).
  auto func = nest.parallel->getParentOfType<func::FuncOp>();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(func.getBody().front().getTerminator());
  auto alloc = memref::AllocOp::create(b, loc, type, ValueRange{},
                                       b.getI64IntegerAttr(64));
  memref::DeallocOp::create(b, loc, alloc);
  alloc->setAttr(kCpuPreparedAttrName, b.getUnitAttr());
  alloc->moveBefore(&func.getBody().front().front());
  b.setInsertionPointAfter(alloc);
  affine::AffineForOp copy =
      emitCopy(Frame(), load, alloc, cst(column),
               AffineMap::getConstantMap(count, ctx), width, chunk);
  copy->setAttr(kCpuPrepareAttrName, b.getUnitAttr());
  return alloc;
}

DenseMap<Operation *, Packed>
Generator::emitPacking(Frame &frame, AffineExpr first, AffineMap count,
                       int64_t bufferPanels, int64_t column, int64_t panels,
                       int64_t width, int64_t chunk, AffineExpr panel) {
  DenseMap<Operation *, Packed> packed;
  for (Operation *op : nest.body) {
    auto load = dyn_cast<affine::AffineLoadOp>(op);
    if (!load || !isPacked(load))
      continue;
    // A parameter's panels are packed all at once, for every call.
    if (readsParameter(load)) {
      Value buffer =
          emitPreparedCopy(load, packedType(load, panels, width, chunk), column,
                           panels, width, chunk);
      packed[op] = {buffer, panel, true, chunk != 0};
      continue;
    }
    Value buffer = memref::AllocOp::create(
        b, loc, packedType(load, bufferPanels, width, chunk), ValueRange{},
        b.getI64IntegerAttr(64));
    emitCopy(frame, load, buffer, first, count, width, chunk);
    packed[op] = {buffer, panel, false, chunk != 0};
  }
  return packed;
}

AffineMap Generator::scratchMap(const Frame &frame, int64_t i, int64_t col) {
  SmallVector<AffineExpr> results;
  for (auto [pos, lower] : llvm::enumerate(nest.lowerBounds))
    results.push_back(getAffineDimExpr(pos, ctx) - lower);
  AffineMap map = AffineMap::get(nest.lowerBounds.size(), 0, results, ctx);
  return rewriteMap(frame, map, nest.parallel.getIVs(), i, col);
}

void Generator::emitBlock(Frame frame, int64_t rows, int64_t vectors,
                          const DenseMap<Operation *, Packed> &packed,
                          Part part, AffineExpr chunk) {
  int64_t lanes = schedule.lanes;
  // In a chunk, the innermost reduction loop's index within the chunk (an
  // expression of the loops' frame).
  AffineExpr innerPoint;
  // Instances of each nest value: one per row it depends on times one per
  // vector it depends on.
  DenseMap<Value, SmallVector<Value>> instances;
  // Broadcasts made in one block for one copy of an unrolled loop body.
  DenseMap<std::tuple<Value, int64_t, Block *, int64_t>, Value> broadcasts;
  int64_t copy = 0;
  auto index = [&](Dependence dep, int64_t i, int64_t j) {
    return (dep.row ? i : 0) * (dep.vec ? vectors : 1) + (dep.vec ? j : 0);
  };
  auto get = [&](Value orig, int64_t i, int64_t j) -> Value {
    auto it = instances.find(orig);
    if (it == instances.end())
      return orig; // defined outside the nest: uniform
    return it->second[index(nest.get(orig), i, j)];
  };
  auto getVector = [&](Value orig, int64_t i, int64_t j) -> Value {
    Value v = get(orig, i, j);
    if (isa<VectorType>(v.getType()))
      return v;
    auto key = std::make_tuple(orig, index(nest.get(orig), i, j),
                               b.getInsertionBlock(), copy);
    Value &cached = broadcasts[key];
    if (!cached)
      cached = vector::BroadcastOp::create(
          b, loc, VectorType::get({lanes}, v.getType()), v);
    return cached;
  };
  auto vectorOf = [&](Type type) { return VectorType::get({lanes}, type); };
  // The frame of the code being emitted: the block's, or inside the
  // reduction loops the block's plus their indices.
  Frame loopFrame = frame;
  Frame *current = &frame;

  auto emitOps = [&](ArrayRef<Operation *> ops) {
    // Multiply-adds on vectors become one vector.fma: the multiply is
    // skipped where its only user is such an add.
    DenseMap<Operation *, std::pair<arith::MulFOp, Value>> fmas;
    DenseSet<Operation *> fusedMuls;
    for (Operation *op : ops) {
      auto add = dyn_cast<arith::AddFOp>(op);
      if (!add || !nest.get(add.getResult()).vec)
        continue;
      for (auto [mine, other] : {std::pair(add.getLhs(), add.getRhs()),
                                 std::pair(add.getRhs(), add.getLhs())}) {
        auto mul = mine.getDefiningOp<arith::MulFOp>();
        if (!mul || !mul->hasOneUse() || !llvm::is_contained(ops, mul))
          continue;
        fmas[op] = {mul, other};
        fusedMuls.insert(mul);
        break;
      }
    }
    for (Operation *op : ops) {
      if (fusedMuls.contains(op))
        continue;
      Value result = op->getResult(0);
      Dependence dep = nest.get(result);
      int64_t nr = dep.row ? rows : 1, nv = dep.vec ? vectors : 1;
      SmallVector<Value> &out = instances[result];
      out.clear(); // a previous copy of an unrolled body
      if (op->hasTrait<OpTrait::ConstantLike>()) {
        out.push_back(b.clone(*op)->getResult(0));
        continue;
      }
      for (int64_t i = 0; i < nr; ++i) {
        for (int64_t j = 0; j < nv; ++j) {
          if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
            if (auto it = packed.find(op); it != packed.end()) {
              // buffer[panel, r - lb..., j * lanes], or with a reduction
              // chunk buffer[panel, chunk, r - lb..., r_inner in chunk,
              // j * lanes]
              SmallVector<AffineExpr> indices{it->second.panel};
              if (it->second.chunked)
                indices.push_back(chunk);
              for (affine::AffineForOp loop : nest.loops) {
                if (it->second.chunked && loop == nest.loops.back()) {
                  indices.push_back(innerPoint);
                  continue;
                }
                indices.push_back(
                    current->exprOf.lookup(loop.getInductionVar()) -
                    loop.getConstantLowerBound());
              }
              indices.push_back(cst(j * lanes));
              out.push_back(affine::AffineVectorLoadOp::create(
                  b, loc, vectorOf(load.getType()), it->second.buffer,
                  AffineMap::get(current->operands.size(), 0, indices, ctx),
                  current->operands));
              continue;
            }
            AffineMap map = rewriteMap(*current, load.getAffineMap(),
                                       load.getMapOperands(), i, j * lanes);
            if (dep.vec)
              out.push_back(affine::AffineVectorLoadOp::create(
                  b, loc, vectorOf(load.getType()), load.getMemRef(), map,
                  current->operands));
            else
              out.push_back(affine::AffineLoadOp::create(
                  b, loc, load.getMemRef(), map, current->operands));
            continue;
          }
          if (auto it = fmas.find(op); it != fmas.end()) {
            arith::MulFOp mul = it->second.first;
            out.push_back(
                vector::FMAOp::create(b, loc, getVector(mul.getLhs(), i, j),
                                      getVector(mul.getRhs(), i, j),
                                      getVector(it->second.second, i, j)));
            continue;
          }
          IRMapping mapping;
          for (Value operand : op->getOperands())
            mapping.map(operand, dep.vec ? getVector(operand, i, j)
                                         : get(operand, i, j));
          Operation *clone = b.clone(*op, mapping);
          if (dep.vec)
            clone->getResult(0).setType(vectorOf(result.getType()));
          out.push_back(clone->getResult(0));
        }
      }
    }
  };

  emitOps(nest.prologue);

  // The accumulators: the initial values, or the partial sums of the
  // chunks before.
  affine::AffineForOp outer = nest.loops.front();
  SmallVector<Value> accs;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < vectors; ++j) {
      if (part == Part::Whole || part == Part::Init)
        accs.push_back(getVector(outer.getInits()[0], i, j));
      else
        accs.push_back(affine::AffineVectorLoadOp::create(
            b, loc, vectorOf(nest.accType), scratch,
            scratchMap(frame, i, j * lanes), frame.operands));
    }
  }
  auto storeScratch = [&]() {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j)
        affine::AffineVectorStoreOp::create(
            b, loc, accs[i * vectors + j], scratch,
            scratchMap(frame, i, j * lanes), frame.operands);
  };
  if (part == Part::Init)
    return storeScratch();

  // The reduction loops, carrying rows x vectors accumulators.
  // The innermost loop is unrolled when the schedule says so: its copies
  // read overlapping windows (a row index plus the loop's index), which
  // LLVM then loads once. In a chunk it runs over the chunk's iterations.
  SmallVector<affine::AffineForOp> loops;
  if (part != Part::Final) {
    OpBuilder::InsertionGuard guard(b);
    for (affine::AffineForOp loop : nest.loops) {
      if (schedule.unrollInner && loop == nest.loops.back())
        break;
      bool chunked = part == Part::Chunk && loop == nest.loops.back();
      int64_t lower = loop.getConstantLowerBound();
      auto newLoop = affine::AffineForOp::create(
          b, loc, chunked ? 0 : lower,
          chunked ? schedule.reductionChunk : loop.getConstantUpperBound(), 1,
          accs);
      AffineExpr iv = loopFrame.addOperand(newLoop.getInductionVar(), ctx);
      loopFrame.exprOf[loop.getInductionVar()] = iv;
      if (chunked) {
        innerPoint = iv;
        loopFrame.exprOf[loop.getInductionVar()] =
            chunk * schedule.reductionChunk + iv + lower;
      }
      instances[loop.getRegionIterArgs()[0]] =
          SmallVector<Value>(newLoop.getRegionIterArgs());
      accs = SmallVector<Value>(newLoop.getRegionIterArgs());
      loops.push_back(newLoop);
      b.setInsertionPointToStart(newLoop.getBody());
    }
    current = &loopFrame;
    affine::AffineForOp inner = nest.loops.back();
    Value yielded = inner.getBody()->getTerminator()->getOperand(0);
    auto emitBody = [&]() {
      instances[inner.getRegionIterArgs()[0]] = accs;
      emitOps(nest.body);
      accs.clear();
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < vectors; ++j)
          accs.push_back(getVector(yielded, i, j));
    };
    if (schedule.unrollInner) {
      for (int64_t t = inner.getConstantLowerBound();
           t < inner.getConstantUpperBound(); ++t, ++copy) {
        loopFrame.exprOf[inner.getInductionVar()] = cst(t);
        emitBody();
      }
    } else {
      emitBody();
    }
    current = &frame;
    for (affine::AffineForOp loop : llvm::reverse(loops)) {
      affine::AffineYieldOp::create(b, loc, accs);
      accs = SmallVector<Value>(loop.getResults());
      b.setInsertionPointAfter(loop);
    }
  }
  if (part == Part::Chunk)
    return storeScratch();
  instances[outer.getResult(0)] = accs;

  emitOps(nest.epilogue);

  affine::AffineStoreOp store = nest.store;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < vectors; ++j) {
      AffineMap map = rewriteMap(frame, store.getAffineMap(),
                                 store.getMapOperands(), i, j * lanes);
      affine::AffineVectorStoreOp::create(
          b, loc, getVector(store.getValueToStore(), i, j), store.getMemRef(),
          map, frame.operands);
    }
  }
}

void Generator::emitScalarColumns(int64_t from) {
  SmallVector<AffineMap> lbMaps, ubMaps;
  for (auto [i, bounds] :
       llvm::enumerate(llvm::zip_equal(nest.lowerBounds, nest.upperBounds))) {
    int64_t lower = i == nest.vectorDim ? from : std::get<0>(bounds);
    lbMaps.push_back(AffineMap::getConstantMap(lower, ctx));
    ubMaps.push_back(AffineMap::getConstantMap(std::get<1>(bounds), ctx));
  }
  SmallVector<int64_t> steps(lbMaps.size(), 1);
  auto copy = affine::AffineParallelOp::create(
      b, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, lbMaps,
      ValueRange{}, ubMaps, ValueRange{}, steps);
  IRMapping mapping;
  mapping.map(nest.parallel.getIVs(), copy.getIVs());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(copy.getBody());
  for (Operation &op : nest.parallel.getBody()->without_terminator())
    b.clone(op, mapping);
}

void Generator::emitPanelLoop(
    const Frame &frame, AffineExpr block, int64_t panels,
    const DenseMap<Operation *, Packed> &packed,
    function_ref<void(Frame &, const DenseMap<Operation *, Packed> &)> body) {
  OpBuilder::InsertionGuard guard(b);
  int64_t perBlock = schedule.panelsPerBlock;
  AffineMap upper =
      AffineMap::get(frame.operands.size(), 0,
                     {cst(perBlock), cst(panels) - block * perBlock}, ctx);
  auto panelLoop = affine::AffineForOp::create(b, loc, ValueRange{},
                                               b.getConstantAffineMap(0),
                                               frame.operands, upper, 1);
  b.setInsertionPointToStart(panelLoop.getBody());
  Frame panelFrame = frame;
  AffineExpr p = panelFrame.addOperand(panelLoop.getInductionVar(), ctx);
  panelFrame.exprOf[nest.parallel.getIVs()[nest.vectorDim]] =
      (block * perBlock + p) * panelWidth() + nest.lowerBounds[nest.vectorDim];
  DenseMap<Operation *, Packed> here = packed;
  for (auto &entry : here)
    entry.second.panel = entry.second.whole ? block * perBlock + p : p;
  body(panelFrame, here);
}

void Generator::emitChunkedPanels(Frame &frame, AffineExpr block,
                                  int64_t panels,
                                  const DenseMap<Operation *, Packed> &packed) {
  // for p < min(perBlock, panels - block * perBlock):
  //   every row block: scratch = initial values
  //   for chunk c: every row block: scratch += chunk c of the reduction
  //   every row block: out = epilogue(scratch)
  affine::AffineForOp inner = nest.loops.back();
  int64_t chunks =
      (inner.getConstantUpperBound() - inner.getConstantLowerBound()) /
      schedule.reductionChunk;
  auto body = [&](Frame &panelFrame,
                  const DenseMap<Operation *, Packed> &here) {
    for (Part part : {Part::Init, Part::Chunk, Part::Final}) {
      OpBuilder::InsertionGuard guard(b);
      Frame partFrame = panelFrame;
      AffineExpr chunk;
      if (part == Part::Chunk) {
        auto chunkLoop = affine::AffineForOp::create(b, loc, 0, chunks);
        b.setInsertionPointToStart(chunkLoop.getBody());
        chunk = partFrame.addOperand(chunkLoop.getInductionVar(), ctx);
      }
      emitOtherLoops(partFrame);
      emitRows(partFrame, schedule.rows, [&](Frame &rowFrame, int64_t rows) {
        emitBlock(rowFrame, rows, schedule.vectors, here, part, chunk);
      });
    }
  };
  emitPanelLoop(frame, block, panels, packed, body);
}

void Generator::run() {
  int64_t lanes = schedule.lanes, width = panelWidth();
  int64_t vecLower = nest.lowerBounds[nest.vectorDim];
  int64_t fullVectors = nest.extent(nest.vectorDim) / lanes;
  int64_t panels = fullVectors / schedule.vectors;
  int64_t tailVectors = fullVectors % schedule.vectors;
  Value vecIV = nest.parallel.getIVs()[nest.vectorDim];

  // The scratch buffer of the partial sums between reduction chunks, a
  // temporary of the function (plaidml-cpu-plan-workspace places it).
  if (schedule.reductionChunk && panels > 0) {
    SmallVector<int64_t> shape;
    for (unsigned i = 0, e = nest.lowerBounds.size(); i < e; ++i)
      shape.push_back(nest.extent(i));
    scratch =
        memref::AllocOp::create(b, loc, MemRefType::get(shape, nest.accType),
                                ValueRange{}, b.getI64IntegerAttr(64));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(nest.parallel);
    memref::DeallocOp::create(b, loc, scratch);
  }

  // Full panels, in cache blocks; blocks run in parallel.
  if (panels > 0) {
    int64_t perBlock = schedule.panelsPerBlock;
    int64_t blocks = llvm::divideCeil(panels, perBlock);
    // The other parallel indices (a convolution's output rows) join the
    // parallel loop, so that threads share them, and not only the blocks
    // (3 blocks on 2 threads would keep one thread idle a third of the
    // time), unless some data is packed per block: then only with a single
    // block, each of their points packing its own copy.
    SmallVector<unsigned> others = getOtherDims();
    int64_t otherPoints = 1;
    for (unsigned i : others)
      otherPoints *= nest.extent(i);
    // Chunked, each block runs its chunks over all of the other indices, so
    // they stay out of the parallel loop.
    bool spread = otherPoints > 1 && (blocks == 1 || !packsPerBlock()) &&
                  !schedule.reductionChunk;
    SmallVector<AffineMap> lbMaps{AffineMap::getConstantMap(0, ctx)};
    SmallVector<AffineMap> ubMaps{AffineMap::getConstantMap(blocks, ctx)};
    if (spread) {
      for (unsigned i : others) {
        lbMaps.push_back(AffineMap::getConstantMap(nest.lowerBounds[i], ctx));
        ubMaps.push_back(AffineMap::getConstantMap(nest.upperBounds[i], ctx));
      }
    }
    OpBuilder::InsertionGuard guard(b);
    auto blockLoop = affine::AffineParallelOp::create(
        b, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, lbMaps,
        ValueRange{}, ubMaps, ValueRange{},
        SmallVector<int64_t>(lbMaps.size(), 1));
    b.setInsertionPointToStart(blockLoop.getBody());
    Frame frame;
    AffineExpr block = frame.addOperand(blockLoop.getIVs()[0], ctx);
    if (spread) {
      for (auto [i, iv] :
           llvm::zip_equal(others, blockLoop.getIVs().drop_front()))
        frame.exprOf[nest.parallel.getIVs()[i]] = frame.addOperand(iv, ctx);
    }
    DenseMap<Operation *, Packed> packed;
    if (schedule.pack) {
      int64_t perBlock = schedule.panelsPerBlock;
      AffineMap count =
          AffineMap::get(frame.operands.size(), 0,
                         {cst(perBlock), cst(panels) - block * perBlock}, ctx);
      packed =
          emitPacking(frame, block * (perBlock * width), count, perBlock, 0,
                      panels, width, schedule.reductionChunk, AffineExpr());
    }
    if (schedule.reductionChunk) {
      emitChunkedPanels(frame, block, panels, packed);
    } else {
      OpBuilder::InsertionGuard loops(b);
      if (!spread)
        emitOtherLoops(frame);
      emitRows(frame, schedule.rows, [&](Frame &rowFrame, int64_t rows) {
        emitPanelLoop(
            rowFrame, block, panels, packed,
            [&](Frame &panelFrame, const DenseMap<Operation *, Packed> &here) {
              emitBlock(panelFrame, rows, schedule.vectors, here);
            });
      });
    }
    for (auto &entry : packed)
      if (!entry.second.whole)
        memref::DeallocOp::create(b, loc, entry.second.buffer);
  }

  // Remainder vectors: one narrower panel, packed like the full ones (its
  // packable data reads no other parallel index), in blocks of as many rows
  // as keep the full block's accumulators.
  if (tailVectors > 0) {
    OpBuilder::InsertionGuard guard(b);
    Frame frame;
    DenseMap<Operation *, Packed> packed;
    if (schedule.pack)
      packed = emitPacking(frame, cst(panels * width),
                           AffineMap::getConstantMap(1, ctx), 1, panels * width,
                           1, tailVectors * lanes, 0, cst(0));
    {
      OpBuilder::InsertionGuard loops(b);
      emitOtherLoops(frame);
      frame.exprOf[vecIV] = cst(vecLower + panels * width);
      emitRows(frame, schedule.remainderRows(tailVectors, rowExtent()),
               [&](Frame &rowFrame, int64_t rows) {
                 emitBlock(rowFrame, rows, tailVectors, packed);
               });
    }
    for (auto &entry : packed)
      if (!entry.second.whole)
        memref::DeallocOp::create(b, loc, entry.second.buffer);
  }

  // Remainder columns that do not fill a vector.
  int64_t vectorEnd = vecLower + fullVectors * lanes;
  if (vectorEnd < nest.upperBounds[nest.vectorDim])
    emitScalarColumns(vectorEnd);

  nest.parallel.erase();
}

struct CpuTileContractionsPass
    : public plaidml::impl::CpuTileContractionsPassBase<
          CpuTileContractionsPass> {
  void runOnOperation() override {
    SmallVector<affine::AffineParallelOp> scheduled;
    for (auto parallel :
         getOperation().getBody().getOps<affine::AffineParallelOp>())
      if (parallel->hasAttr(Schedule::attrName))
        scheduled.push_back(parallel);
    for (affine::AffineParallelOp parallel : scheduled) {
      std::optional<Schedule> schedule =
          Schedule::fromAttr(parallel->getAttr(Schedule::attrName));
      std::string whyNot;
      std::optional<ContractionNest> nest =
          matchContractionNest(parallel, whyNot);
      if (!schedule || !nest) {
        parallel.emitError() << "plaidml-cpu-tile-contractions: cannot "
                                "follow the plaidml.cpu.schedule here: "
                             << (nest ? "the schedule is malformed" : whyNot);
        return signalPassFailure();
      }
      int64_t rowExtent = nest->rowDim ? nest->extent(*nest->rowDim) : 1;
      if (schedule->rows > rowExtent &&
          (!nest->outerRowDim || schedule->rows % rowExtent != 0)) {
        parallel.emitError()
            << "plaidml-cpu-tile-contractions: cannot follow the "
               "plaidml.cpu.schedule here: "
            << schedule->rows << " rows of a block exceed the row extent "
            << rowExtent
            << (nest->outerRowDim
                    ? ", and are not whole rows of it"
                    : ", and no outer row dimension can take them");
        return signalPassFailure();
      }
      if (int64_t chunk = schedule->reductionChunk) {
        affine::AffineForOp inner = nest->loops.back();
        int64_t trips =
            inner.getConstantUpperBound() - inner.getConstantLowerBound();
        if (schedule->unrollInner || trips % chunk != 0) {
          parallel.emitError()
              << "plaidml-cpu-tile-contractions: cannot follow the "
                 "plaidml.cpu.schedule here: a reduction chunk of "
              << chunk << " iterations "
              << (schedule->unrollInner
                      ? "with the innermost reduction loop unrolled"
                      : "does not divide the innermost reduction loop's " +
                            std::to_string(trips));
          return signalPassFailure();
        }
      }
      Generator(*nest, *schedule).run();
    }
  }
};
} // namespace
