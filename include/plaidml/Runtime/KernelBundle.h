//===- KernelBundle.h - Kernel modules in several formats -------*- C++ -*-===//
//
// The kernel bundle: one kernel module of an OpenCL artifact in several
// formats (SPIR-V and OpenCL C of the same kernels), as `mgpuModuleLoad`
// receives it (docs/ABI.md section 6). The compiler writes bundles
// (encodeKernelBundle, from plaidml-gpu-module-to-opencl-bundle); the
// runtime reads them, and the single-format modules of older artifacts, with
// decodeKernelModule and picks the format for each device with
// chooseOpenCLKernelFormat. Plain C++17, no MLIR: shared by both sides.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_KERNELBUNDLE_H
#define PLAIDML_RUNTIME_KERNELBUNDLE_H

#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plaidml::rt {

/// The first four bytes of a bundle: 0x7F "PKB" (neither printable OpenCL C
/// nor the SPIR-V magic number in either byte order).
constexpr char kKernelBundleMagic[4] = {'\x7f', 'P', 'K', 'B'};
/// The bundle format version this runtime reads and the compiler writes.
constexpr uint32_t kKernelBundleVersion = 1;
/// The SPIR-V magic number (first word of every SPIR-V module).
constexpr uint32_t kSpirvMagic = 0x07230203;

/// What a bundle entry holds (the `kind` field of docs/ABI.md section 6).
enum class KernelBundleEntryKind : uint32_t {
  /// A SPIR-V module for the OpenCL environment (Kernel capability).
  SPIRV = 1,
  /// OpenCL C 1.2 source text, without a terminating NUL.
  OpenCLC = 2,
  /// The name of the kernel module (the gpu.module), for messages.
  Name = 3,
  /// Why a format is missing (e.g. "no SPIR-V: ..."), for messages.
  Note = 4,
};

/// The two formats a kernel can be built from on OpenCL.
enum class KernelFormat { SPIRV, OpenCLC };

/// "SPIR-V" or "OpenCL C".
const char *getKernelFormatName(KernelFormat format);

/// One kernel module: the formats it carries and what says why one is
/// missing.
struct KernelBundle {
  /// SPIR-V module bytes (a multiple of 4, starting with kSpirvMagic).
  std::optional<std::string> spirv;
  /// OpenCL C text (no NUL).
  std::optional<std::string> openclC;
  /// The kernel module's name; empty when the module does not say.
  std::string name;
  /// Why a format is missing; empty when none is, or nobody said.
  std::string note;
  /// Whether it was read from a bundle (rather than a single-format module).
  bool isBundle = false;

  bool has(KernelFormat format) const {
    return format == KernelFormat::SPIRV ? spirv.has_value()
                                         : openclC.has_value();
  }
  /// "'matmul_kernel'", or "" when unnamed.
  std::string describeName() const;
};

/// The bytes of a bundle holding `bundle`'s formats, name and note (entries
/// in that order, each present one once). The compiler's side.
std::string encodeKernelBundle(const KernelBundle &bundle);

/// Whether `data` starts with kKernelBundleMagic.
bool isKernelBundle(const void *data, size_t size);

/// Reads what `mgpuModuleLoad` received for an OpenCL device: a bundle; a
/// single SPIR-V module (the SPIR-V magic number); or else OpenCL C text,
/// which ends at the first NUL. A bundle is checked completely (header,
/// every entry inside the bytes, SPIR-V entries well-formed, at most one
/// entry of each kind, at least one format); each failure is a message
/// saying what is wrong and where, never a crash. Entries of unknown kinds
/// are skipped.
StatusOr<KernelBundle> decodeKernelModule(const void *data, size_t size);

/// The environment variable that forces the kernel format of OpenCL
/// programs: "spirv", "opencl-c", or "auto" (the default: per device).
constexpr const char *kOpenCLKernelFormatVariable =
    "PLAIDML_OPENCL_KERNEL_FORMAT";

/// The kernel format a run asks for: chosen per device (auto), or forced.
struct KernelFormatPreference {
  enum Kind { Auto, SPIRV, OpenCLC } kind = Auto;
  /// Where it was set, e.g. "PLAIDML_OPENCL_KERNEL_FORMAT=spirv"; empty for
  /// the default.
  std::string origin;

  /// "" or "auto", "spirv", "opencl-c"; `name` (e.g.
  /// "PLAIDML_OPENCL_KERNEL_FORMAT") names the setting in messages.
  static StatusOr<KernelFormatPreference> parse(std::string_view value,
                                                std::string_view name);
};

/// What a device builds a kernel module from, and why.
struct KernelFormatChoice {
  KernelFormat format;
  /// e.g. "the device takes SPIR-V; the module has OpenCL C too".
  std::string reason;
};

/// The format to build `module` from on the device `device` (its label,
/// e.g. "opencl:0 (pthread-...)"), which ingests SPIR-V when
/// `deviceTakesSpirv` (OpenCLDeviceInfo::takesSpirv): SPIR-V when the device
/// takes it and the module has it, else OpenCL C; a forced format when the
/// module has it and the device can build it. Fails with a message naming
/// the module, the device and what is missing. A pure function: no device
/// is touched.
StatusOr<KernelFormatChoice>
chooseOpenCLKernelFormat(const KernelBundle &module, const std::string &device,
                         bool deviceTakesSpirv,
                         const KernelFormatPreference &preference);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_KERNELBUNDLE_H
