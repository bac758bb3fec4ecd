//===- opencl_kernel_runner.cpp - Run generated OpenCL C kernels ----------===//
//
// opencl-kernel-runner: a test-only driver for the OpenCL pipeline's kernels
// (docs/OpenCLPipeline.md) until the runtime loads OpenCL artifacts. It
// builds OpenCL C files on opencl:N through the runtime's device layer,
// launches their kernels in order on named buffers, and prints or saves the
// buffers afterwards:
//
//   opencl-kernel-runner [--device N]
//     --buffer NAME=2x3xf32          a zero-filled buffer
//     --input NAME=PATH.npy          a buffer holding a .npy file
//     --launch FILE.cl:KERNEL:GX,GY,GZ:BX,BY,BZ:NAME,NAME,...
//                                    GX*GY*GZ workgroups of BX*BY*BZ
//     --print NAME                   "NAME: 2x3xf32" and the values, as
//                                    plaidml-run --print shows them
//     --output NAME=PATH.npy
//
// Launches run in command-line order; prints and outputs follow them.
// Inputs/opencl-launches.py makes these arguments from the host function
// of a pipeline's output. Exit code 0, or 1 with a one-line reason.
//
//===----------------------------------------------------------------------===//

#include "opencl/OpenCLDevice.h"
#include "plaidml/Runtime/HostArray.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace plaidml::rt;

namespace {

int fail(const std::string &message) {
  std::fprintf(stderr, "opencl-kernel-runner: %s\n", message.c_str());
  return 1;
}

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream is(text);
  while (std::getline(is, part, sep))
    parts.push_back(part);
  if (!text.empty() && text.back() == sep)
    parts.emplace_back();
  return parts;
}

bool parseSizes(const std::string &text, std::array<size_t, 3> &sizes) {
  std::vector<std::string> parts = split(text, ',');
  if (parts.size() != 3)
    return false;
  for (int i = 0; i < 3; ++i) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(parts[i].c_str(), &end, 10);
    if (parts[i].empty() || *end)
      return false;
    sizes[i] = v;
  }
  return true;
}

struct Launch {
  std::string file, kernel;
  std::array<size_t, 3> grid, block;
  std::vector<std::string> args;
};

struct Buffer {
  HostArray host;
  std::unique_ptr<OpenCLBuffer> device;
};

} // namespace

int main(int argc, char **argv) {
  unsigned deviceIndex = 0;
  std::map<std::string, Buffer> buffers;
  std::vector<std::string> order;
  std::vector<Launch> launches;
  std::vector<std::string> prints;
  std::vector<std::pair<std::string, std::string>> outputs;

  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc)
      return fail("'" + arg + "' needs a value");
    std::string value = argv[++i];
    auto [name, rest] = [&] {
      size_t eq = value.find('=');
      return eq == std::string::npos
                 ? std::make_pair(value, std::string())
                 : std::make_pair(value.substr(0, eq), value.substr(eq + 1));
    }();
    if (arg == "--device") {
      deviceIndex = std::atoi(value.c_str());
    } else if (arg == "--buffer" || arg == "--input") {
      if (name.empty() || rest.empty())
        return fail(arg + " " + value + ": expected NAME=" +
                    (arg == "--buffer" ? "2x3xf32" : "PATH.npy"));
      std::string error;
      std::optional<HostArray> array = arg == "--buffer"
                                           ? parseArraySpec(rest, error)
                                           : readNpy(rest, error);
      if (!array)
        return fail(arg + " " + value + ": " + error);
      if (!buffers.count(name))
        order.push_back(name);
      buffers[name].host = std::move(*array);
    } else if (arg == "--launch") {
      std::vector<std::string> parts = split(value, ':');
      Launch launch;
      if (parts.size() != 5 || !parseSizes(parts[2], launch.grid) ||
          !parseSizes(parts[3], launch.block))
        return fail("--launch " + value +
                    ": expected FILE.cl:KERNEL:GX,GY,GZ:BX,BY,BZ:ARGS");
      launch.file = parts[0];
      launch.kernel = parts[1];
      launch.args = split(parts[4], ',');
      launches.push_back(std::move(launch));
    } else if (arg == "--print") {
      prints.push_back(value);
    } else if (arg == "--output") {
      if (name.empty() || rest.empty())
        return fail("--output " + value + ": expected NAME=PATH.npy");
      outputs.emplace_back(name, rest);
    } else {
      return fail("unknown option '" + arg + "'");
    }
  }

  StatusOr<std::shared_ptr<OpenCLDevice>> device =
      OpenCLDevice::get(deviceIndex);
  if (!device.ok())
    return fail(device.message());
  OpenCLDevice &dev = **device;

  for (const std::string &name : order) {
    Buffer &buffer = buffers[name];
    StatusOr<std::unique_ptr<OpenCLBuffer>> created =
        dev.createBuffer(buffer.host.bytes.size());
    if (!created.ok())
      return fail(created.message());
    buffer.device = std::move(*created);
    Status status = dev.upload(*buffer.device, buffer.host.bytes.data(),
                               buffer.host.bytes.size());
    if (!status.ok())
      return fail(status.message());
  }

  for (const Launch &launch : launches) {
    std::ifstream in(launch.file, std::ios::binary);
    if (!in)
      return fail("cannot read '" + launch.file + "'");
    std::stringstream source;
    source << in.rdbuf();
    StatusOr<std::shared_ptr<OpenCLProgram>> program =
        dev.createProgramFromSource(source.str(), "-cl-std=CL1.2");
    if (!program.ok())
      return fail(program.message());
    StatusOr<std::unique_ptr<OpenCLKernel>> kernel =
        dev.createKernel(*program, launch.kernel);
    if (!kernel.ok())
      return fail(kernel.message());
    std::vector<OpenCLBuffer *> args;
    for (const std::string &name : launch.args) {
      auto it = buffers.find(name);
      if (it == buffers.end())
        return fail("--launch " + launch.kernel + ": no buffer '" + name + "'");
      args.push_back(it->second.device.get());
    }
    Status status = dev.launch(**kernel, args, launch.grid, launch.block);
    if (!status.ok())
      return fail(status.message());
  }

  auto download = [&](const std::string &name) -> HostArray * {
    auto it = buffers.find(name);
    if (it == buffers.end())
      return nullptr;
    HostArray &host = it->second.host;
    Status status =
        dev.download(*it->second.device, host.bytes.data(), host.bytes.size());
    if (!status.ok()) {
      fail(status.message());
      std::exit(1);
    }
    return &host;
  };
  for (const std::string &name : prints) {
    HostArray *array = download(name);
    if (!array)
      return fail("--print: no buffer '" + name + "'");
    std::printf("%s: %s\n", name.c_str(), array->describe().c_str());
    std::printf("%s\n", formatArray(*array).c_str());
  }
  for (const auto &[name, path] : outputs) {
    HostArray *array = download(name);
    if (!array)
      return fail("--output: no buffer '" + name + "'");
    std::string error;
    if (!writeNpy(path, *array, error))
      return fail("--output " + name + ": " + error);
  }
  return 0;
}
