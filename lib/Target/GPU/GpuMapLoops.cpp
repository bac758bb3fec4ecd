//===- GpuMapLoops.cpp - Map grid and workgroup loops to GPU ids ----------===//
//
// plaidml-gpu-map-loops: gives every scf.parallel its gpu.loop_dim_map
// mapping, which convert-parallel-loops-to-gpu then applies. An outermost
// loop (the grid of plaidml-gpu-tile-workgroups) maps to block ids, a loop
// directly inside one (the workgroup) to thread ids, deeper loops stay
// sequential; within a loop the innermost dimension maps to x, then y, then
// z, and outer dimensions beyond three run as loops in the kernel.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUMAPLOOPSPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

/// The processor of dimension `d` of `numDims` at `level` (0: grid, 1:
/// workgroup, deeper: sequential).
static gpu::Processor getProcessor(unsigned level, unsigned d,
                                   unsigned numDims) {
  static const gpu::Processor blocks[] = {
      gpu::Processor::BlockX, gpu::Processor::BlockY, gpu::Processor::BlockZ};
  static const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                           gpu::Processor::ThreadY,
                                           gpu::Processor::ThreadZ};
  unsigned fromInnermost = numDims - 1 - d;
  if (level > 1 || fromInnermost >= 3)
    return gpu::Processor::Sequential;
  return level == 0 ? blocks[fromInnermost] : threads[fromInnermost];
}

namespace {
struct GpuMapLoopsPass
    : public plaidml::impl::GpuMapLoopsPassBase<GpuMapLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop->hasAttr(gpu::getMappingAttrName()))
        return;
      unsigned level = 0;
      for (Operation *p = loop->getParentOp(); p; p = p->getParentOp())
        level += isa<scf::ParallelOp>(p);
      OpBuilder b(loop);
      unsigned n = loop.getNumLoops();
      SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
      for (unsigned d = 0; d < n; ++d)
        mapping.push_back(b.getAttr<gpu::ParallelLoopDimMappingAttr>(
            getProcessor(level, d, n), b.getDimIdentityMap(),
            b.getDimIdentityMap()));
      if (::mlir::failed(gpu::setMappingAttr(loop, mapping))) {
        loop.emitOpError("cannot set its GPU mapping");
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
