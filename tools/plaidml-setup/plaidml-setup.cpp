//===- plaidml-setup.cpp - Choose and check the default device -----------===//
//
// Lists the devices of this machine, lets the person choose one (or takes
// --device), proves that it works by compiling and running a small dense
// layer (relu(A x B + Bias), seeded inputs) on it and comparing the result
// with the reference interpreter's, and saves the choice as `device = ...` in
// the config file that every PlaidML tool reads (docs/Design.md sections 5 and
// 6; docs/Setup.md). The program is opened exactly as plaidml-run opens a .tile
// file (the PlaidMLRunner library). Every failure is one line on stderr and
// a non-zero exit code, and nothing is saved.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Args.h"
#include "plaidml/Runner/Runner.h"

#include "plaidml/Runtime/Device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace plaidml;
using namespace plaidml::run;

namespace {
constexpr const char *kUsage = R"(usage: plaidml-setup [options]

Chooses the default device of the PlaidML tools: lists the devices of this
machine, asks for one, compiles and runs a small program on it and compares
the result with the reference interpreter, then offers to save the choice.
  --device D      choose D (cpu, vulkan:N, opencl:N) without asking
  --yes, -y       ask nothing: check the device (--device, else the saved
                  default, else cpu) and save it when the check passes
  --no-save       check the device, save nothing
  --list          list the devices and the current choice, and exit
  --config PATH   the config file to read and write (default:
                  $XDG_CONFIG_HOME/plaidml/config, else
                  ~/.config/plaidml/config)
PLAIDML_DEVICE, when set, overrides the saved choice.
)";

/// The check program: a dense layer, 16x32 x 32x8, plus a bias, then ReLU.
constexpr const char *kCheckName = "plaidml-setup-check.tile";
constexpr const char *kCheckProgram = R"(# plaidml-setup's check program
function dense(A[M, K], B[K, N], Bias[N]) -> (R) {
  C[m, n : M, N] = +(A[m, k] * B[k, n]);
  R = relu(C + Bias);
}
)";
constexpr const char *kCheckWhat = "16x32x8 matmul + bias + relu";
constexpr uint64_t kCheckSeed = 1;
/// How many unusable answers a question takes before giving up.
constexpr int kMaxAnswers = 3;

int fail(const std::string &message) {
  std::fprintf(stderr, "plaidml-setup: error: %s\n", message.c_str());
  return 1;
}

struct Options {
  std::string device, config;
  bool yes = false, noSave = false, list = false;
  /// --inject-fault=open|run|mismatch: the tests' way to exercise the
  /// failure paths of the check on a working device (not in --help).
  std::string fault;
};

/// Parses argv into `opts`; returns an error message on bad usage.
std::optional<std::string> parseArgs(int argc, char **argv, Options &opts) {
  ArgWalker args(argc, argv);
  while (args.next()) {
    const std::string arg = args.name();
    bool hasValue = args.hasInlineValue();
    auto next = [&] { return args.value(); };
    bool isFlag = arg == "--yes" || arg == "-y" || arg == "--no-save" ||
                  arg == "--list" || arg == "--help" || arg == "-h";
    if (isFlag && hasValue)
      return arg + " takes no value";
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--device" || arg == "--config" ||
               arg == "--inject-fault") {
      std::optional<std::string> v = next();
      if (!v || v->empty())
        return arg + " needs a value";
      (arg == "--device"   ? opts.device
       : arg == "--config" ? opts.config
                           : opts.fault) = *v;
    } else if (arg == "--yes" || arg == "-y") {
      opts.yes = true;
    } else if (arg == "--no-save") {
      opts.noSave = true;
    } else if (arg == "--list") {
      opts.list = true;
    } else {
      return "unknown argument '" + arg + "' (see --help)";
    }
  }
  if (!opts.fault.empty() && opts.fault != "open" && opts.fault != "run" &&
      opts.fault != "mismatch")
    return "--inject-fault takes open, run or mismatch";
  if (opts.list && (!opts.device.empty() || opts.yes || opts.noSave))
    return "--list takes no --device, --yes or --no-save";
  return std::nullopt;
}

/// What the machine has and what is chosen now.
struct State {
  std::vector<rt::DeviceInfo> devices;
  std::vector<std::string> notes;
  /// The config file, or why there is none.
  std::string configPath, configError;
  /// The `device` of the config file, or why it cannot be read.
  std::optional<rt::DeviceName> saved;
  std::string savedError;
  /// PLAIDML_DEVICE, when set and non-empty.
  std::optional<std::string> env;

  /// The device the prompt offers: the saved one, else the CPU.
  std::string getDefault() const { return saved ? saved->str() : "cpu"; }
  bool hasDevice(const rt::DeviceName &name) const {
    for (const rt::DeviceInfo &d : devices)
      if (d.name == name)
        return true;
    return false;
  }
};

State inspect(const Options &opts) {
  State state;
  state.devices = rt::listDevices(&state.notes);
  if (!opts.config.empty()) {
    state.configPath = opts.config;
  } else if (rt::StatusOr<std::string> path = rt::getConfigFilePath();
             path.ok()) {
    state.configPath = *path;
  } else {
    state.configError = path.message();
  }
  if (!state.configPath.empty()) {
    rt::StatusOr<std::optional<rt::DeviceName>> saved =
        rt::readConfigDevice(state.configPath);
    if (saved.ok())
      state.saved = *saved;
    else
      state.savedError = saved.message();
  }
  if (const char *env = std::getenv("PLAIDML_DEVICE"); env && env[0])
    state.env = env;
  return state;
}

std::string getEnvNote(const State &state) {
  return "PLAIDML_DEVICE=" + *state.env +
         " is set: it overrides the saved choice wherever it is set (unset "
         "it to use the saved one)";
}

/// Prints the numbered devices, the notes, and the current choice.
void printState(const State &state) {
  std::printf("Devices on this machine:\n");
  for (size_t i = 0; i < state.devices.size(); ++i)
    std::printf("  %zu  %-10s %s\n", i + 1, state.devices[i].name.str().c_str(),
                state.devices[i].description.c_str());
  for (const std::string &note : state.notes)
    std::printf("note: %s\n", note.c_str());
  if (!state.configError.empty())
    std::printf("Saved choice: none (%s)\n", state.configError.c_str());
  else if (!state.savedError.empty())
    std::printf("Saved choice: unreadable (%s)\n", state.savedError.c_str());
  else if (state.saved)
    std::printf("Saved choice: %s (in %s)%s\n", state.saved->str().c_str(),
                state.configPath.c_str(),
                state.hasDevice(*state.saved) ? ""
                                              : " - not a device of this "
                                                "machine");
  else
    std::printf("Saved choice: none yet (%s does not set one; the tools use "
                "cpu)\n",
                state.configPath.c_str());
  if (state.env)
    std::printf("%s.\n", getEnvNote(state).c_str());
}

/// Resolves an answer (a number of the list, or a device name) to a device
/// of this machine, or says why it is not one.
rt::StatusOr<rt::DeviceName> resolveDevice(const State &state,
                                           const std::string &answer) {
  if (!answer.empty() &&
      answer.find_first_not_of("0123456789") == std::string::npos) {
    size_t n = answer.size() > 6 ? 0 : std::stoul(answer);
    if (n < 1 || n > state.devices.size())
      return rt::Status::failure(
          "there is no device " + answer + " (answer 1 to " +
          std::to_string(state.devices.size()) + ", or a device name)");
    return state.devices[n - 1].name;
  }
  if (answer == "reference")
    return rt::Status::failure(
        "'reference' is the reference interpreter, the oracle that the check "
        "compares with: it is slow and needs the compiler (runtime-only "
        "builds lack it), so it cannot be the default device; pass --device "
        "reference to plaidml-run to use it");
  rt::StatusOr<rt::DeviceName> name = rt::parseDeviceName(answer);
  if (!name.ok())
    return name;
  if (!state.hasDevice(*name)) {
    std::string names;
    for (const rt::DeviceInfo &d : state.devices)
      names += (names.empty() ? "" : ", ") + d.name.str();
    for (const std::string &note : state.notes)
      names += "; " + note;
    return rt::Status::failure(
        name->str() + " is not a device of this machine (devices: " + names +
        ")");
  }
  return name;
}

/// Reads one line of stdin; nullopt at end of input. When stdin is not a
/// terminal the answer is echoed, so a transcript reads like a session.
std::optional<std::string> readAnswer() {
  std::string line;
  int c;
  while ((c = std::getchar()) != EOF && c != '\n')
    line += static_cast<char>(c);
  if (c == EOF && line.empty())
    return std::nullopt;
  size_t begin = line.find_first_not_of(" \t\r");
  size_t end = line.find_last_not_of(" \t\r");
  line = begin == std::string::npos ? "" : line.substr(begin, end - begin + 1);
  if (!isatty(STDIN_FILENO))
    std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  return line;
}

void prompt(const std::string &question) {
  std::printf("%s ", question.c_str());
  std::fflush(stdout);
}

constexpr const char *kCancelled = "cancelled (end of input); nothing saved";

/// The element of `index` in a row-major array of `shape`, as "[i, j]".
std::string formatIndex(const std::vector<int64_t> &shape, int64_t index) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = index % shape[d];
    index /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

/// Opens the check program for `device` (the reference interpreter for
/// "reference"), as plaidml-run opens a .tile file.
rt::StatusOr<std::unique_ptr<Runner>> openCheck(const std::string &device,
                                                const std::string &fault,
                                                double &compileMs) {
  InputBindings bindings;
  bindings.types = {{"A", "16x32xf32"}, {"B", "32x8xf32"}, {"Bias", "8xf32"}};
  std::string program = kCheckProgram;
  if (fault == "open")
    program += "R = oops;\n";
  return openSourceText(program, kCheckName, "dense", device, bindings,
                        CompileSettings(), compileMs);
}

/// Prepares and runs `runner` on `inputs`; its outputs.
rt::StatusOr<std::vector<rt::HostArray>>
runOnce(Runner &runner, const std::vector<rt::HostArray> &inputs) {
  if (rt::Status s = runner.prepare(inputs); !s.ok())
    return s;
  if (rt::Status s = runner.execute(); !s.ok())
    return s;
  return runner.getResults();
}

/// Compiles and runs the check program on `device` and in the reference
/// interpreter on the same seeded inputs, compares, and prints the outcome;
/// a failure says why.
rt::Status checkDevice(const std::string &device, const std::string &fault) {
  std::printf("Checking %s: compiling and running a %s (seeded inputs) ...\n",
              device.c_str(), kCheckWhat);
  std::fflush(stdout);
  double compileMs = 0;
  rt::StatusOr<std::unique_ptr<Runner>> reference =
      openCheck("reference", "", compileMs);
  if (!reference.ok())
    return reference.status().withContext("the reference interpreter failed");
  // plaidml-run --random-inputs=<seed> on the program's inputs.
  std::vector<rt::HostArray> inputs;
  std::mt19937_64 rng(kCheckSeed);
  for (const rt::TensorSpec &spec : (*reference)->getInputs())
    inputs.push_back(randomArray(spec, rng));
  rt::StatusOr<std::vector<rt::HostArray>> expected =
      runOnce(**reference, inputs);
  if (!expected.ok())
    return expected.status().withContext("the reference interpreter failed");

  rt::StatusOr<std::unique_ptr<Runner>> runner =
      openCheck(device, fault, compileMs);
  if (!runner.ok())
    return runner.status();
  if (compileMs > 0)
    std::printf("%s: compiled in %.0f ms\n", device.c_str(), compileMs);
  else
    std::printf("%s: compiled program found in the compile cache\n",
                device.c_str());
  if (fault == "run") // An input of the wrong shape.
    inputs.back().shape = {2, 4};
  rt::StatusOr<std::vector<rt::HostArray>> actual = runOnce(**runner, inputs);
  if (!actual.ok())
    return actual.status();
  if (fault == "mismatch" && !actual->empty() &&
      actual->front().getNumElements() > 0)
    rt::setElementFromDouble(actual->front(), 0,
                             rt::getElementAsDouble(actual->front(), 0) + 1.0);

  if (actual->size() != expected->size())
    return rt::Status::failure("it returned " + std::to_string(actual->size()) +
                               " outputs, not " +
                               std::to_string(expected->size()));
  double maxError = 0;
  for (size_t r = 0; r < actual->size(); ++r) {
    const rt::HostArray &a = (*actual)[r], &b = (*expected)[r];
    const std::string &name = (*runner)->getOutputs()[r].name;
    if (a.describe() != b.describe())
      return rt::Status::failure("it returned " + name + " as " + a.describe() +
                                 ", not " + b.describe());
    for (int64_t i = 0, e = a.getNumElements(); i < e; ++i) {
      double x = rt::getElementAsDouble(a, i);
      double y = rt::getElementAsDouble(b, i);
      double err = std::fabs(x - y);
      if (!(err <= 1e-4 * (1 + std::fabs(y)))) {
        char buf[256];
        std::snprintf(buf, sizeof(buf),
                      "wrong result: %s%s is %.9g, the reference interpreter "
                      "says %.9g (allowed error 1e-4 * (1 + |%.9g|))",
                      name.c_str(), formatIndex(a.shape, i).c_str(), x, y, y);
        return rt::Status::failure(buf);
      }
      maxError = std::max(maxError, err);
    }
  }
  std::printf("%s: %s matches the reference interpreter (max error %.2g)\n",
              device.c_str(), kCheckWhat, maxError);
  return rt::Status::success();
}

/// Asks for a device until a usable answer; nullopt with `error` set when
/// the input ends or too many answers are unusable.
std::optional<rt::DeviceName> askDevice(const State &state,
                                        std::string &error) {
  std::string byDefault = state.getDefault();
  for (int tries = 0; tries < kMaxAnswers; ++tries) {
    prompt("Device [default: " + byDefault + "]:");
    std::optional<std::string> answer = readAnswer();
    if (!answer) {
      std::printf("\n");
      error = kCancelled;
      return std::nullopt;
    }
    rt::StatusOr<rt::DeviceName> device =
        resolveDevice(state, answer->empty() ? byDefault : *answer);
    if (device.ok())
      return *device;
    std::fprintf(stderr, "plaidml-setup: %s\n", device.message().c_str());
  }
  error = std::to_string(kMaxAnswers) +
          " answers name no usable device; nothing saved";
  return std::nullopt;
}

/// Asks whether to save; nullopt with `error` set as askDevice.
std::optional<bool> askSave(const std::string &question, std::string &error) {
  for (int tries = 0; tries < kMaxAnswers; ++tries) {
    prompt(question);
    std::optional<std::string> answer = readAnswer();
    if (!answer) {
      std::printf("\n");
      error = kCancelled;
      return std::nullopt;
    }
    if (answer->empty() || *answer == "y" || *answer == "Y" || *answer == "yes")
      return true;
    if (*answer == "n" || *answer == "N" || *answer == "no")
      return false;
    std::fprintf(stderr, "plaidml-setup: answer y or n\n");
  }
  error = std::to_string(kMaxAnswers) + " answers neither y nor n; nothing " +
          "saved";
  return std::nullopt;
}
} // namespace

int main(int argc, char **argv) {
  // Line by line, so that stdout and the messages on stderr interleave in
  // order in a transcript.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options opts;
  if (std::optional<std::string> err = parseArgs(argc, argv, opts))
    return fail(*err);
  State state = inspect(opts);
  if (opts.list) {
    printState(state);
    return 0;
  }
  // Saving needs a readable config file: writing keeps its other lines.
  if (!opts.noSave) {
    if (!state.configError.empty())
      return fail(state.configError + " (pass --config PATH)");
    if (!state.savedError.empty())
      return fail(state.savedError + " (fix or remove " + state.configPath +
                  ", then run plaidml-setup again)");
  }

  // Choose.
  rt::DeviceName device;
  if (!opts.device.empty() || opts.yes) {
    std::string name = opts.device.empty() ? state.getDefault() : opts.device;
    rt::StatusOr<rt::DeviceName> resolved = resolveDevice(state, name);
    if (!resolved.ok())
      return fail(resolved.message());
    device = *resolved;
    if (state.env)
      std::printf("note: %s.\n", getEnvNote(state).c_str());
  } else {
    printState(state);
    std::string error;
    std::optional<rt::DeviceName> chosen = askDevice(state, error);
    if (!chosen)
      return fail(error);
    device = *chosen;
  }

  // Prove it works.
  std::string name = device.str();
  if (rt::Status s = checkDevice(name, opts.fault); !s.ok())
    return fail(name + " failed the check: " + s.message() + "; nothing saved");

  // Save.
  if (opts.noSave) {
    std::printf("Not saved (--no-save).\n");
    return 0;
  }
  if (!opts.yes) {
    std::string error;
    std::optional<bool> save =
        askSave("Save " + name + " as the default device in " +
                    state.configPath + "? [Y/n]",
                error);
    if (!save)
      return fail(error);
    if (!*save) {
      std::printf("Not saved.\n");
      return 0;
    }
  }
  if (rt::Status s = rt::writeConfigDevice(state.configPath, device); !s.ok())
    return fail(s.message());
  std::printf("Saved: %s is the default device (device = %s in %s).\n",
              name.c_str(), name.c_str(), state.configPath.c_str());
  if (state.env && *state.env != name)
    std::printf("note: PLAIDML_DEVICE=%s still overrides it where it is "
                "set.\n",
                state.env->c_str());
  return 0;
}
