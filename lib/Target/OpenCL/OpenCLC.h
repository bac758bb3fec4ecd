//===- OpenCLC.h - The OpenCL C printer, internals --------------*- C++ -*-===//
//
// Private to lib/Target/OpenCL: the pieces of the OpenCL C printer
// (EmitOpenCLC.h) shared by its files: the type policy and literals
// (OpenCLCTypes.cpp), the helper library the kernels call, f16 emulation
// included (OpenCLCHelpers.cpp), and the kernel emitter, whose structure
// and memory ops are in EmitOpenCLC.cpp and whose arith, cast and math ops
// are in EmitOpenCLCOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_OPENCL_OPENCLC_H
#define PLAIDML_LIB_TARGET_OPENCL_OPENCLC_H

#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace mlir::plaidml::openclc {

//===----------------------------------------------------------------------===//
// Types and literals (OpenCLCTypes.cpp)
//===----------------------------------------------------------------------===//

std::string typeString(Type type);
bool isSupportedIntWidth(unsigned w);
/// Bits of an integer or index value (index is held in a `long`).
unsigned getIntWidth(Type type);
/// The C type holding a value: signless integers unsigned, i1 as bool,
/// index as long.
std::string getValueTypeName(Type type);
/// The C element type of a buffer: i1 as bytes, like the host and the
/// Vulkan kernels.
std::string getBufferElementTypeName(Type type);
/// The signed C type of `width` bits.
std::string getSignedTypeName(unsigned width);
/// The shortest decimal spelling of `value` that reads back exactly as a
/// float (or as a double), with a fraction or exponent so that C reads it
/// as floating point.
std::string formatFloat(double value, bool isDouble);
/// A C literal of `value`; with `halfAsFloat`, an f16 value held in a float
/// (no cl_khr_fp16): the literal is the f16 value, which a float holds
/// exactly.
std::string getFloatLiteral(const APFloat &value, Type type,
                            bool halfAsFloat = false);
std::string getIntLiteral(const APInt &value, Type type);

//===----------------------------------------------------------------------===//
// The program: helpers the kernels call, extensions they need
// (OpenCLCHelpers.cpp)
//===----------------------------------------------------------------------===//

struct Program {
  bool needsFp16 = false;
  bool needsFp64 = false;
  /// Definitions of the helper functions, in first-use order.
  std::vector<std::string> helpers;
  llvm::StringSet<> helperNames;

  /// Returns `name`, defining it from `definition` on first use.
  std::string use(const std::string &name, const std::string &definition) {
    if (helperNames.insert(name).second)
      helpers.push_back(definition);
    return name;
  }
};

/// `float plaidml_round_half(float x)` (or from a double): x rounded to the
/// nearest f16, as a float; the f16 emulation without cl_khr_fp16.
std::string getRoundHalfHelper(Program &program, bool fromDouble);
/// The bits of an f16 held in a float, and back.
std::string getHalfBitsHelper(Program &program, bool toBits);
/// arith.maximumf/minimumf on `type`: NaN propagating, -0 below +0.
std::string getMinMaxHelper(Program &program, bool isMax, StringRef type);
/// Integer division and remainder (`kind`) of `width` bits that cannot
/// trap.
std::string getDivHelper(Program &program, StringRef kind, unsigned width);

//===----------------------------------------------------------------------===//
// Kernels (EmitOpenCLC.cpp, EmitOpenCLCOps.cpp)
//===----------------------------------------------------------------------===//

class KernelEmitter {
public:
  KernelEmitter(const OpenCLCOptions &options, Program &program,
                raw_indented_ostream &os)
      : options(options), program(program), os(os) {}

  LogicalResult emitKernel(gpu::GPUFuncOp func);

private:
  // Diagnostics: every problem is reported once per op name, message and
  // location; emission goes on so that all of them are seen.
  void error(Operation *op, const Twine &message);
  void unsupported(Operation *op) {
    error(op, "has no OpenCL C translation yet");
  }
  /// Checks that the device can hold `type`, reporting at `op` with `what`
  /// ("computes on", "reads", "writes") otherwise.
  bool checkType(Operation *op, Type type, StringRef what,
                 StringRef where = "");
  bool checkOpTypes(Operation *op);

  /// Without cl_khr_fp16, f16 values are held in floats (rounded to f16
  /// after every op) and f16 buffers are read and written with
  /// vload_half/vstore_half_rte.
  bool isEmulatedHalf(Type type) const { return type.isF16() && !options.fp16; }
  /// The C type holding a value of `type` (f16 as float when emulated).
  std::string typeName(Type type) const {
    // vector<4xf32> (the staged GPU kernels' workgroup memory): float4.
    // Vectors of f16 are only moved (the cooperative-matrix kernels' staged
    // chunks): their bits, ushortN, with or without cl_khr_fp16.
    if (auto vector = dyn_cast<VectorType>(type))
      return (vector.getElementType().isF16()
                  ? std::string("ushort")
                  : typeName(vector.getElementType())) +
             std::to_string(vector.getNumElements());
    if (auto mma = dyn_cast<gpu::MMAMatrixType>(type))
      return mmaTypeName(mma);
    return isEmulatedHalf(type) ? "float" : getValueTypeName(type);
  }
  /// `expr` (a float) rounded to f16.
  std::string roundHalf(const std::string &expr) {
    return getRoundHalfHelper(program, /*fromDouble=*/false) + "(" + expr + ")";
  }
  /// Declares a variable for the f16-or-other result of a computing op,
  /// rounding an emulated f16 result unless the op is exact on f16 values.
  void assignComputed(Operation *op, const std::string &expr);

  // Names and expressions.
  std::string name(Value v) { return names.lookup(v); }
  std::string newName() { return "v" + std::to_string(nextId++); }
  /// Declares a variable for `result` holding `expr`.
  void assign(Value result, const std::string &expr);
  /// `v` widened to uint/ulong (zero-extended) or int/long (sign-extended).
  std::string asUnsigned(Value v);
  std::string asSigned(Value v);
  /// An expression computed in uint/ulong or int/long, back in `type`.
  std::string narrow(const std::string &expr, Type type);
  std::string linearIndex(Operation *op, Value memref, ValueRange indices);

  // Cooperative matrices as PTX wmma (EmitOpenCLCMma.cpp).
  /// The struct holding an invocation's registers of a fragment.
  std::string mmaTypeName(gpu::MMAMatrixType type) const;
  /// How a wmma load or store of `fragment` reaches `memref[indices]`: the
  /// state space ("shared" for workgroup memory, else "global"), the asm
  /// operand of the address (32-bit in the shared window, else the 64-bit
  /// pointer) and the stride in the fragment's elements; none for a
  /// fragment or buffer element the translation does not take.
  struct MmaAccess {
    const char *space;
    std::string operand;
    uint64_t stride;
    /// The C address of the matrix's first element, and whether it is in
    /// workgroup memory (the emulation's pointer).
    std::string address;
    bool shared;
  };
  std::optional<MmaAccess> mmaAccess(Operation *op, Value memref,
                                     ValueRange indices,
                                     gpu::MMAMatrixType fragment,
                                     uint64_t leadDimension);
  /// Emits `op` if it is a gpu.subgroup_mma_* op, gpu.subgroup_id or
  /// gpu.lane_id; false otherwise.
  bool emitMma(Operation *op);
  /// Emits `op` if it is an nvgpu.device_async_copy (PTX cp.async),
  /// nvgpu.device_async_create_group (cp.async.commit_group) or
  /// nvgpu.device_async_wait (cp.async.wait_group); false otherwise.
  bool emitAsyncCopy(Operation *op);
  /// OpenCLCOptions::emulateNvPtx: the whole matrix loaded by every
  /// invocation into `result`.
  void emitEmulatedLoad(const MmaAccess &access, gpu::MMAMatrixType type,
                        std::optional<bool> transpose,
                        const std::string &result);
  /// At the top of `func`: counts its asynchronous copies and, emulated,
  /// declares the queue of copies not yet done.
  void emitAsyncQueue(gpu::GPUFuncOp func);
  /// Emulated: does the queued copies of the groups before `before` (a C
  /// expression).
  void emitQueuedCopies(const std::string &before);

  // Ops.
  void emitBlock(Block &block);
  void emitOp(Operation *op);
  void emitArith(Operation *op);
  void emitCast(Operation *op);
  void emitMath(Operation *op);
  void emitFor(scf::ForOp op);
  void emitIf(scf::IfOp op);
  void emitWhile(scf::WhileOp op);
  /// Declares the array of a private (`qualifier` "") or workgroup
  /// ("__local ") memref and names it.
  void declareArray(StringRef qualifier, Value memref);
  /// Declares one variable per value of `values` (uninitialized, or from
  /// `inits`) and returns their names.
  SmallVector<std::string> declare(ValueRange values, ValueRange inits = {});
  /// `targets[i] = values[i]`, through temporaries when one value may be
  /// another target.
  void assignAll(ArrayRef<std::string> targets, ValueRange values);

  const OpenCLCOptions &options;
  Program &program;
  raw_indented_ostream &os;
  DenseMap<Value, std::string> names;
  /// memref.alloca (private) and workgroup memref.alloc (__local) results:
  /// arrays in the kernel, f16 ones held as floats.
  llvm::SmallPtrSet<Value, 4> privateBuffers;
  unsigned nextId = 0;
  /// Emulated: the asynchronous copy ops of the kernel (the queue's size).
  int64_t asyncQueueSize = 0;
  llvm::StringSet<> reported;
  bool hadError = false;
};

} // namespace mlir::plaidml::openclc

#endif // PLAIDML_LIB_TARGET_OPENCL_OPENCLC_H
