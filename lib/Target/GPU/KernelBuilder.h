//===- KernelBuilder.h - The staged kernels' builder (private) ------------===//
//
// What StagedContraction.cpp (the analysis, the SIMT and split-K kernels)
// and CoopContraction.cpp (the cooperative-matrix kernel) share: the
// builder of a nest's gpu.launch and the helpers of the analysis it uses.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_GPU_KERNELBUILDER_H
#define PLAIDML_LIB_TARGET_GPU_KERNELBUILDER_H

#include "StagedContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::plaidml::detail {

/// Workgroup memory: what convert-gpu-to-spirv maps to the Workgroup
/// storage class and the OpenCL C translator declares `__local`.
inline constexpr int64_t kWorkgroupMemorySpace = 3;
/// Elements each staged row is padded by: transposing stores of one step
/// fall into different banks.
inline constexpr int64_t kRowPadding = 4;
/// The invocations of a staged workgroup.
inline constexpr int64_t kInvocations = 256;

/// Which part of the nest a value is: an index of the parallel loop (its
/// dimension), of a reduction loop (its position in the chain), or neither.
struct IndexOf {
  int64_t parDim = -1, chainPos = -1;
};

/// Which part of the nest `v` is.
IndexOf classifyIndex(const StagedNest &nest, Value v);

/// Whether `nest` can take a 256-invocation tile of at least `smallest` x
/// `smallest` outputs (`why` says why not).
bool fitsWorkgroupTiles(const StagedNest &nest, int64_t maxWorkgroupSize,
                        int64_t smallest, std::string &why);

/// The workgroups of `nest` with tm x tn tiles.
int64_t countWorkgroups(const StagedNest &nest, int64_t tm, int64_t tn);

/// The load of factor `side` (its value `factor`) when a kernel with
/// `rows` x `tk` tiles of it can copy it `chunk` elements at a time: a
/// plain load of a row-major buffer whose innermost index is the one the
/// chunks follow (the only reduction index, or the only M (N) index), in
/// tiles and steps that divide the factor; else null.
affine::AffineLoadOp wideFactorLoad(const StagedNest &nest, Value factor,
                                    int side, int64_t rows, int64_t tk,
                                    int64_t chunk);

/// Builds the gpu.launch that replaces a staged nest.
class KernelBuilder {
public:
  KernelBuilder(StagedNest &nest, OpBuilder &b)
      : nest(nest), b(b), loc(nest.par.getLoc()) {}

  void buildStaged(const StagedTile &chosen);
  void buildSplitK(const SplitKTile &split);
  void buildCoop(const CoopTile &coop);

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value mulc(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, index(y));
  }
  Value lessThan(Value x, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 index(bound));
  }
  /// acc + x * y, one `math.fma` where the accumulator is f32 or f64: the
  /// contraction's sum has no fixed order or rounding of its own (tiles
  /// reorder it), and OpenCL C, which rounds `a * b + c` twice, would
  /// otherwise issue a multiply and an add per product (NVIDIA's OpenCL:
  /// half the arithmetic rate; Vulkan's drivers fuse on their own).
  Value multiplyAdd(Value acc, Value x, Value y);
  Value clampBelow(Value x, int64_t bound) {
    return arith::MinUIOp::create(b, loc, x, index(bound - 1));
  }
  /// The indices of `ranges` (outermost first) whose linear index is `v`.
  SmallVector<Value> delinearize(Value v, ArrayRef<int64_t> ranges);
  /// Maps the parallel dimensions `dims` to the indices whose linear index
  /// is `v`.
  void mapDims(IRMapping &mapping, ArrayRef<unsigned> dims, Value v);
  void mapChain(IRMapping &mapping, Value k);
  void mapBatch(IRMapping &mapping);
  /// Clones `op`, its affine accesses as memref ones.
  void cloneConverted(Operation *op, IRMapping &mapping);
  /// The value of factor `side` at linear indices (m or n, k), both clamped
  /// into range; 0 past K or outside the guard.
  Value factorAt(int side, Value mn, Value k, bool guardK, bool clampK = true);
  /// Group `i` of `width` rows of this invocation's share of factor
  /// `side`'s staged tile: the group's index (its first row along M or N
  /// over `width`) and its step along K.
  std::pair<Value, Value> shareGroup(int side, int64_t i);
  /// The launch of `grid` workgroups of `threads` invocations, the builder
  /// at the start of its body; sets `tid` and `batchIndex`.
  gpu::LaunchOp createLaunch(int64_t gridX, int64_t gridY,
                             int64_t threads = kInvocations);
  /// The output at linear indices (m, n) from the reduction's sum `acc`:
  /// the nest's body with the chain's result = its initial value + `acc`
  /// (the epilogue and the store).
  void emitOutput(Value m, Value n, Value acc);
  /// emitOutput where (m, n) lies inside M x N; tiles of tm x tn outputs
  /// that divide M (N) need no test along it.
  void emitGuardedOutput(Value m, Value n, int64_t tm, int64_t tn, Value acc);
  /// The nest's store where the nest stores its sums as they are (an
  /// initial value of 0, no epilogue) into a row-major M x N matrix (per
  /// batch) that `coop`'s tiles divide: the accumulator matrices can then
  /// be stored straight into it.
  affine::AffineStoreOp getDirectStore(const CoopTile &coop);
  /// The indices of output (m, n) of `store` (one of getDirectStore).
  SmallVector<Value> getDirectIndices(affine::AffineStoreOp store, Value m,
                                      Value n);
  /// wideFactorLoad for this nest.
  affine::AffineLoadOp canStageWide(Value factor, int side, int64_t rows,
                                    int64_t tk, int64_t chunk);
  /// Where canStageWide: `load`'s buffer viewed as vectors of `chunk`
  /// elements (wideMem[side], an unrealized cast before the launch that
  /// plaidml-gpu-launch-bools-as-bytes removes from the launch).
  void viewWide(affine::AffineLoadOp load, int side, int64_t chunk,
                Type vectorType);
  /// The indices into the view of `load`'s buffer of the chunk of `chunk`
  /// elements that starts at (mn, k).
  SmallVector<Value> wideIndices(affine::AffineLoadOp load, int side, Value mn,
                                 Value k, int64_t chunk);
  /// Factor `side`'s elements this invocation copies for the step at k0.
  SmallVector<Value> loadShare(int side, Value k0, bool guardK);
  void storeShare(int side, ValueRange values);
  /// Where factor `side` is staged transposed through registers
  /// (kChunk[side] > 1): the group of `width` rows and the chunk of
  /// kChunk[side] steps along K that this invocation copies.
  std::pair<Value, Value> transposedBlock(int side);

  StagedNest &nest;
  StagedTile tile{};
  OpBuilder &b;
  Location loc;
  Value tid, tileM0, tileN0, batchIndex;
  Value staged[2];
  Type elementType;
  /// Rows per element of the staged tiles: 4 (a vector<4xT> per element,
  /// read and written 128 bits at a time) where the tile allows, else 1.
  int64_t width = 1;
  /// Whether the factors are staged as their f16 values (nest.halfFactor).
  bool half = false;
  /// The factors loaded a chunk at a time (canStageWide) and their views.
  affine::AffineLoadOp wideLoad[2];
  Value wideMem[2];
  /// Steps along K per vector load of a factor whose memory follows K and
  /// that is staged through a view (a row-major A): each invocation loads
  /// `width` rows of kChunk elements and stores kChunk vectors of `width`
  /// rows. 1 where the factor is not loaded so.
  int64_t kChunk[2] = {1, 1};
};

} // namespace mlir::plaidml::detail

#endif // PLAIDML_LIB_TARGET_GPU_KERNELBUILDER_H
