//===- GpuConfigure.cpp - Choose the workgroup mapping --------------------===//
//
// plaidml-gpu-configure: records on every outermost affine.parallel the
// schedule the passes after it apply: the cooperative-matrix tile (f16 on
// devices that offer them) or staged (workgroup-memory) tile of
// a matrix-product nest (plaidml-gpu-stage-contraction), else the register
// tile of a reduction nest
// (plaidml-gpu-register-tile: a block of outputs per invocation) and the
// workgroup tile of the ranges left after it (plaidml-gpu-tile-workgroups:
// up to max-workgroup-size invocations over the innermost three
// dimensions), and wraps top-level sequential code in one-iteration
// affine.parallel loops so that it runs in a single-invocation kernel.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "RegisterTile.h"
#include "StagedContraction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUCONFIGUREPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

/// Whether `op` can be tiled: constant single bounds, unit steps, no
/// reductions.
static bool isMappable(affine::AffineParallelOp op) {
  if (op.getNumResults() != 0 || !op.getConstantRanges())
    return false;
  for (unsigned d = 0, e = op.getNumDims(); d < e; ++d)
    if (!op.getLowerBoundMap(d).isSingleConstant() ||
        !op.getUpperBoundMap(d).isSingleConstant())
      return false;
  return llvm::all_of(op.getSteps(), [](int64_t s) { return s == 1; });
}

/// One invocation per iteration: the innermost dimension first, powers of
/// two, at most `budget` invocations in all and 64 along the third mapped
/// dimension (Vulkan's guaranteed maxComputeWorkGroupSize[2]), and grids of
/// at most 65535 workgroups per mapped dimension.
static SmallVector<int64_t> chooseWorkgroup(ArrayRef<int64_t> ranges,
                                            int64_t budget) {
  SmallVector<int64_t> sizes(ranges.size(), 1);
  int64_t n = ranges.size();
  for (int64_t d = n - 1, mapped = 0; d >= 0 && mapped < 3; --d, ++mapped) {
    int64_t limit = mapped == 2 ? std::min<int64_t>(budget, 64) : budget;
    int64_t size = std::min<int64_t>(
        llvm::PowerOf2Ceil(std::max<int64_t>(ranges[d], 1)), limit);
    sizes[d] = std::max<int64_t>(size, 1);
    budget /= sizes[d];
  }
  // At most 65535 workgroups along each mapped dimension (all Vulkan
  // guarantees for maxComputeWorkGroupCount): invocations move from the
  // innermost dimension to an outer one whose grid would be larger.
  constexpr int64_t kMaxGroups = 65535;
  for (int64_t d = n - 2, mapped = 1; d >= 0 && mapped < 3; --d, ++mapped) {
    int64_t limit = mapped == 2 ? 64 : INT64_MAX;
    while (llvm::divideCeil(ranges[d], sizes[d]) > kMaxGroups &&
           sizes[n - 1] > 1 && sizes[d] * 2 <= limit) {
      sizes[n - 1] /= 2;
      sizes[d] *= 2;
    }
  }
  return sizes;
}

/// Whether `op` stays on the host: allocations, globals, constants, the
/// return and already mappable loops.
static bool staysOnHost(Operation *op) {
  if (auto par = dyn_cast<affine::AffineParallelOp>(op))
    return isMappable(par);
  return isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
             memref::GetGlobalOp, func::ReturnOp>(op) ||
         op->hasTrait<OpTrait::ConstantLike>();
}

/// Wraps `ops` (consecutive, in one block) in a configured one-iteration
/// affine.parallel. Fails when a value they define is used after them.
static LogicalResult wrapInSingleInvocation(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 8> inRun(ops.begin(), ops.end());
  for (Operation *op : ops)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!inRun.contains(op->getBlock()->findAncestorOpInBlock(*user)))
          return op->emitOpError("defines a value used by host code; cannot "
                                 "run it in a kernel");
  OpBuilder builder(ops.front());
  auto par = affine::AffineParallelOp::create(
      builder, ops.front()->getLoc(), TypeRange{},
      ArrayRef<arith::AtomicRMWKind>{}, ArrayRef<int64_t>{1});
  par->setAttr(kGpuWorkgroupSizeAttrName, builder.getDenseI64ArrayAttr({1}));
  Operation *yield = par.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(yield);
  return success();
}

/// Rewrites a top-level memref.copy between static identity-layout memrefs
/// as an elementwise affine.parallel copy, which kernels can run (SPIR-V has
/// no memcpy of storage buffers).
static LogicalResult expandCopy(memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      cast<MemRefType>(copy.getTarget().getType()).getShape() !=
          type.getShape())
    return copy.emitOpError("needs static identity-layout memrefs of one "
                            "shape to run on the GPU");
  OpBuilder builder(copy);
  Location loc = copy.getLoc();
  SmallVector<int64_t> ranges(type.getShape());
  if (ranges.empty())
    ranges.push_back(1);
  auto par = affine::AffineParallelOp::create(
      builder, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, ranges);
  builder.setInsertionPoint(par.getBody()->getTerminator());
  ValueRange ivs = type.getRank() == 0 ? ValueRange{} : par.getIVs();
  Value value =
      affine::AffineLoadOp::create(builder, loc, copy.getSource(), ivs);
  affine::AffineStoreOp::create(builder, loc, value, copy.getTarget(), ivs);
  copy.erase();
  return success();
}

/// Rewrites an affine.parallel nested in a kernel's loop nest (only the
/// outermost one is mapped to invocations) as affine.for loops, its
/// reductions as iter_args starting from their identities.
static void sequentialize(affine::AffineParallelOp par) {
  unsigned numDims = par.getNumDims();
  SmallVector<arith::AtomicRMWKind> kinds;
  for (Attribute attr : par.getReductions())
    kinds.push_back(cast<arith::AtomicRMWKindAttr>(attr).getValue());
  OpBuilder builder(par);
  Location loc = par.getLoc();
  SmallVector<Value> inits;
  for (auto [kind, type] : llvm::zip_equal(kinds, par.getResultTypes()))
    inits.push_back(arith::getIdentityValue(kind, type, builder, loc));
  auto yield = cast<affine::AffineYieldOp>(par.getBody()->getTerminator());
  IRMapping mapping;
  std::function<ValueRange(OpBuilder &, unsigned, ValueRange)> buildLoop =
      [&](OpBuilder &b, unsigned d, ValueRange iters) -> ValueRange {
    auto loop = affine::AffineForOp::create(
        b, loc, par.getLowerBoundsOperands(), par.getLowerBoundMap(d),
        par.getUpperBoundsOperands(), par.getUpperBoundMap(d),
        par.getSteps()[d], iters,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          mapping.map(par.getIVs()[d], iv);
          SmallVector<Value> next;
          if (d + 1 < numDims) {
            next = llvm::to_vector(buildLoop(nested, d + 1, args));
          } else {
            for (Operation &op : par.getBody()->without_terminator())
              nested.clone(op, mapping);
            for (auto [kind, acc, value] :
                 llvm::zip_equal(kinds, args, yield.getOperands()))
              next.push_back(arith::getReductionOp(
                  kind, nested, loc, acc, mapping.lookupOrDefault(value)));
          }
          affine::AffineYieldOp::create(nested, loc, next);
        });
    return loop.getResults();
  };
  if (numDims == 0)
    return;
  par.replaceAllUsesWith(buildLoop(builder, 0, inits));
  par.erase();
}

namespace {
struct GpuConfigurePass
    : public plaidml::impl::GpuConfigurePassBase<GpuConfigurePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    TargetAttr target = getTargetOrDefault(func);
    int64_t maxWorkgroupSize = target.getMaxWorkgroupSize();
    SmallVector<std::string> caps;
    if (ArrayAttr list = target.getCaps())
      for (Attribute cap : list)
        if (auto name = dyn_cast<StringAttr>(cap))
          caps.push_back(name.str());
    // NVIDIA's OpenCL: the PTX wmma instructions multiply 16x16x16 f16
    // matrices into f32 on 32-wide warps (the OpenCL C translation of the
    // cooperative-matrix kernels, docs/GpuKernels.md).
    if (target.getDevice() == DeviceKind::opencl &&
        target.hasExtension("nv-ptx-wmma"))
      caps.append({"CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32",
                   "subgroup-size-32"});
    // ... and on compute capability 8.0 or later copies asynchronously
    // (two-stage cooperative-matrix tiles).
    if (hasAsyncCopies(target))
      caps.push_back(kAsyncCopyFeature.str());
    // ... printed as portable OpenCL C (small tiles).
    if (target.getDevice() == DeviceKind::opencl &&
        target.hasExtension(kEmulateNvPtxFeature))
      caps.push_back(kEmulateNvPtxFeature.str());
    Block &body = func.getBody().front();
    if (!func.getBody().hasOneBlock()) {
      func.emitError("expected a single-block function (docs/ABI.md)");
      return signalPassFailure();
    }

    // Parallel loops inside a loop nest run sequentially in its kernel.
    SmallVector<affine::AffineParallelOp> nested;
    func.walk([&](affine::AffineParallelOp par) {
      if (par->getParentOp() != func)
        nested.push_back(par);
    });
    for (affine::AffineParallelOp par : nested)
      sequentialize(par);

    // Copies become loops, then sequential top-level code is wrapped, in runs
    // between host operations.
    for (auto copy : llvm::make_early_inc_range(body.getOps<memref::CopyOp>()))
      if (failed(expandCopy(copy)))
        return signalPassFailure();
    SmallVector<SmallVector<Operation *>> runs(1);
    for (Operation &op : body) {
      if (staysOnHost(&op)) {
        if (!runs.back().empty())
          runs.emplace_back();
        continue;
      }
      runs.back().push_back(&op);
    }
    for (ArrayRef<Operation *> run : runs) {
      // A run of pure operations (index arithmetic feeding host code) can
      // stay where it is.
      if (run.empty() ||
          llvm::all_of(run, [](Operation *op) { return isPure(op); }))
        continue;
      if (failed(wrapInSingleInvocation(run)))
        return signalPassFailure();
    }

    if (maxRegisterTile < 1 || minInvocations < 1 || maxAccumulators < 1 ||
        maxReductionLoops < 1) {
      func.emitError("max-register-tile, min-invocations, max-accumulators "
                     "and max-reduction-loops must be at least 1");
      return signalPassFailure();
    }
    auto join = [](ArrayRef<int64_t> values) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleave(values, os, "x");
      return text;
    };
    for (auto par : body.getOps<affine::AffineParallelOp>()) {
      if (par->hasAttr(kGpuWorkgroupSizeAttrName) ||
          par->hasAttr(kGpuStagedTileAttrName) ||
          par->hasAttr(kGpuSplitKAttrName) ||
          par->hasAttr(kGpuCoopTileAttrName))
        continue;
      OpBuilder builder(par);
      if (staged && !par->hasAttr(kGpuRegisterTileAttrName)) {
        StagedNest nest;
        std::string why;
        std::optional<StagedTile> tile;
        bool analyzed = succeeded(analyzeStagedNest(par, nest, why));
        std::string coopWhy = "off (coop-matrix=false)";
        std::optional<CoopTile> coop;
        if (analyzed && coopMatrix)
          coop = chooseCoopTile(nest, caps, maxWorkgroupSize,
                                minStagedWorkgroups, coopWhy);
        if (coop) {
          par->setAttr(
              kGpuCoopTileAttrName,
              builder.getDenseI64ArrayAttr({coop->tm, coop->tn, coop->tk,
                                            coop->sm, coop->sn, coop->stages}));
          if (remarks)
            par.emitRemark() << llvm::formatv(
                "cooperative-matrix tile {0}x{1}x{2}, {3}x{4} per subgroup "
                "(16x16x16 f16 -> f32), {5}, over M x N x K = {6} x {7} x "
                "{8}, batch {9}",
                coop->tm, coop->tn, coop->tk, coop->sm, coop->sn,
                coop->stages > 1 ? std::to_string(coop->stages) +
                                       " stages copied asynchronously"
                                 : std::string("1 stage"),
                nest.m, nest.n, nest.k, nest.batch);
          continue;
        }
        if (analyzed && remarks && nest.halfFactor[0] && nest.halfFactor[1])
          par.emitRemark() << "no cooperative-matrix tile: " << coopWhy;
        if (analyzed)
          tile = chooseStagedTile(nest, maxWorkgroupSize, minStagedWorkgroups,
                                  why);
        std::string splitWhy;
        std::optional<SplitKTile> split;
        if (analyzed && !tile)
          split = chooseSplitKTile(nest, maxWorkgroupSize, splitWhy);
        if (split) {
          par->setAttr(kGpuSplitKAttrName, builder.getDenseI64ArrayAttr(
                                               {split->tn, split->splits}));
          if (remarks)
            par.emitRemark() << llvm::formatv(
                "split-K tile: {0} outputs x {1} invocations each per "
                "workgroup, over M x N x K = {2} x {3} x {4}, batch {5}",
                split->tn, split->splits, nest.m, nest.n, nest.k, nest.batch);
          continue;
        }
        if (!tile && analyzed)
          why += "; no split-K tile: " + splitWhy;
        if (tile) {
          par->setAttr(kGpuStagedTileAttrName,
                       builder.getDenseI64ArrayAttr(
                           {tile->tm, tile->tn, tile->tk, tile->rm, tile->rn}));
          if (remarks)
            par.emitRemark() << llvm::formatv(
                "staged tile {0}x{1}x{2}, {3}x{4} outputs per invocation, "
                "over M x N x K = {5} x {6} x {7}, batch {8}",
                tile->tm, tile->tn, tile->tk, tile->rm, tile->rn, nest.m,
                nest.n, nest.k, nest.batch);
          continue;
        }
        if (remarks)
          par.emitRemark() << "no staged tile: " << why;
      }
      SmallVector<int64_t> ranges = *par.getConstantRanges();
      auto tile =
          par->getAttrOfType<DenseI64ArrayAttr>(kGpuRegisterTileAttrName);
      if (!tile) {
        RegisterTileNest nest;
        std::string why;
        SmallVector<int64_t> factors(ranges.size(), 1);
        if (succeeded(analyzeRegisterTileNest(par, nest, why)))
          factors = chooseRegisterTile(nest, maxRegisterTile, minInvocations,
                                       maxAccumulators, maxReductionLoops, why);
        if (llvm::any_of(factors, [](int64_t f) { return f != 1; })) {
          tile = builder.getDenseI64ArrayAttr(factors);
          par->setAttr(kGpuRegisterTileAttrName, tile);
        } else if (remarks) {
          par.emitRemark() << "no register tile: " << why;
        }
      }
      if (tile)
        for (auto [range, factor] : llvm::zip_equal(ranges, tile.asArrayRef()))
          range = llvm::divideCeil(range, factor);
      SmallVector<int64_t> sizes = chooseWorkgroup(ranges, maxWorkgroupSize);
      par->setAttr(kGpuWorkgroupSizeAttrName,
                   builder.getDenseI64ArrayAttr(sizes));
      if (remarks) {
        if (tile)
          par.emitRemark() << llvm::formatv(
              "register tile {0} ({1} outputs per invocation), workgroup "
              "{2} over {3}",
              join(tile.asArrayRef()), llvm::product_of(tile.asArrayRef()),
              join(sizes), join(ranges));
        else
          par.emitRemark() << "workgroup " << join(sizes) << " over "
                           << join(ranges);
      }
    }
  }
};
} // namespace
