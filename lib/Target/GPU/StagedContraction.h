//===- StagedContraction.h - Workgroup-memory GEMM kernels ------*- C++ -*-===//
//
// What plaidml-gpu-configure and plaidml-gpu-stage-contraction share about
// the staged (shared-memory) schedule of an outermost reduction nest that is
// a product of two operands: whether a nest is one (analyzeStagedNest), the
// tile the configuration chooses for it (chooseStagedTile) and the kernel
// that applies it (applyStagedTile). Internal to lib/Target/GPU; the design
// is docs/GpuKernels.md, "The SIMT contraction schedule".
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_GPU_STAGEDCONTRACTION_H
#define PLAIDML_LIB_TARGET_GPU_STAGEDCONTRACTION_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::plaidml {

/// An outermost reduction nest `O[...] = epilogue(init + sum_k a(m, k) *
/// b(n, k))` seen as a batch of matrix products: every dimension of the
/// parallel loop is an M dimension (only `a` reads it), an N dimension
/// (only `b` reads it) or a batch dimension (both, or neither); the
/// reduction loops together are K.
struct StagedNest {
  affine::AffineParallelOp par;
  /// The constant ranges of `par` (lower bounds 0, unit steps).
  SmallVector<int64_t> ranges;
  /// The reduction loops, outermost first; one accumulator each.
  SmallVector<affine::AffineForOp> chain;
  SmallVector<int64_t> kLowerBounds, kRanges;
  /// A guard around the innermost body that only `a`'s indices decide (a
  /// padded convolution's window): `a` counts as 0 where it fails.
  affine::AffineIfOp guard;
  /// The product and the accumulation of the innermost body.
  Operation *mul = nullptr, *add = nullptr;
  /// The ops computing each factor, in block order.
  SmallVector<Operation *> sliceA, sliceB;
  SmallVector<unsigned> mDims, nDims, batchDims;
  /// Which operand of `mul` is the first factor (1 when only the first
  /// operand has dimensions of its own: a matrix-vector product is then
  /// seen as a vector-matrix one, N its rows).
  unsigned aOperand = 0;
  /// Whether a factor's innermost memory index follows the reduction (a
  /// row-major A, a transposed B): the staging copy then walks k fastest.
  bool aAlongK = true, bAlongK = false;
  int64_t m = 1, n = 1, k = 1, batch = 1;
  /// Where each factor (first, second) is an f16 value extended to f32
  /// (and the sum is f32): that f16 value, which a cooperative-matrix
  /// kernel stages; else null.
  Value halfFactor[2];
};

/// Fills `nest` for `par`, or returns failure with the reason in `why`.
LogicalResult analyzeStagedNest(affine::AffineParallelOp par, StagedNest &nest,
                                std::string &why);

/// A staged schedule: a workgroup computes a tm x tn block of outputs, in
/// steps of tk along the reduction, each of its invocations an rm x rn
/// block (strided by tm / rm and tn / rn).
struct StagedTile {
  int64_t tm, tn, tk, rm, rn;
  int64_t invocations() const { return (tm / rm) * (tn / rn); }
};

/// The tile the configuration chooses: 128x128 (8x8 per invocation, steps
/// of 16 along a K of 1024 or more, else 8) when
/// the grid still has at least 90 % of `minWorkgroups` workgroups (128x64 or
/// 128x32 when N is at most 64 or 32), else 64x64 (4x4) or 32x32 (2x2); none
/// (`why` says why) for products too small in M or N (a GEMV), or when the
/// device's workgroups cannot hold 256 invocations.
std::optional<StagedTile> chooseStagedTile(const StagedNest &nest,
                                           int64_t maxWorkgroupSize,
                                           int64_t minWorkgroups,
                                           std::string &why);

/// The schedule of a product with M below 16 (a matrix-vector product):
/// each workgroup of 256 invocations computes `tn` outputs of one row, each
/// output summed by `splits` invocations over interleaved steps of K and
/// the partial sums added in workgroup memory.
struct SplitKTile {
  int64_t tn, splits;
};

/// The split-K tile the configuration chooses for `nest`: 8 outputs x 32
/// splits (many invocations, each with 4 products in flight: the kernel is
/// memory-bound); none (`why`) when K is below 256 or M is 16 or more.
std::optional<SplitKTile> chooseSplitKTile(const StagedNest &nest,
                                           int64_t maxWorkgroupSize,
                                           std::string &why);

/// Whether `tile` is one applySplitKTile can build (`why` says why not).
bool isValidSplitKTile(const SplitKTile &tile, std::string &why);

/// Replaces `nest.par` with the gpu.launch of the split-K schedule.
void applySplitKTile(StagedNest &nest, const SplitKTile &tile);

/// Whether `tile` is one applyStagedTile can build (`why` says why not).
bool isValidStagedTile(const StagedTile &tile, std::string &why);

/// Replaces `nest.par` with a gpu.launch computing it with `tile`: operand
/// tiles staged in workgroup memory, the next step's global loads issued
/// before the current step's arithmetic, register accumulators, guarded
/// edges, and the epilogue and the store per output.
void applyStagedTile(StagedNest &nest, const StagedTile &tile);

/// A cooperative-matrix schedule: a workgroup of 256 or 128 invocations (8
/// or 4 subgroups of 32) computes a tm x tn block of outputs in steps of tk
/// along the reduction, each subgroup an sm x sn block of 16x16 f32
/// accumulator matrices (16x16x16 f16 products). With one stage the next
/// step's factors are loaded into registers during the current step; with
/// two, they are copied asynchronously (memref.dma_start) into the second
/// of two workgroup buffers.
struct CoopTile {
  int64_t tm, tn, tk, sm, sn, stages = 1;
};

/// The most stages of a cooperative-matrix tile (more than one: copied
/// asynchronously, each step S - 1 ahead).
inline constexpr int64_t kMaxCoopStages = 4;

/// The SPIR-V capability, and the device properties (features of the
/// target that are not SPIR-V names) a cooperative-matrix kernel needs.
inline constexpr llvm::StringLiteral kCoopMatrixCapability =
    "CooperativeMatrixKHR";
inline constexpr llvm::StringLiteral kCoopMatrixShapeF16 =
    "coopmat-16x16x16-f16-f32";
inline constexpr llvm::StringLiteral kSubgroupSize32 = "subgroup-size-32";
/// The device feature (NVIDIA's OpenCL on compute capability 8.0 or later)
/// that two-stage cooperative-matrix kernels need: 16-byte asynchronous
/// copies from global to workgroup memory (PTX `cp.async`).
inline constexpr llvm::StringLiteral kAsyncCopyFeature = "nv-ptx-cp-async";

/// Whether kernels for `target` may copy asynchronously: an OpenCL target
/// with kAsyncCopyFeature.
bool hasAsyncCopies(TargetAttr target);

/// The cooperative-matrix tile the configuration chooses: 128x128x32 in 4
/// subgroups of 64x64 where both factors can be staged 8 halves at a time
/// with it, not both along K, and the grid keeps 90% of `minWorkgroups`
/// workgroups; else when
/// the grid still has `minWorkgroups` workgroups: 128x256x32 where the second
/// factor's memory follows N, else 256x128x32 where the first one's follows
/// M (each subgroup 64x64), else 128x128x64 (32x64); otherwise 64x64x32
/// (32x16); none (`why`) unless both factors are f16 extended to
/// f32, the target lists `caps` with CooperativeMatrixKHR, the 16x16x16
/// f16 -> f32 shape and 32-invocation subgroups, and M and N are 16 or
/// more. Where `caps` also lists kAsyncCopyFeature and the tile copies both
/// factors 8 halves at a time, two stages (TK halved, down to 32, until
/// both fit the workgroup memory; one stage where they do not fit even
/// then, as 128x256x32 and 256x128x32), the 128x128x32 tile then in 8
/// subgroups of 64x32; A B (A's memory follows K, B's N) whose 128x256
/// tiles still give `minWorkgroups` gets 128x256x16 in 3 stages (64x64).
/// Where `caps` lists kEmulateNvPtxFeature, 64x64 tiles: A B 64x64x16 in
/// 3 stages (32x32), whatever the workgroup count, else 64x64x32 (32x16).
std::optional<CoopTile> chooseCoopTile(const StagedNest &nest,
                                       ArrayRef<std::string> caps,
                                       int64_t maxWorkgroupSize,
                                       int64_t minWorkgroups, std::string &why);

/// Whether `tile` is one applyCoopTile can build (`why` says why not):
/// its shape; fitsCoopWorkgroupMemory checks its memory for a nest.
bool isValidCoopTile(const CoopTile &tile, std::string &why);

/// The workgroup memory the kernel of `tile` for `nest` allocates: each
/// stage of both factors' tiles, rows padded by 8 halves, and a 16x16 f32
/// scratch matrix per subgroup where the sums are not stored straight into
/// the output.
int64_t coopWorkgroupBytes(const StagedNest &nest, const CoopTile &tile);

/// Whether coopWorkgroupBytes is within 48 KiB (`why` says why not).
bool fitsCoopWorkgroupMemory(const StagedNest &nest, const CoopTile &tile,
                             std::string &why);

/// Whether the kernel of `tile` can copy both factors of `nest` 8 halves at
/// a time (wide staging), as two stages need (`why` says why not).
bool canCopyCoopAsync(const StagedNest &nest, const CoopTile &tile,
                      std::string &why);

/// Replaces `nest.par` with a gpu.launch computing it with `tile`: f16
/// operand tiles staged in workgroup memory, gpu.subgroup_mma_* products
/// accumulated in f32 matrices, stored straight into the output where the
/// nest stores its sums as they are, else the epilogue and the store per
/// output through a 16x16 scratch matrix per subgroup.
void applyCoopTile(StagedNest &nest, const CoopTile &tile);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_TARGET_GPU_STAGEDCONTRACTION_H
