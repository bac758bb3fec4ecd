//===- plaidml-bench-cpu.cpp - PlaidML against OpenBLAS and oneDNN --------===//
//
// The CPU benchmark of docs/Performance.md. For every case (Cases.h) and
// thread count it compiles the case's Tile program, times its execution and
// the peer's on the same seeded inputs (median of repetitions after a
// warm-up), checks PlaidML's output against the peer's, and prints a
// markdown table of rates and ratios. A case whose numbers are wrong, or
// that fails to compile or run, is marked in the table, gets no ratio, and
// makes the exit status 1. No timing is ever asserted.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"
#include "Compile.h"
#include "Peers.h"
#include "plaidml/Runner/Runner.h"

#include "plaidml/Compiler/Compiler.h"
#include "plaidml/InitAll.h"
#include "plaidml/Runtime/HostCpu.h"
#include "plaidml/Runtime/Program.h"
#include "plaidml/Target/Cpu/CpuTarget.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

using namespace plaidml;
using namespace plaidml::bench;
namespace cl = llvm::cl;

static cl::OptionCategory category("plaidml-bench-cpu options");
static cl::opt<std::string>
    filter("filter",
           cl::desc("Run only the cases whose name matches this regular "
                    "expression (POSIX extended, matched anywhere)"),
           cl::value_desc("regex"), cl::init(""), cl::cat(category));
static cl::opt<bool>
    quick("quick",
          cl::desc("Tiny shapes and one repetition: checks that every case "
                   "computes the right numbers (the smoke test)"),
          cl::init(false), cl::cat(category));
static cl::opt<unsigned>
    repetitions("reps",
                cl::desc("Timed repetitions per measurement (default: as "
                         "many as --min-time asks for)"),
                cl::init(0), cl::cat(category));
static cl::opt<double>
    minTime("min-time",
            cl::desc("Seconds each measurement should take when --reps is "
                     "not given (default 0.5)"),
            cl::value_desc("seconds"), cl::init(0.5), cl::cat(category));
static cl::opt<std::string>
    outputFile("output", cl::desc("Also write the report to this file"),
               cl::value_desc("file.md"), cl::init(""), cl::cat(category));
static cl::opt<std::string>
    dumpPrograms("dump-programs",
                 cl::desc("Write each case's Tile program to DIR/<case>.mlir "
                          "(to inspect it with plaidml-opt)"),
                 cl::value_desc("dir"), cl::init(""), cl::cat(category));
static cl::opt<bool> listCases("list",
                               cl::desc("List the cases (after --filter) and "
                                        "exit"),
                               cl::init(false), cl::cat(category));

/// The variables the harness set before re-executing itself, as
/// "NAME,NAME", in the environment of the re-executed process.
static const char *const kReexecMarker = "PLAIDML_BENCH_SET_ENV";

/// Both peers read their settings from the environment when their libraries
/// load, before main, so the harness sets what it needs and starts again
/// (variables the user set are left alone; if exec fails, it carries on and
/// the report says what was used):
/// - OPENBLAS_CORETYPE=SkylakeX on CPUs with AVX-512: Debian's OpenBLAS
///   picks a slow kernel on AVX-512 CPUs it does not recognize.
/// - OMP_WAIT_POLICY=passive: by default OpenMP threads spin while they wait,
///   and on a small shared machine a spinning thread that loses its core
///   stalls every parallel region (oneDNN at 2 threads on 2 busy vCPUs took
///   16 ms per convolution instead of 1). Passive threads sleep instead.
static void reexecWithPeerSettings(char **argv) {
  if (std::getenv(kReexecMarker))
    return;
  std::vector<std::pair<const char *, const char *>> settings;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f"))
    settings.push_back({"OPENBLAS_CORETYPE", "SkylakeX"});
#endif
  settings.push_back({"OMP_WAIT_POLICY", "passive"});
  std::string names;
  for (auto [name, value] : settings) {
    if (std::getenv(name))
      continue;
    setenv(name, value, 1);
    names += (names.empty() ? "" : ",") + std::string(name);
  }
  if (names.empty())
    return;
  setenv(kReexecMarker, names.c_str(), 1);
  execv("/proc/self/exe", argv);
  std::perror("plaidml-bench-cpu: warning: cannot re-execute with the "
              "peers' settings");
  std::istringstream list(names);
  for (std::string name; std::getline(list, name, ',');)
    unsetenv(name.c_str());
  unsetenv(kReexecMarker);
}

/// "NAME=value, set by plaidml-bench-cpu" (or "from the environment"), or
/// `unset` when the variable is not set, for the report.
static std::string describeSetting(const std::string &name,
                                   const std::string &unset) {
  const char *value = std::getenv(name.c_str());
  if (!value)
    return unset;
  const char *marker = std::getenv(kReexecMarker);
  bool ours =
      marker && ("," + std::string(marker) + ",").find("," + name + ",") !=
                    std::string::npos;
  return name + "=" + value +
         (ours ? ", set by plaidml-bench-cpu" : ", from the environment");
}

namespace {
/// The median time of a measurement and the repetitions behind it.
struct Measurement {
  double seconds = 0;
  unsigned reps = 0;
};

/// PlaidML's side of a case at one thread count, kept for the next: when
/// the next artifact is the same bytes (a program with no loop worth a
/// thread team), it is not timed again.
struct PlaidMLRun {
  unsigned threads = 0;
  std::string artifact;
  Measurement time;
  rt::HostArray output;
};

/// One row of the table.
struct Row {
  const Case *c = nullptr;
  unsigned threads = 1;
  double compileMs = 0;
  Measurement plaidml, peer;
  /// The thread count whose identical artifact was timed instead; 0 when
  /// this row's was timed.
  unsigned sameCodeAs = 0;
  std::string peerName;
  double maxRelErr = 0, tolerance = 0;
  /// Empty when the case ran and its numbers match; else what went wrong.
  std::string failure;
  /// Whether the failure is a mismatch (the numbers are wrong).
  bool mismatch = false;
};
} // namespace

/// A run this long is measured once: its warm-up effects (caches, page
/// faults, thread start-up) are noise, and today's PlaidML SGEMM 2048 takes
/// over a minute a run.
static constexpr double kSlowRunSeconds = 1.0;

/// Times `run`: one warm-up run, which also sizes the repetitions, then the
/// median of the repetitions. Without --reps, a warm-up run of
/// kSlowRunSeconds or more is the measurement.
static rt::StatusOr<Measurement>
measure(const std::function<rt::Status()> &run) {
  using Clock = std::chrono::steady_clock;
  auto timeOnce = [&](double &seconds) {
    auto start = Clock::now();
    rt::Status status = run();
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return status;
  };
  double first = 0;
  if (rt::Status s = timeOnce(first); !s.ok())
    return s;
  unsigned reps = repetitions;
  if (reps == 0) {
    if (first >= kSlowRunSeconds)
      return Measurement{first, 1};
    reps =
        quick ? 1
              : static_cast<unsigned>(std::clamp(
                    std::ceil(minTime / std::max(first, 1e-9)), 3.0, 100000.0));
  }
  std::vector<double> times(reps);
  for (double &t : times)
    if (rt::Status s = timeOnce(t); !s.ok())
      return s;
  std::sort(times.begin(), times.end());
  Measurement m;
  m.reps = reps;
  m.seconds =
      reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
  return m;
}

/// max |got - expected| / max |expected|: 0 for identical arrays, infinite
/// when PlaidML produced a NaN or infinity the peer did not.
static double getMaxRelativeError(const rt::HostArray &got,
                                  const std::vector<float> &expected) {
  const auto *g = reinterpret_cast<const float *>(got.bytes.data());
  double maxDiff = 0, maxRef = 0;
  for (size_t i = 0, e = expected.size(); i < e; ++i) {
    double diff = std::fabs(static_cast<double>(g[i]) - expected[i]);
    if (!(diff <= DBL_MAX)) // NaN or infinity.
      return INFINITY;
    maxDiff = std::max(maxDiff, diff);
    maxRef = std::max(maxRef, std::fabs(static_cast<double>(expected[i])));
  }
  return maxRef > 0 ? maxDiff / maxRef : maxDiff;
}

/// Compiles and times PlaidML's side of `row` on `inputs`, unless its
/// artifact is the same as `previous`'s; leaves the result in `previous`.
static rt::Status runPlaidML(Row &row, const std::vector<rt::HostArray> &inputs,
                             mlir::MLIRContext &context,
                             const std::string &workDir, PlaidMLRun &previous) {
  const Case &c = *row.c;
  mlir::plaidml::CompileOptions options;
  options.threads = row.threads;
  std::string path =
      workDir + "/" + c.name + "-t" + std::to_string(row.threads) + ".so";
  rt::StatusOr<double> compileMs =
      compileProgram(context, c.name + ".mlir", c.program, options, path);
  if (!compileMs.ok())
    return compileMs.status();
  row.compileMs = *compileMs;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> artifact =
      llvm::MemoryBuffer::getFile(path);
  if (!artifact)
    return rt::Status::failure("cannot read '" + path +
                               "': " + artifact.getError().message());
  std::string bytes = (*artifact)->getBuffer().str();
  if (previous.threads && bytes == previous.artifact) {
    row.plaidml = previous.time;
    row.sameCodeAs = previous.threads;
    return rt::Status::success();
  }

  rt::StatusOr<std::unique_ptr<rt::Program>> program = rt::Program::load(path);
  if (!program.ok())
    return program.status();
  rt::StatusOr<rt::Invocation> invocation = (*program)->prepare("main", inputs);
  if (!invocation.ok())
    return invocation.status();
  rt::StatusOr<Measurement> time =
      measure([&] { return invocation->execute(); });
  if (!time.ok())
    return time.status();
  rt::StatusOr<rt::HostArray> output = invocation->getOutput(0);
  if (!output.ok())
    return output.status();
  row.plaidml = *time;
  previous = {row.threads, std::move(bytes), *time, std::move(*output)};
  return rt::Status::success();
}

/// Compiles, times and checks `row`'s case on `inputs` with its thread
/// count; `previous` carries PlaidML's side from one thread count to the
/// next.
static void runCase(Row &row, const std::vector<rt::HostArray> &inputs,
                    mlir::MLIRContext &context, const std::string &workDir,
                    PlaidMLRun &previous) {
  const Case &c = *row.c;
  if (rt::Status s = runPlaidML(row, inputs, context, workDir, previous);
      !s.ok()) {
    row.failure = "PlaidML: " + s.message();
    return;
  }

  rt::StatusOr<std::unique_ptr<Peer>> peer = c.makePeer(inputs, row.threads);
  if (!peer.ok()) {
    row.failure = c.peerName + ": " + peer.message();
    return;
  }
  row.peerName = (*peer)->getName();
  rt::StatusOr<Measurement> peerTime = measure([&] { return (*peer)->run(); });
  if (!peerTime.ok()) {
    row.failure = row.peerName + ": " + peerTime.message();
    return;
  }
  row.peer = *peerTime;

  const rt::HostArray &got = previous.output;
  rt::StatusOr<std::vector<float>> expected = (*peer)->getExpected();
  if (!expected.ok()) {
    row.failure = row.peerName + ": " + expected.message();
    return;
  }
  if (got.dtype != rt::DType::f32 ||
      got.getNumElements() != static_cast<int64_t>(expected->size())) {
    row.failure = "PlaidML's result is " + got.describe() + ", but " +
                  row.peerName + "'s has " + std::to_string(expected->size()) +
                  " f32 elements";
    return;
  }
  row.maxRelErr = getMaxRelativeError(got, *expected);
  // Rounding grows with the number of terms summed into an output.
  row.tolerance = std::max(1e-5, 8.0 * c.reduction * FLT_EPSILON);
  if (!(row.maxRelErr <= row.tolerance)) {
    row.mismatch = true;
    std::ostringstream os;
    os << "wrong result: max relative error " << row.maxRelErr << " against "
       << row.peerName << " exceeds the tolerance " << row.tolerance;
    row.failure = os.str();
  }
}

/// A rate or time with three significant digits, without an exponent for
/// the values a table shows.
static std::string formatNumber(double value) {
  char buffer[32];
  if (value >= 100)
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
  else if (value >= 10)
    std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  else if (value >= 1)
    std::snprintf(buffer, sizeof(buffer), "%.2f", value);
  else
    std::snprintf(buffer, sizeof(buffer), "%.3g", value);
  return buffer;
}

static std::string formatRate(const Case &c, const Measurement &m) {
  return formatNumber(c.work / m.seconds / 1e9) + " " + c.unit;
}

static std::string formatTime(const Measurement &m) {
  std::string time = m.seconds >= 1 ? formatNumber(m.seconds) + " s"
                     : m.seconds >= 1e-3
                         ? formatNumber(m.seconds * 1e3) + " ms"
                         : formatNumber(m.seconds * 1e6) + " us";
  return time + " x" + std::to_string(m.reps);
}

static std::string formatError(double error) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1e", error);
  return buffer;
}

/// "1 thread", "2 threads".
static std::string describeThreads(unsigned n) {
  return std::to_string(n) + (n == 1 ? " thread" : " threads");
}

/// The UTC date and time, "2025-01-31 12:00 UTC".
static std::string getDate() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M UTC", &tm);
  return buffer;
}

static std::string makeReport(const std::vector<Row> &rows,
                              const mlir::plaidml::CompileOptions &options,
                              const mlir::plaidml::CpuTarget &target) {
  const rt::HostCpu &cpu = rt::HostCpu::get();
  std::ostringstream os;
  os << "# plaidml-bench-cpu" << (quick ? " --quick" : "") << "\n\n"
     << "- date: " << getDate() << "\n"
     << "- CPU: " << (cpu.modelName.empty() ? "unknown" : cpu.modelName)
     << " (LLVM: " << target.cpu << "), " << cpu.numCores
     << " cores available\n"
     << "- PlaidML compile options: cpu=" << target.cpu
     << " opt-level=" << options.optLevel
     << " threads=<as in the table> triple=" << target.triple
     << " features=" << target.manifestFeatures << "\n"
     << "- OpenBLAS: " << describeOpenBlas() << " ("
     << describeSetting("OPENBLAS_CORETYPE", "OpenBLAS's own CPU detection")
     << ")\n"
     << "- oneDNN: " << describeOneDnn() << " ("
     << describeSetting("OMP_WAIT_POLICY", "OpenMP's default wait policy")
     << ")\n"
     << "- timing: median of the repetitions (xN) after one warm-up run; "
     << (repetitions ? std::to_string(repetitions) + " repetitions"
                     : "repetitions sized to take " + formatNumber(minTime) +
                           " s, at least 3; a warm-up run of " +
                           formatNumber(kSlowRunSeconds) +
                           " s or more is itself the measurement (x1)")
     << "; execution only (inputs in place, oneDNN reorders untimed); "
        "compile time apart. \"same as 1 thread\": PlaidML's artifact is "
        "byte-identical to that row's (no loop worth a thread team), so it "
        "was timed once\n"
     << "- rates: GFLOP/s = 2 x multiply-adds / time; GB/s = bytes read and "
        "written once / time (elementwise: X read, O written; triad: 3 "
        "arrays)\n"
     << "- check: max rel err = max |PlaidML - peer| / max |peer|, "
        "tolerance max(1e-5, 8 K FLT_EPSILON) for K terms per output; the "
        "elementwise chain is checked against a plain C++ loop (the triad "
        "computes something else)\n"
     << "- convolutions: NHWC, batch 1, stride 1, VALID on an input padded "
        "beforehand (no padding on either side)\n\n";
  os << "| case | shape | threads | PlaidML | peer | peer rate | "
        "PlaidML/peer | max rel err | PlaidML time | peer time | compile |\n"
     << "|---|---|--:|--:|---|--:|--:|--:|--:|--:|--:|\n";
  for (const Row &row : rows) {
    const Case &c = *row.c;
    os << "| " << c.name << " | " << c.shape << " | " << row.threads << " | ";
    if (!row.failure.empty() && !row.mismatch) {
      os << "FAILED | " << (row.peerName.empty() ? c.peerName : row.peerName)
         << " | | | | | | |\n";
      continue;
    }
    os << formatRate(c, row.plaidml) << " | " << row.peerName << " | "
       << formatRate(c, row.peer) << " | ";
    if (row.mismatch)
      os << "WRONG | **" << formatError(row.maxRelErr) << " > "
         << formatError(row.tolerance) << "** | ";
    else
      os << formatNumber(row.peer.seconds / row.plaidml.seconds) << " | "
         << formatError(row.maxRelErr) << " | ";
    os << formatTime(row.plaidml);
    if (row.sameCodeAs)
      os << ", same as " << describeThreads(row.sameCodeAs);
    os << " | " << formatTime(row.peer) << " | " << formatNumber(row.compileMs)
       << " ms |\n";
  }
  bool failed = false;
  for (const Row &row : rows) {
    if (row.failure.empty())
      continue;
    if (!failed)
      os << "\n## Failures\n\n";
    failed = true;
    // Compiler diagnostics span lines (the source line and a caret): keep
    // them verbatim in a code block under the item.
    size_t newline = row.failure.find('\n');
    os << "- " << row.c->name << ", " << describeThreads(row.threads) << ": "
       << row.failure.substr(0, newline) << "\n";
    if (newline != std::string::npos) {
      std::istringstream rest(row.failure.substr(newline + 1));
      os << "\n  ```\n";
      for (std::string line; std::getline(rest, line);)
        os << "  " << line << "\n";
      os << "  ```\n";
    }
  }
  return os.str();
}

/// Takes `--threads N,M` (or `--threads=N,M`) out of `args` into
/// `threads`. libLLVM registers a hidden global option named `threads` of
/// its own, so llvm::cl cannot have ours; it never sees it.
static rt::Status extractThreads(std::vector<char *> &args,
                                 std::vector<unsigned> &threads) {
  for (size_t i = 1; i < args.size();) {
    llvm::StringRef arg = args[i], value;
    if (arg == "--")
      break;
    if (arg == "--threads" || arg == "-threads") {
      if (i + 1 == args.size())
        return rt::Status::failure("--threads needs a value, e.g. 1,2");
      value = args[i + 1];
      args.erase(args.begin() + i, args.begin() + i + 2);
    } else if (arg.consume_front("--threads=") ||
               arg.consume_front("-threads=")) {
      value = arg;
      args.erase(args.begin() + i);
    } else {
      ++i;
      continue;
    }
    threads.clear();
    llvm::SmallVector<llvm::StringRef> items;
    value.split(items, ',');
    for (llvm::StringRef item : items) {
      unsigned n = 0;
      if (item.trim().getAsInteger(10, n) || n == 0)
        return rt::Status::failure("--threads '" + value.str() +
                                   "': expected thread counts of at least 1 "
                                   "separated by commas, e.g. 1,2");
      threads.push_back(n);
    }
  }
  return rt::Status::success();
}

int main(int argc, char **argv) {
  reexecWithPeerSettings(argv);
  llvm::InitLLVM init(argc, argv);
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "plaidml-bench-cpu: error: " << message << "\n";
    return 1;
  };
  std::vector<unsigned> threads = {1, 2};
  std::vector<char *> args(argv, argv + argc);
  if (rt::Status s = extractThreads(args, threads); !s.ok())
    return fail(s.message());
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "PlaidML's CPU code against OpenBLAS, oneDNN and a bandwidth triad\n\n"
      "  --threads=<n,m>   thread counts to measure, comma-separated "
      "(default 1,2)\n");
  if (!(minTime > 0))
    return fail("--min-time must be positive");
  // An empty pattern is not a valid POSIX regex; it means every case.
  llvm::Regex regex(filter.empty() ? std::string(".") : filter);
  std::string regexError;
  if (!regex.isValid(regexError))
    return fail("--filter '" + filter + "': " + regexError);

  std::vector<Case> cases;
  for (Case &c : getCases(quick))
    if (regex.match(c.name))
      cases.push_back(std::move(c));
  if (cases.empty())
    return fail("no case matches --filter '" + filter +
                "' (--list shows them)");
  if (!dumpPrograms.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpPrograms))
      return fail("cannot create '" + dumpPrograms + "': " + ec.message());
    for (const Case &c : cases) {
      std::string path = dumpPrograms + "/" + c.name + ".mlir";
      std::ofstream file(path);
      file << c.program;
      if (!file.flush())
        return fail("cannot write '" + path + "'");
    }
  }

  if (listCases) {
    for (const Case &c : cases)
      llvm::outs() << c.name << "  " << c.shape << "\n";
    return 0;
  }

  // What every row compiles for (the defaults: this machine's CPU), with
  // the features the generated code may use.
  mlir::plaidml::CompileOptions baseOptions;
  llvm::Expected<mlir::plaidml::CpuTarget> target =
      mlir::plaidml::resolveCpuTarget(baseOptions.triple, baseOptions.cpu,
                                      baseOptions.features);
  if (!target)
    return fail("PlaidML's CPU target: " + llvm::toString(target.takeError()));

  llvm::SmallString<128> workDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("plaidml-bench-cpu", workDir))
    return fail("cannot create a temporary directory: " + ec.message());

  mlir::DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::vector<Row> rows;
  size_t total = cases.size() * threads.size(), done = 0;
  for (const Case &c : cases) {
    // The same seeded inputs for both sides and every thread count.
    std::mt19937_64 rng(1);
    std::vector<rt::HostArray> inputs;
    for (const rt::TensorSpec &spec : c.inputs)
      inputs.push_back(run::randomArray(spec, rng));
    PlaidMLRun previous;
    for (unsigned n : threads) {
      Row row;
      row.c = &c;
      row.threads = n;
      llvm::errs() << "[" << ++done << "/" << total << "] " << c.name << ", "
                   << describeThreads(n) << ": ";
      llvm::errs().flush();
      runCase(row, inputs, context, workDir.str().str(), previous);
      if (!row.failure.empty())
        llvm::errs() << "FAILED: " << row.failure << "\n";
      else
        llvm::errs() << "PlaidML " << formatRate(c, row.plaidml) << ", "
                     << row.peerName << " " << formatRate(c, row.peer)
                     << ", max rel err " << formatError(row.maxRelErr) << "\n";
      rows.push_back(std::move(row));
    }
  }
  llvm::sys::fs::remove_directories(workDir);

  std::string report = makeReport(rows, baseOptions, *target);
  llvm::outs() << "\n" << report;
  llvm::outs().flush();
  if (!outputFile.empty()) {
    std::ofstream file(outputFile);
    file << report;
    if (!file.flush())
      return fail("cannot write '" + outputFile + "'");
    llvm::errs() << "plaidml-bench-cpu: wrote " << outputFile << "\n";
  }
  bool failed = std::any_of(rows.begin(), rows.end(), [](const Row &row) {
    return !row.failure.empty();
  });
  if (failed)
    llvm::errs() << "plaidml-bench-cpu: some cases failed (see the table)\n";
  return failed ? 1 : 0;
}
