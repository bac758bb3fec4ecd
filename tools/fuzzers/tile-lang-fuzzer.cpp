//===- tile-lang-fuzzer.cpp - libFuzzer target of the Tile importer -------===//
//
// Feeds arbitrary bytes to the Tile-language importer (every input bound to
// a 3x...x3 f32 tensor), then runs the verifier, tile-compute-bounds and the
// canonicalizer on whatever imports. Any crash, sanitizer report, assertion
// or hang is a bug: the importer must answer every input with a diagnostic.
// Each input gets a fresh MLIRContext so nothing accumulates across runs.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"
#include "plaidml/Frontend/TileLang/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, plaidml::tile::TileDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics are the expected answer to bad input: swallow them.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz.tile"),
      llvm::SMLoc());
  plaidml::tilelang::ImportOptions options;
  options.defaultBinding =
      std::make_pair(int64_t(3), Float32Type::get(&context));
  OwningOpRef<ModuleOp> module =
      plaidml::tilelang::importTileProgram(sourceMgr, &context, options);
  if (!module)
    return 0;
  // The importer promises valid IR.
  if (failed(verify(*module)))
    __builtin_trap();
  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(plaidml::tile::createTileComputeBoundsPass());
  pm.addPass(createCanonicalizerPass());
  (void)pm.run(*module);
  return 0;
}
