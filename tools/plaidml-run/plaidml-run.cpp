//===- plaidml-run.cpp - Execute Tile programs ----------------------------===//
//
// Loads a program, binds its inputs (.npy files, shapes for random data),
// runs it on a device and writes or prints the results, with the command
// line contract of DESIGN.md section 6. Devices available in this build:
// `reference` (the reference interpreter, the oracle of the test suite).
// Every failure is one line on stderr and a non-zero exit code.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Reference/Interpreter.h"
#include "plaidml/Runtime/HostArray.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <random>

using namespace mlir;
using namespace ::plaidml::rt;
namespace reference = mlir::plaidml::reference;

namespace {
constexpr const char *kUsage = R"(usage: plaidml-run FILE [options]

Runs the entry function of FILE (.mlir with Tile-dialect functions).
  --entry NAME             function to run (default: the only one, or main)
  --device D               device to run on (default: $PLAIDML_DEVICE, else cpu)
  --input NAME=PATH.npy    input data (repeatable); inputs are arg0, arg1, ...
  --bind NAME=2x3xf32      check an input's shape and type (data stays random)
  --random-inputs[=SEED]   fill inputs not given with --input from a seeded RNG
  --output-dir DIR         write DIR/<output name>.npy (result0, result1, ...)
  --print                  print the outputs
  --repeat N, --warmup N   time N runs after N warm-up runs
  --list-devices           list the devices of this build and exit
)";

/// Reports `message` as the one-line reason and returns the exit code.
int fail(const std::string &message) {
  llvm::errs() << "plaidml-run: error: " << message << "\n";
  return 1;
}

struct Options {
  std::string file, entry, device, outputDir;
  std::map<std::string, std::string> inputs, binds;
  std::optional<uint64_t> randomSeed;
  bool print = false, listDevices = false;
  int64_t repeat = 0, warmup = 0;
};

std::optional<int64_t> parseCount(const std::string &s) {
  if (s.empty() || s.size() > 9 ||
      s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(s);
}

/// Parses argv into `opts`; returns an error message on bad usage.
std::optional<std::string> parseArgs(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasValue = false;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasValue = true;
      }
    }
    auto next = [&]() -> std::optional<std::string> {
      if (hasValue)
        return value;
      if (i + 1 >= argc)
        return std::nullopt;
      return std::string(argv[++i]);
    };
    auto keyValue = [&](std::map<std::string, std::string> &into)
        -> std::optional<std::string> {
      std::optional<std::string> v = next();
      if (!v)
        return arg + " needs NAME=VALUE";
      size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0)
        return arg + " needs NAME=VALUE, got '" + *v + "'";
      into[v->substr(0, eq)] = v->substr(eq + 1);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << kUsage;
      std::exit(0);
    } else if (arg == "--entry" || arg == "--device" || arg == "--output-dir") {
      std::optional<std::string> v = next();
      if (!v)
        return arg + " needs a value";
      (arg == "--entry" ? opts.entry
       : arg == "--device" ? opts.device
                           : opts.outputDir) = *v;
    } else if (arg == "--input") {
      if (auto err = keyValue(opts.inputs))
        return err;
    } else if (arg == "--bind") {
      if (auto err = keyValue(opts.binds))
        return err;
    } else if (arg == "--random-inputs") {
      opts.randomSeed = 0;
      if (hasValue) {
        std::optional<int64_t> seed = parseCount(value);
        if (!seed)
          return "--random-inputs takes a non-negative integer seed, got '" +
                 value + "'";
        opts.randomSeed = *seed;
      }
    } else if (arg == "--repeat" || arg == "--warmup") {
      std::optional<std::string> v = next();
      std::optional<int64_t> n = v ? parseCount(*v) : std::nullopt;
      if (!n)
        return arg + " needs a non-negative count";
      (arg == "--repeat" ? opts.repeat : opts.warmup) = *n;
    } else if (arg == "--print") {
      opts.print = true;
    } else if (arg == "--list-devices") {
      opts.listDevices = true;
    } else if (arg.rfind("-", 0) == 0) {
      return "unknown option '" + arg + "' (see --help)";
    } else if (opts.file.empty()) {
      opts.file = arg;
    } else {
      return "more than one input file ('" + opts.file + "' and '" + arg + "')";
    }
  }
  return std::nullopt;
}

std::optional<DType> toDType(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    unsigned w = intTy.getWidth();
    bool u = intTy.isUnsigned();
    switch (w) {
    case 1:
      return DType::i1;
    case 8:
      return u ? DType::ui8 : DType::si8;
    case 16:
      return u ? DType::ui16 : DType::si16;
    case 32:
      return u ? DType::ui32 : DType::si32;
    case 64:
      return u ? DType::ui64 : DType::si64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return DType::f16;
  if (type.isBF16())
    return DType::bf16;
  if (type.isF32())
    return DType::f32;
  if (type.isF64())
    return DType::f64;
  return std::nullopt;
}

std::string describe(RankedTensorType type) {
  std::string s;
  for (int64_t d : type.getShape())
    s += std::to_string(d) + "x";
  std::optional<DType> dtype = toDType(type.getElementType());
  return s + (dtype ? getDTypeName(*dtype) : "?");
}

/// Deterministic inputs: small integers, and floats in [-1, 1).
reference::Buffer randomBuffer(RankedTensorType type, std::mt19937_64 &rng) {
  reference::Buffer buffer(type);
  Type elem = type.getElementType();
  for (int64_t i = 0, e = buffer.getNumElements(); i < e; ++i) {
    if (buffer.isFloat()) {
      buffer.setFloat(i, std::uniform_real_distribution<double>(-1, 1)(rng));
    } else if (elem.isInteger(1)) {
      buffer.setInt(i, rng() & 1);
    } else if (cast<IntegerType>(elem).isUnsigned()) {
      buffer.setInt(i, static_cast<int64_t>(rng() % 16));
    } else {
      buffer.setInt(i, static_cast<int64_t>(rng() % 16) - 8);
    }
  }
  return buffer;
}

/// Buffer for argument `name` of `type` from the .npy file at `path`.
FailureOr<reference::Buffer> loadInput(const std::string &name,
                                       RankedTensorType type,
                                       const std::string &path,
                                       std::string &error) {
  std::optional<HostArray> array = readNpy(path, error);
  if (!array)
    return failure();
  reference::Buffer buffer(type);
  bool bf16FromF32 =
      type.getElementType().isBF16() && array->dtype == DType::f32;
  std::optional<DType> want = toDType(type.getElementType());
  bool shapeOk = array->shape == std::vector<int64_t>(type.getShape().begin(),
                                                      type.getShape().end());
  if (!shapeOk || (array->dtype != want && !bf16FromF32)) {
    error = "input '" + name + "' must be " + describe(type) + ", but '" +
            path + "' holds " + array->describe();
    return failure();
  }
  if (bf16FromF32) {
    for (int64_t i = 0, e = buffer.getNumElements(); i < e; ++i)
      buffer.setFloat(i, getElementAsDouble(*array, i));
    return buffer;
  }
  (void)buffer.fromBytes(array->bytes); // sizes match: shape and type do
  return buffer;
}

HostArray toHostArray(const reference::Buffer &buffer) {
  HostArray array;
  array.dtype = *toDType(buffer.getElementType());
  array.shape.assign(buffer.getType().getShape().begin(),
                     buffer.getType().getShape().end());
  array.bytes = buffer.toBytes();
  return array;
}

/// Prints `array` like NumPy: nested brackets, row-major.
void printArray(llvm::raw_ostream &os, const HostArray &array) {
  int64_t n = array.getNumElements();
  size_t rank = array.shape.size();
  bool isFloat = array.dtype == DType::f16 || array.dtype == DType::bf16 ||
                 array.dtype == DType::f32 || array.dtype == DType::f64;
  for (int64_t i = 0; i < n; ++i) {
    // Open a bracket for every dimension whose index wraps to 0 here.
    int64_t stride = 1;
    size_t open = 0;
    for (size_t d = rank; d-- > 0;) {
      stride *= array.shape[d];
      if (i % stride == 0)
        ++open;
    }
    if (i != 0) {
      os << ",";
      if (open)
        os << "\n" << std::string(rank - open, ' ');
      else
        os << " ";
    }
    os << std::string(open, '[');
    double v = getElementAsDouble(array, i);
    if (isFloat)
      os << llvm::format("%g", v);
    else
      os << static_cast<int64_t>(v);
    stride = 1;
    for (size_t d = rank; d-- > 0;) {
      stride *= array.shape[d];
      if ((i + 1) % stride == 0)
        os << "]";
    }
  }
  if (rank && n == 0)
    os << "[]";
  os << "\n";
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (std::optional<std::string> err = parseArgs(argc, argv, opts))
    return fail(*err);
  if (opts.listDevices) {
    llvm::outs() << "reference  the reference interpreter (exact, slow; "
                    "the test oracle)\n";
    return 0;
  }
  if (opts.file.empty())
    return fail("no input file (see --help)");
  if (opts.device.empty()) {
    const char *env = std::getenv("PLAIDML_DEVICE");
    opts.device = env && *env ? env : "cpu";
  }
  if (opts.device != "reference")
    return fail("device '" + opts.device +
                "' is not available in this build (available: reference)");

  auto compileStart = std::chrono::steady_clock::now();
  DialectRegistry registry;
  registry.insert<func::FuncDialect, mlir::plaidml::tile::TileDialect>();
  MLIRContext context(registry);
  // Diagnostics name the op by its location in the user's file; the
  // generic dump of the op would only repeat it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto file = llvm::MemoryBuffer::getFile(opts.file);
  if (!file)
    return fail("cannot read '" + opts.file + "': " + file.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  // Parse errors print as "file:line:col: error: ..." through this handler.
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + opts.file + "'");
  double compileMs = millisecondsSince(compileStart);

  SmallVector<func::FuncOp> funcs;
  for (auto f : module->getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  func::FuncOp entry;
  if (!opts.entry.empty()) {
    entry = module->lookupSymbol<func::FuncOp>(opts.entry);
    if (!entry)
      return fail("no function '" + opts.entry + "' in '" + opts.file + "'");
  } else if (funcs.size() == 1) {
    entry = funcs.front();
  } else if (!(entry = module->lookupSymbol<func::FuncOp>("main"))) {
    std::string names;
    for (auto f : funcs)
      names += (names.empty() ? "" : ", ") + f.getSymName().str();
    return fail("'" + opts.file + "' has " + std::to_string(funcs.size()) +
                " functions (" + names + "); pick one with --entry");
  }

  // Bind inputs arg0, arg1, ... in argument order.
  FunctionType fnType = entry.getFunctionType();
  std::vector<reference::Buffer> inputs;
  std::mt19937_64 rng(opts.randomSeed.value_or(0));
  for (auto [i, argType] : llvm::enumerate(fnType.getInputs())) {
    std::string name = "arg" + std::to_string(i);
    auto type = dyn_cast<RankedTensorType>(argType);
    if (!type || !type.hasStaticShape())
      return fail("argument '" + name + "' of '" + opts.entry +
                  "' is not a statically shaped tensor");
    if (auto it = opts.binds.find(name); it != opts.binds.end()) {
      std::optional<HostArray> spec = parseArraySpec(it->second, errorMessage);
      if (!spec)
        return fail("--bind " + name + ": " + errorMessage);
      if (spec->describe() != describe(type))
        return fail("--bind " + name + "=" + it->second +
                    " does not match the argument type " + describe(type));
    }
    if (auto it = opts.inputs.find(name); it != opts.inputs.end()) {
      FailureOr<reference::Buffer> buffer =
          loadInput(name, type, it->second, errorMessage);
      if (failed(buffer))
        return fail(errorMessage);
      inputs.push_back(std::move(*buffer));
    } else if (opts.randomSeed) {
      inputs.push_back(randomBuffer(type, rng));
    } else {
      return fail("missing input '" + name + "' (" + describe(type) +
                  "): pass --input " + name + "=FILE.npy or --random-inputs");
    }
  }
  for (auto &kv : llvm::concat<std::pair<const std::string, std::string>>(
           opts.inputs, opts.binds)) {
    std::string_view n = kv.first;
    bool known = n.rfind("arg", 0) == 0 && n.size() > 3 &&
                 n.find_first_not_of("0123456789", 3) == std::string::npos &&
                 std::stoull(std::string(n.substr(3))) < fnType.getNumInputs();
    if (!known)
      return fail("'" + kv.first + "' is not an input of '" +
                  entry.getSymName().str() + "' (inputs are arg0..arg" +
                  std::to_string(fnType.getNumInputs() - 1) + ")");
  }

  // Run: warm-up runs, then timed ones (at least one run in any case).
  FailureOr<std::vector<reference::Buffer>> results = failure();
  std::vector<double> times;
  int64_t runs = std::max<int64_t>(opts.repeat, 1);
  for (int64_t r = 0; r < opts.warmup + runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    results = reference::evaluate(entry, inputs);
    if (failed(results))
      return fail("running '" + entry.getSymName().str() + "' failed");
    if (r >= opts.warmup)
      times.push_back(millisecondsSince(start));
  }
  if (opts.repeat > 0) {
    std::sort(times.begin(), times.end());
    double median = times.size() % 2
                        ? times[times.size() / 2]
                        : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    llvm::outs() << "compile: " << llvm::format("%.3f", compileMs) << " ms\n";
    llvm::outs() << "run: min " << llvm::format("%.3f", times.front())
                 << " ms, median " << llvm::format("%.3f", median)
                 << " ms, max " << llvm::format("%.3f", times.back())
                 << " ms over " << times.size() << " runs\n";
  }

  if (!opts.outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(opts.outputDir))
      return fail("cannot create output directory '" + opts.outputDir +
                  "': " + ec.message());
  }
  for (auto [i, buffer] : llvm::enumerate(*results)) {
    std::string name = "result" + std::to_string(i);
    HostArray array = toHostArray(buffer);
    if (opts.print) {
      llvm::outs() << name << ": " << array.describe() << "\n";
      printArray(llvm::outs(), array);
    }
    if (!opts.outputDir.empty()) {
      llvm::SmallString<256> path(opts.outputDir);
      llvm::sys::path::append(path, name + ".npy");
      if (!writeNpy(std::string(path), array, errorMessage))
        return fail(errorMessage);
    }
  }
  return 0;
}
