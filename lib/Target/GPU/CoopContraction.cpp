//===- CoopContraction.cpp - Cooperative-matrix GEMM kernels --------------===//
//
// The choice and the kernel behind plaidml.gpu.coop_tile
// (docs/GpuKernels.md, "Cooperative matrices"): f16 factors summed in f32,
// staged in workgroup memory in the order of their memory (8 halves at a
// time where a factor allows: wide staging), multiplied by 16x16x16
// cooperative matrices (gpu.subgroup_mma_*), the accumulators stored
// straight into the output or through a scratch matrix and the epilogue.
// Two-stage tiles copy each next step asynchronously (memref.dma_start,
// PTX cp.async on NVIDIA's OpenCL) into a second pair of staged tiles.
// The analysis and the shared parts of the builder are StagedContraction.cpp.
//
//===----------------------------------------------------------------------===//

#include "StagedContraction.h"

#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::detail;

/// Halves per wide chunk (one vector<4xi32>).
static constexpr int64_t kWideChunk = 8;

/// The invocations of a workgroup with `tile`: a subgroup of 32 per sm x sn
/// block.
static int64_t coopInvocations(const CoopTile &tile) {
  return 32 * (tile.tm / tile.sm) * (tile.tn / tile.sn);
}

bool mlir::plaidml::isValidCoopTile(const CoopTile &tile, std::string &why) {
  if (tile.stages < 1 || tile.stages > kMaxCoopStages) {
    why = "the stages must be 1 (the next step through registers) to " +
          std::to_string(kMaxCoopStages) +
          " (asynchronous copies into the others)";
    return false;
  }
  if (tile.tm < 1 || tile.tn < 1 || tile.tk < 1 || tile.sm < 16 ||
      tile.sn < 16 || tile.tm % tile.sm || tile.tn % tile.sn || tile.sm % 16 ||
      tile.sn % 16 || tile.tk % 16) {
    why = "the subgroup tile must divide the workgroup tile, and 16 must "
          "divide the subgroup tile and TK";
    return false;
  }
  // Each invocation copies whole chunks of 4 elements of both tiles.
  int64_t invocations = coopInvocations(tile);
  if ((invocations != kInvocations && invocations != kInvocations / 2) ||
      (tile.tm * tile.tk) % (4 * invocations) ||
      (tile.tn * tile.tk) % (4 * invocations)) {
    why = "the tile must have 8 or 4 subgroups of 32 invocations, each "
          "copying whole chunks of 4 elements of both staged tiles";
    return false;
  }
  return true;
}

static affine::AffineStoreOp findDirectStore(const StagedNest &nest,
                                             const CoopTile &coop);

int64_t mlir::plaidml::coopWorkgroupBytes(const StagedNest &nest,
                                          const CoopTile &tile) {
  // Each factor's tile per stage, staged in the order of its memory (K
  // innermost where it follows K), rows padded by 8 halves (buildCoop).
  bool alongK[2] = {nest.aAlongK, nest.bAlongK};
  int64_t rows[2] = {tile.tm, tile.tn}, bytes = 0;
  for (int side = 0; side < 2; ++side) {
    int64_t inner = alongK[side] ? tile.tk : rows[side];
    int64_t outer = alongK[side] ? rows[side] : tile.tk;
    bytes += tile.stages * outer * (inner + 8) * 2;
  }
  // A 16x16 f32 scratch matrix per subgroup, unless the sums are stored
  // straight into the output.
  if (!findDirectStore(nest, tile))
    bytes += coopInvocations(tile) / 32 * 16 * 16 * 4;
  return bytes;
}

bool mlir::plaidml::fitsCoopWorkgroupMemory(const StagedNest &nest,
                                            const CoopTile &tile,
                                            std::string &why) {
  // NVIDIA's OpenCL and Vulkan both offer 48 KiB a workgroup.
  int64_t bytes = coopWorkgroupBytes(nest, tile);
  if (bytes <= 48 * 1024)
    return true;
  why = "the tile needs " + std::to_string(bytes) +
        " bytes of workgroup memory, more than 48 KiB";
  return false;
}

bool mlir::plaidml::hasAsyncCopies(TargetAttr target) {
  return target.getDevice() == DeviceKind::opencl &&
         target.hasExtension(kAsyncCopyFeature);
}

bool mlir::plaidml::canCopyCoopAsync(const StagedNest &nest,
                                     const CoopTile &tile, std::string &why) {
  int64_t rows[2] = {tile.tm, tile.tn};
  for (int side = 0; side < 2; ++side)
    if ((rows[side] * tile.tk) % (kWideChunk * coopInvocations(tile)) ||
        !wideFactorLoad(nest, nest.halfFactor[side], side, rows[side], tile.tk,
                        kWideChunk)) {
      why = std::string("asynchronous copies need both factors copied 8 "
                        "halves at a time, and the ") +
            (side ? "second" : "first") +
            " is not a plain load of a row-major f16 buffer in whole tiles "
            "and steps whose innermost index the chunks follow";
      return false;
    }
  return true;
}

/// The single-stage tile of chooseCoopTile.
static std::optional<CoopTile> chooseSingleStage(const StagedNest &nest,
                                                 ArrayRef<std::string> caps,
                                                 int64_t maxWorkgroupSize,
                                                 int64_t minWorkgroups,
                                                 std::string &why) {
  if (!nest.halfFactor[0] || !nest.halfFactor[1]) {
    why = "the factors are not f16 values summed in f32";
    return std::nullopt;
  }
  for (StringRef need :
       {kCoopMatrixCapability, kCoopMatrixShapeF16, kSubgroupSize32})
    if (!llvm::is_contained(caps, need)) {
      why = ("the target does not list " + need).str();
      return std::nullopt;
    }
  if (!fitsWorkgroupTiles(nest, maxWorkgroupSize, 64, why))
    return std::nullopt;
  // Emulated, every invocation holds whole matrices (1 KiB each): the
  // larger tiles overflow PoCL's stack (a crash inside the driver).
  if (llvm::is_contained(caps, kEmulateNvPtxFeature))
    return CoopTile{64, 64, 32, 32, 16};
  auto groups = [&](int64_t tm, int64_t tn) {
    return countWorkgroups(nest, tm, tn);
  };
  // Measured on the H200 (docs/PerformanceGpu.md): 128x128x32 in 4 subgroups
  // of 64x64 (128 invocations, two workgroups per multiprocessor) where
  // both factors are staged 8 halves at a time (4096^3 0.51 -> 0.48-0.49
  // ms, 2048^3 0.14 -> 0.08 ms) and the grid keeps 90% of
  // `minWorkgroups`. Else 256 wide along the factor whose memory does not
  // follow K (its staged rows are long runs), each subgroup 64x64; 128x128
  // with 64 steps of K when both follow K. A tile wider than the product
  // it covers only computes padding.
  // Not where both factors' memory follows K (A B^T: 0.51 -> 0.55 ms).
  CoopTile quad{128, 128, 32, 64, 64};
  if (!(nest.aAlongK && nest.bAlongK) && nest.m >= 128 && nest.n >= 128 &&
      groups(128, 128) * 10 >= minWorkgroups * 9 &&
      wideFactorLoad(nest, nest.halfFactor[0], 0, quad.tm, quad.tk,
                     kWideChunk) &&
      wideFactorLoad(nest, nest.halfFactor[1], 1, quad.tn, quad.tk, kWideChunk))
    return quad;
  if (!nest.bAlongK && nest.m >= 128 && nest.n >= 256 &&
      groups(128, 256) >= minWorkgroups)
    return CoopTile{128, 256, 32, 64, 64};
  if (!nest.aAlongK && nest.m >= 256 && nest.n >= 128 &&
      groups(256, 128) >= minWorkgroups)
    return CoopTile{256, 128, 32, 64, 64};
  if (nest.m >= 128 && nest.n >= 128 && groups(128, 128) >= minWorkgroups)
    return CoopTile{128, 128, 64, 32, 64};
  return CoopTile{64, 64, 32, 32, 16};
}

std::optional<CoopTile> mlir::plaidml::chooseCoopTile(
    const StagedNest &nest, ArrayRef<std::string> caps,
    int64_t maxWorkgroupSize, int64_t minWorkgroups, std::string &why) {
  std::optional<CoopTile> tile =
      chooseSingleStage(nest, caps, maxWorkgroupSize, minWorkgroups, why);
  if (!tile || !llvm::is_contained(caps, kAsyncCopyFeature))
    return tile;
  // Two stages where the device copies asynchronously: no registers hold
  // the next step, and one barrier per step instead of two. Steps of 64
  // halve until both stages fit the workgroup memory (128x128x64 in 8
  // subgroups: 128x128x32).
  CoopTile two = *tile;
  two.stages = 2;
  // The 128x128x32 tile in 8 subgroups of 64x32 (128 registers an
  // invocation, 16 subgroups a multiprocessor, instead of 226 and 8):
  // A.B 4096^3 0.548 -> 0.514 ms on an H200, 0.552 -> 0.540 on an H100
  // (docs/PerformanceGpu.md). Three stages of 16-deep steps in the same
  // subgroups were no faster on either.
  if (two.tm == 128 && two.tn == 128 && two.tk == 32 && two.sn == 64 &&
      two.sm == 64)
    two.sn = 32;
  std::string ignored;
  auto fits = [&](const CoopTile &t) {
    return isValidCoopTile(t, ignored) &&
           fitsCoopWorkgroupMemory(nest, t, ignored);
  };
  // A.B (A's rows follow K, B's follow N) where 128x256 tiles still give
  // minWorkgroups: 128x256x16 in 3 stages of 8 subgroups of 64x64 (43 776
  // bytes), the copies of two steps in flight instead of one. 4096^3:
  // 0.509 -> 0.481 ms on an H100, 0.490-0.494 -> 0.484-0.485 on an H200
  // (docs/PerformanceGpu.md; ncu: the waits for the copies and the
  // barrier stalls go, 218 registers leave 8 subgroups a multiprocessor).
  // Emulated (PoCL in CI), A.B gets the same form at 64x64 in 4 subgroups
  // of 32x32 (one 8-half chunk per invocation and factor), whatever the
  // workgroup count, so that both kernel forms run there.
  bool emulated = llvm::is_contained(caps, kEmulateNvPtxFeature);
  CoopTile deep = emulated ? CoopTile{64, 64, 16, 32, 32, 3}
                           : CoopTile{128, 256, 16, 64, 64, 3};
  if (nest.aAlongK && !nest.bAlongK &&
      (emulated || (two.tm == 128 && two.tn == 128 && nest.n >= 256 &&
                    countWorkgroups(nest, 128, 256) >= minWorkgroups)) &&
      fits(deep) && canCopyCoopAsync(nest, deep, ignored))
    return deep;
  while (!fits(two) && two.tk > 32)
    two.tk /= 2;
  if (fits(two) && canCopyCoopAsync(nest, two, ignored))
    return two;
  return tile;
}

/// Whether `v` is a constant 0: an arith.constant, or a load of a constant
/// global (a Tile constant) whose elements are all 0.
static bool isZeroConstant(Value v) {
  if (matchPattern(v, m_AnyZeroFloat()))
    return true;
  auto load = v.getDefiningOp<affine::AffineLoadOp>();
  auto get =
      load ? load.getMemRef().getDefiningOp<memref::GetGlobalOp>() : nullptr;
  if (!get)
    return false;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  auto value =
      global && global.getConstant()
          ? dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr())
          : DenseElementsAttr();
  return value && value.isSplat() && isa<FloatType>(value.getElementType()) &&
         value.getSplatValue<APFloat>().isZero();
}

static affine::AffineStoreOp findDirectStore(const StagedNest &nest,
                                             const CoopTile &coop) {
  if (nest.m % coop.tm || nest.n % coop.tn || nest.mDims.size() != 1 ||
      nest.nDims.size() != 1)
    return {};
  // The body: the initial value, the reduction, the store of its sum.
  affine::AffineForOp top = nest.chain.front();
  Value init = top.getInits()[0];
  affine::AffineStoreOp store;
  affine::AffineParallelOp par = nest.par;
  for (Operation &op : par.getBody()->without_terminator()) {
    if (auto s = dyn_cast<affine::AffineStoreOp>(op))
      store = s;
    else if (&op != top.getOperation() && init.getDefiningOp() != &op)
      return {};
  }
  if (!store || store.getValueToStore() != top.getResult(0) ||
      !isZeroConstant(init))
    return {};
  // Its indices: the batch dimensions, then M and N, the memory row-major.
  MemRefType type = store.getMemRefType();
  AffineMap map = store.getAffineMap();
  int64_t rank = type.getRank();
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() || rank < 2 ||
      type.getElementType() != init.getType() ||
      type.getDimSize(rank - 2) != nest.m ||
      type.getDimSize(rank - 1) != nest.n)
    return {};
  auto parDimOf = [&](AffineExpr e) -> int64_t {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || d.getPosition() >= map.getNumDims())
      return -1;
    return classifyIndex(nest, store.getMapOperands()[d.getPosition()]).parDim;
  };
  if (parDimOf(map.getResult(rank - 2)) != nest.mDims[0] ||
      parDimOf(map.getResult(rank - 1)) != nest.nDims[0])
    return {};
  for (int64_t i = 0; i < rank - 2; ++i) {
    int64_t d = parDimOf(map.getResult(i));
    if (d < 0 || !llvm::is_contained(nest.batchDims, d))
      return {};
  }
  return store;
}

affine::AffineStoreOp KernelBuilder::getDirectStore(const CoopTile &coop) {
  return findDirectStore(nest, coop);
}

SmallVector<Value> KernelBuilder::getDirectIndices(affine::AffineStoreOp store,
                                                   Value m, Value n) {
  IRMapping mapping;
  mapBatch(mapping);
  SmallVector<Value> indices;
  AffineMap map = store.getAffineMap();
  for (AffineExpr e : map.getResults().drop_back(2)) {
    unsigned pos = cast<AffineDimExpr>(e).getPosition();
    indices.push_back(mapping.lookupOrDefault(store.getMapOperands()[pos]));
  }
  indices.push_back(m);
  indices.push_back(n);
  return indices;
}

void KernelBuilder::buildCoop(const CoopTile &coop) {
  constexpr int64_t kFrag = 16, kSubgroup = 32;
  // factorAt reads the factors' f16 values.
  half = true;
  bool alongK[2] = {nest.aAlongK, nest.bAlongK};
  int64_t rows[2] = {coop.tm, coop.tn};
  // A factor that is a plain load of a row-major f16 buffer whose innermost
  // index is the one the chunks follow (canStageWide) is copied 8 halves
  // at a time, through a view of its buffer as vector<4xi32>: one 128-bit
  // load and one 128-bit store per chunk (the H200: 4096^3 0.73 -> 0.51
  // ms, docs/PerformanceGpu.md). The launch then passes the buffer itself
  // (plaidml-gpu-launch-bools-as-bytes).
  // Only where every invocation copies whole chunks of 8 (a tile that
  // copies chunks of 4 evenly may not: 32x16 halves over 128 invocations).
  // Several stages copy wide chunks asynchronously (canCopyCoopAsync,
  // which plaidml-gpu-stage-contraction checks): 4 i32 at a time through a
  // view of the buffer as i32 (nvgpu.device_async_copy takes scalar
  // elements), into staged tiles of i32.
  int64_t invocations = coopInvocations(coop);
  bool async = coop.stages > 1;
  // Halves per element of the wide views and of the staged wide tiles.
  int64_t wideUnit = async ? 2 : kWideChunk;
  Type wideType =
      async ? Type(b.getI32Type()) : Type(VectorType::get({4}, b.getI32Type()));
  for (int side = 0; side < 2; ++side)
    if ((rows[side] * coop.tk) % (kWideChunk * invocations) == 0)
      if (affine::AffineLoadOp load = canStageWide(
              nest.halfFactor[side], side, rows[side], coop.tk, kWideChunk))
        viewWide(load, side, wideUnit, wideType);
  assert((!async || (wideMem[0] && wideMem[1])) &&
         "asynchronous stages need both factors staged wide");
  auto launch = createLaunch(llvm::divideCeil(nest.n, coop.tn),
                             llvm::divideCeil(nest.m, coop.tm), invocations);
  elementType = nest.halfFactor[0].getType();
  Type accType = nest.add->getResult(0).getType();
  auto memSpace = b.getI64IntegerAttr(kWorkgroupMemorySpace);
  // Each tile is staged in the order of its factor's memory (K innermost
  // where the factor's innermost index follows K), rows padded by 8
  // halves: 16-byte aligned rows, as cooperative-matrix loads need; the
  // matrices are then read row- or column-major to match.
  // Each chunk of 4 halves is one vector<4xf16> of the staged tile (one
  // 64-bit store), each wide chunk of 8 one vector<4xi32> (4 i32 where
  // copied asynchronously); a row of `lead` elements of `unit` halves.
  constexpr int64_t kHalfPadding = 8;
  int64_t lead[2], chunkOf[2], unit[2];
  Type chunkType[2];
  for (int side = 0; side < 2; ++side) {
    chunkOf[side] = wideMem[side] ? kWideChunk : 4;
    unit[side] = wideMem[side] ? wideUnit : 4;
    chunkType[side] = wideMem[side]
                          ? wideType
                          : VectorType::get({chunkOf[side]}, elementType);
    int64_t inner = alongK[side] ? coop.tk : rows[side];
    int64_t outer = alongK[side] ? rows[side] : coop.tk;
    lead[side] = (inner + kHalfPadding) / unit[side];
    SmallVector<int64_t> shape;
    if (async)
      shape.push_back(coop.stages);
    shape.append({outer, lead[side]});
    staged[side] = memref::AllocOp::create(
        b, loc,
        MemRefType::get(shape, chunkType[side], MemRefLayoutAttrInterface(),
                        memSpace));
  }
  // The indices of a chunk of a staged tile: its stage (multi-stage tiles
  // only), its line and its index in the line.
  auto stagedIndices = [&](Value stage, Value line,
                           Value chunk) -> SmallVector<Value> {
    if (async)
      return {stage, line, chunk};
    return {line, chunk};
  };

  tileN0 = mulc(launch.getBlockIds().x, coop.tn);
  tileM0 = mulc(launch.getBlockIds().y, coop.tm);
  Value sg = gpu::SubgroupIdOp::create(b, loc, IntegerAttr());
  Value lane = gpu::LaneIdOp::create(b, loc, IntegerAttr());
  int64_t subgroupsN = coop.tn / coop.sn;
  Value sgM0 =
      mulc(arith::DivUIOp::create(b, loc, sg, index(subgroupsN)), coop.sm);
  Value sgN0 =
      mulc(arith::RemUIOp::create(b, loc, sg, index(subgroupsN)), coop.sn);
  int64_t fragsM = coop.sm / kFrag, fragsN = coop.sn / kFrag;
  auto fragType = [&](Type type, StringRef operand) {
    return gpu::MMAMatrixType::get({kFrag, kFrag}, type, operand);
  };
  Type cType = fragType(accType, "COp");

  bool guardK = nest.k % coop.tk != 0;
  // Invocation t copies chunks of 4 (8) elements consecutive in the
  // factor's memory (chunk t + invocations * c of the tile), so that the
  // loads of a chunk are adjacent: the chunk's line of the staged tile and
  // its index in the line.
  auto chunkAt = [&](int side, int64_t c) -> std::pair<Value, Value> {
    int64_t inner = alongK[side] ? coop.tk : rows[side];
    Value linear = add(tid, c * invocations);
    int64_t perLine = inner / chunkOf[side];
    return {arith::DivUIOp::create(b, loc, linear, index(perLine)),
            arith::RemUIOp::create(b, loc, linear, index(perLine))};
  };
  int64_t total[2] = {nest.m, nest.n};
  Value base[2] = {tileM0, tileN0};
  auto chunksPerStep = [&](int side) {
    return rows[side] * coop.tk / (chunkOf[side] * invocations);
  };
  // The indices into the view of factor `side` of this invocation's wide
  // chunk `c` of the step at k0.
  auto wideSource = [&](int side, int64_t c, Value k0) {
    auto [line, chunk] = chunkAt(side, c);
    Value pos = mulc(chunk, kWideChunk);
    auto [row, step] =
        alongK[side] ? std::make_pair(line, pos) : std::make_pair(pos, line);
    return wideIndices(wideLoad[side], side, add(base[side], row),
                       add(k0, step), wideUnit);
  };
  // The values this invocation copies for the step at k0: one vector per
  // wide chunk, else 4 halves per chunk.
  auto loadChunks = [&](int side, Value k0) {
    SmallVector<Value> values;
    int64_t kChunk = chunkOf[side];
    for (int64_t c = 0, e = chunksPerStep(side); c < e; ++c) {
      if (wideMem[side]) {
        values.push_back(memref::LoadOp::create(b, loc, wideMem[side],
                                                wideSource(side, c, k0)));
        continue;
      }
      for (int64_t j = 0; j < kChunk; ++j) {
        auto [line, chunk] = chunkAt(side, c);
        Value pos = add(mulc(chunk, kChunk), j);
        auto [row, step] = alongK[side] ? std::make_pair(line, pos)
                                        : std::make_pair(pos, line);
        Value mn = add(base[side], row);
        // Exact tiles need no clamp (nor, without a K remainder, does k:
        // the steps are clamped whole), which keeps the addresses' known
        // alignment for the driver's load vectorizer.
        if (total[side] % rows[side])
          mn = clampBelow(mn, total[side]);
        values.push_back(factorAt(side, mn, add(k0, step), guardK, guardK));
      }
    }
    return values;
  };
  auto storeChunks = [&](int side, ValueRange values) {
    int64_t perChunk = wideMem[side] ? 1 : chunkOf[side];
    for (int64_t c = 0, e = values.size() / perChunk; c < e; ++c) {
      auto [line, chunk] = chunkAt(side, c);
      Value v = wideMem[side] ? values[c]
                              : vector::FromElementsOp::create(
                                    b, loc, chunkType[side],
                                    values.slice(c * perChunk, perChunk));
      memref::StoreOp::create(b, loc, v, staged[side],
                              stagedIndices(Value(), line, chunk));
    }
  };
  // Several stages: this invocation's chunks of the step at k0 copied
  // asynchronously into stage `stage` of the staged tiles
  // (nvgpu.device_async_copy, PTX cp.async on NVIDIA's OpenCL), then
  // committed as one group (the step's).
  auto copyAsync = [&](Value k0, Value stage) {
    SmallVector<Value> tokens;
    for (int side = 0; side < 2; ++side)
      for (int64_t c = 0, e = chunksPerStep(side); c < e; ++c) {
        auto [line, chunk] = chunkAt(side, c);
        tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
            b, loc, staged[side],
            stagedIndices(stage, line, mulc(chunk, kWideChunk / wideUnit)),
            wideMem[side], wideSource(side, c, k0),
            b.getIndexAttr(kWideChunk / wideUnit),
            /*srcElements=*/Value(), /*bypassL1=*/b.getUnitAttr()));
      }
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokens);
  };
  Value accZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  Value zeroFrag =
      gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cType, accZero);
  SmallVector<Value> inits(fragsM * fragsN, zeroFrag);
  size_t numAcc = inits.size(), numA = 0, numB = 0;
  int64_t steps = llvm::divideCeil(nest.k, coop.tk);
  Value end = index(steps * coop.tk);
  // The steps' groups: the first S - 1 before the loop, each step's next
  // S - 1 after its wait. Past the last step, with more than 2 stages,
  // copies of the last step again go into the stage no later step reads,
  // so that every step commits one group and the wait (for all but S - 2)
  // counts alike; 2 stages wait for every group and copy nothing past the
  // end.
  Value firstGroup;
  auto clampStep = [&](Value k0) {
    return arith::MinUIOp::create(b, loc, k0, index((steps - 1) * coop.tk));
  };
  if (async) {
    for (int64_t s = 0; s + 1 < coop.stages; ++s) {
      Value group =
          copyAsync(index(std::min(s, steps - 1) * coop.tk), index(s));
      if (!firstGroup)
        firstGroup = group;
    }
  } else {
    SmallVector<Value> firstA = loadChunks(0, index(0));
    SmallVector<Value> firstB = loadChunks(1, index(0));
    numA = firstA.size();
    numB = firstB.size();
    llvm::append_range(inits, firstA);
    llvm::append_range(inits, firstB);
  }
  auto loop = scf::ForOp::create(b, loc, index(0), end, index(coop.tk), inits);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    ValueRange args = loop.getRegionIterArgs();
    Value k = loop.getInductionVar();
    Value stage;
    SmallVector<Value> nextA, nextB;
    if (async) {
      // This step's group is complete (this invocation's copies: at most
      // the S - 2 groups after it still pending; everyone's at the
      // barrier, which also ends every read of the stage of the step
      // before); the copies of the step S - 1 ahead go to that stage while
      // this one's products run. One barrier per step.
      Value step = arith::DivUIOp::create(b, loc, k, index(coop.tk));
      stage = arith::RemUIOp::create(b, loc, step, index(coop.stages));
      nvgpu::DeviceAsyncWaitOp::create(b, loc, firstGroup,
                                       b.getI32IntegerAttr(coop.stages - 2));
      gpu::BarrierOp::create(b, loc);
      Value ahead = add(k, (coop.stages - 1) * coop.tk);
      Value later = arith::RemUIOp::create(b, loc, add(step, coop.stages - 1),
                                           index(coop.stages));
      if (coop.stages == 2) {
        // The wait is for every group: none past the last step.
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           ahead, end);
        auto ifMore = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard inThen(b);
        b.setInsertionPoint(ifMore.thenBlock()->getTerminator());
        copyAsync(ahead, later);
      } else {
        copyAsync(clampStep(ahead), later);
      }
    } else {
      storeChunks(0, args.slice(numAcc, numA));
      storeChunks(1, args.slice(numAcc + numA, numB));
      gpu::BarrierOp::create(b, loc);
      // The next step's loads; past the end, those of the last step again.
      Value next = clampStep(add(k, coop.tk));
      nextA = loadChunks(0, next);
      nextB = loadChunks(1, next);
    }
    SmallVector<Value> accs(args.take_front(numAcc));
    // A (M x K) is row-major where staged [m][k], column-major where
    // [k][m]; B (K x N) row-major where [k][n], column-major where [n][k].
    // Indices along a line and the lead dimension count staged elements
    // (the cooperative-matrix load reads them as their halves).
    auto loadFrag = [&](int side, int64_t kk, Value first, int64_t f) {
      Value mn = add(first, f * kFrag);
      bool kMajor = !alongK[side];
      bool columnMajor = side == 0 ? kMajor : !kMajor;
      return gpu::SubgroupMmaLoadMatrixOp::create(
          b, loc, fragType(elementType, side == 0 ? "AOp" : "BOp"),
          staged[side],
          kMajor ? stagedIndices(
                       stage, index(kk),
                       arith::DivUIOp::create(b, loc, mn, index(unit[side])))
                 : stagedIndices(stage, mn, index(kk / unit[side])),
          b.getIndexAttr(lead[side]),
          columnMajor ? b.getUnitAttr() : UnitAttr());
    };
    for (int64_t kk = 0; kk < coop.tk; kk += kFrag) {
      SmallVector<Value> a, bv;
      for (int64_t i = 0; i < fragsM; ++i)
        a.push_back(loadFrag(0, kk, sgM0, i));
      for (int64_t j = 0; j < fragsN; ++j)
        bv.push_back(loadFrag(1, kk, sgN0, j));
      for (int64_t i = 0; i < fragsM; ++i)
        for (int64_t j = 0; j < fragsN; ++j) {
          Value &acc = accs[i * fragsN + j];
          acc = gpu::SubgroupMmaComputeOp::create(b, loc, cType, a[i], bv[j],
                                                  acc, UnitAttr(), UnitAttr());
        }
    }
    if (!async)
      gpu::BarrierOp::create(b, loc);
    SmallVector<Value> yielded(accs);
    llvm::append_range(yielded, nextA);
    llvm::append_range(yielded, nextB);
    scf::YieldOp::create(b, loc, yielded);
  }
  // More than 2 stages leave the last steps' repeated copies in flight: done
  // before anything after the loop (workgroup memory reused later, the
  // kernel's end).
  if (async && coop.stages > 2)
    nvgpu::DeviceAsyncWaitOp::create(b, loc, firstGroup,
                                     b.getI32IntegerAttr(0));

  // Without an epilogue, each accumulator matrix straight into the output
  // (the H200: 4096^3 0.88 -> 0.80 ms, docs/PerformanceGpu.md).
  if (affine::AffineStoreOp direct = getDirectStore(coop)) {
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j) {
        Value m = add(add(tileM0, sgM0), i * kFrag);
        Value n = add(add(tileN0, sgN0), j * kFrag);
        gpu::SubgroupMmaStoreMatrixOp::create(
            b, loc, loop.getResult(i * fragsN + j), direct.getMemRef(),
            getDirectIndices(direct, m, n), b.getIndexAttr(nest.n), UnitAttr());
      }
    nest.par.erase();
    return;
  }
  // Else each accumulator matrix through the subgroup's scratch matrix:
  // every lane takes 8 of its elements (rows lane / 16 + 2q, column
  // lane % 16) to the epilogue and the store.
  int64_t subgroups = invocations / kSubgroup;
  Value scratch = memref::AllocOp::create(
      b, loc,
      MemRefType::get({subgroups, kFrag, kFrag}, accType,
                      MemRefLayoutAttrInterface(), memSpace));
  Value row0 = arith::DivUIOp::create(b, loc, lane, index(kFrag));
  Value col = arith::RemUIOp::create(b, loc, lane, index(kFrag));
  for (int64_t i = 0; i < fragsM; ++i)
    for (int64_t j = 0; j < fragsN; ++j) {
      gpu::SubgroupMmaStoreMatrixOp::create(
          b, loc, loop.getResult(i * fragsN + j), scratch,
          ValueRange{sg, index(0), index(0)}, b.getIndexAttr(kFrag),
          UnitAttr());
      gpu::BarrierOp::create(b, loc);
      for (int64_t q = 0; q < kFrag * kFrag / kSubgroup; ++q) {
        OpBuilder::InsertionGuard g(b);
        Value row = add(row0, q * (kSubgroup / kFrag));
        Value v =
            memref::LoadOp::create(b, loc, scratch, ValueRange{sg, row, col});
        Value m = add(add(tileM0, sgM0), add(row, i * kFrag));
        Value n = add(add(tileN0, sgN0), add(col, j * kFrag));
        emitGuardedOutput(m, n, coop.tm, coop.tn, v);
      }
      gpu::BarrierOp::create(b, loc);
    }
  nest.par.erase();
}

void mlir::plaidml::applyCoopTile(StagedNest &nest, const CoopTile &tile) {
  OpBuilder b(nest.par);
  KernelBuilder(nest, b).buildCoop(tile);
}
