//===- plaidml-import-onnx.cpp - Print an ONNX model as Tile IR -----------===//
//
// `plaidml-import-onnx MODEL.onnx [-o OUT.mlir] [--params-dir DIR]
// [--input NAME=FILE.npy]...`: imports the model (plaidml/Import/Onnx.h)
// and prints the Tile IR of its program for other MLIR tools. The weights
// are not in the text: they are the function's last arguments, and
// --params-dir writes them as DIR/argN.npy (N is the argument number), so
// `plaidml-run OUT.mlir --input argN=DIR/argN.npy ...` runs the program.
// A comment before the module lists the arguments and the results by their
// ONNX names. --input gives the value of an input an op reads at import
// time (a Reshape's shape). Errors are one line on stderr, exit status 1.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Import/Onnx.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

using namespace plaidml;

static int fail(const std::string &message) {
  std::fprintf(stderr, "plaidml-import-onnx: error: %s\n", message.c_str());
  return 1;
}

static const char *kUsage =
    R"(usage: plaidml-import-onnx MODEL.onnx [options]

Prints the Tile IR of an ONNX model. The weights (initializers of more than
--max-constant elements) are the last arguments of the function, not text.
  -o FILE                write the IR to FILE (default: stdout)
  --params-dir DIR       write the weights as DIR/argN.npy (N: the argument)
  --input NAME=FILE.npy  the value of an input that ops read at import time
  --max-constant N       larger initializers are arguments (default 64)
  --name NAME            the function's name (default main)
  --onnx-layout          every value in ONNX's order (NCHW); by default
                         convolutions, pools and the elementwise ops between
                         them compute channels-last (NHWC, HWIO weights)
)";

int main(int argc, char **argv) {
  std::string model, output, paramsDir;
  onnx::ImportOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc)
        return std::nullopt;
      return std::string(argv[++i]);
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--onnx-layout") {
      options.channelsLast = false;
    } else if (a == "-o" || a == "--params-dir" || a == "--input" ||
               a == "--max-constant" || a == "--name") {
      std::optional<std::string> v = value();
      if (!v || v->empty())
        return fail(a + " needs a value");
      if (a == "-o") {
        output = *v;
      } else if (a == "--params-dir") {
        paramsDir = *v;
      } else if (a == "--name") {
        options.name = *v;
      } else if (a == "--max-constant") {
        if (v->find_first_not_of("0123456789") != std::string::npos ||
            v->size() > 12)
          return fail("--max-constant needs a count, got '" + *v + "'");
        options.maxConstantElements = std::stoll(*v);
      } else {
        size_t eq = v->find('=');
        if (eq == std::string::npos || eq == 0)
          return fail("--input needs NAME=FILE.npy, got '" + *v + "'");
        std::string error;
        std::optional<rt::HostArray> array =
            rt::readNpy(v->substr(eq + 1), error);
        if (!array)
          return fail(error);
        options.knownInputs[v->substr(0, eq)] = std::move(*array);
      }
    } else if (a.rfind("-", 0) == 0) {
      return fail("unknown option '" + a + "' (see --help)");
    } else if (model.empty()) {
      model = a;
    } else {
      return fail("more than one model ('" + model + "' and '" + a + "')");
    }
  }
  if (model.empty())
    return fail("no model (see --help)");
  rt::StatusOr<std::unique_ptr<onnx::ImportedModel>> imported =
      onnx::importOnnxFile(model, options);
  if (!imported.ok())
    return fail(imported.message());
  const onnx::ImportedModel &m = **imported;

  std::string text = "// Imported from " + model + " (opset " +
                     std::to_string(m.opset) + ").\n";
  size_t arg = 0;
  for (const std::string &name : m.inputNames)
    text += "// arg" + std::to_string(arg++) + ": input '" + name + "'\n";
  size_t firstParam = arg;
  for (size_t i = 0; i < m.parameterNames.size(); ++i)
    text += "// arg" + std::to_string(arg++) + ": weight '" +
            m.parameterNames[i] + "' " + m.parameters[i].describe() + "\n";
  for (size_t i = 0; i < m.outputNames.size(); ++i)
    text += "// result" + std::to_string(i) + ": output '" + m.outputNames[i] +
            "'\n";
  text += m.program.str();

  if (!paramsDir.empty()) {
    if (mkdir(paramsDir.c_str(), 0777) != 0 && errno != EEXIST)
      return fail("cannot create '" + paramsDir + "': " + std::strerror(errno));
    for (size_t i = 0; i < m.parameters.size(); ++i) {
      std::string error;
      std::string path =
          paramsDir + "/arg" + std::to_string(firstParam + i) + ".npy";
      if (!rt::writeNpy(path, m.parameters[i], error))
        return fail(error);
    }
  }
  if (output.empty() || output == "-") {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  std::ofstream out(output);
  out << text;
  if (!out)
    return fail("cannot write '" + output + "'");
  return 0;
}
