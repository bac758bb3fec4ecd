//===- OpenCLPipeline.h - OpenCL programs and kernels -----------*- C++ -*-===//
//
// The pipeline part of the OpenCL device layer: programs built from OpenCL C
// or SPIR-V (cached by the device) and their kernels. Private to
// lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_OPENCL_OPENCLPIPELINE_H
#define PLAIDML_LIB_RUNTIME_OPENCL_OPENCLPIPELINE_H

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::rt {

class OpenCLDevice;

/// A built cl_program. Programs are cached by the device and shared: asking
/// for the same source (or IL) with the same options again returns the same
/// program without building it again.
class OpenCLProgram {
public:
  ~OpenCLProgram();
  OpenCLProgram(const OpenCLProgram &) = delete;
  OpenCLProgram &operator=(const OpenCLProgram &) = delete;

  /// The kernels of the program (CL_PROGRAM_KERNEL_NAMES), in the order the
  /// driver lists them.
  const std::vector<std::string> &kernelNames() const { return names; }
  /// The build log (warnings of a successful build; often empty).
  const std::string &buildLog() const { return log; }

  struct Impl;

private:
  friend class OpenCLDevice;
  OpenCLProgram(std::unique_ptr<Impl> impl, std::vector<std::string> names,
                std::string log);
  std::unique_ptr<Impl> impl;
  std::vector<std::string> names;
  std::string log;
};

/// A kernel of an OpenCLProgram (which it keeps alive). Its arguments are
/// numBuffers() global buffers (argument i = buffer i) followed by scalars
/// passed by value; numArgs() counts both.
class OpenCLKernel {
public:
  ~OpenCLKernel();
  OpenCLKernel(const OpenCLKernel &) = delete;
  OpenCLKernel &operator=(const OpenCLKernel &) = delete;

  const std::string &name() const { return kernelName; }
  /// CL_KERNEL_NUM_ARGS.
  unsigned numArgs() const { return args; }
  /// CL_KERNEL_WORK_GROUP_SIZE on the device: the largest workgroup it can
  /// run with.
  size_t maxWorkgroupSize() const { return maxGroup; }
  /// CL_KERNEL_COMPILE_WORK_GROUP_SIZE: the reqd_work_group_size attribute,
  /// or {0, 0, 0} when the kernel has none.
  const std::array<size_t, 3> &requiredWorkgroupSize() const {
    return required;
  }

  struct Impl;

private:
  friend class OpenCLDevice;
  OpenCLKernel(std::unique_ptr<Impl> impl, std::string name, unsigned args,
               size_t maxGroup, std::array<size_t, 3> required);
  std::unique_ptr<Impl> impl;
  std::string kernelName;
  unsigned args;
  size_t maxGroup;
  std::array<size_t, 3> required;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_OPENCL_OPENCLPIPELINE_H
