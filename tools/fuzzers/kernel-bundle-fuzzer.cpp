//===- kernel-bundle-fuzzer.cpp - libFuzzer target of the bundle reader ---===//
//
// Feeds arbitrary bytes to decodeKernelModule (lib/Runtime/KernelBundle.cpp),
// which reads the kernel modules an OpenCL artifact hands to mgpuModuleLoad:
// kernel bundles (docs/ABI.md section 6), bare SPIR-V or OpenCL C. An error
// is the expected answer to bad bytes; a crash, a sanitizer report, or a
// decoded module that breaks the reader's promises is a bug. A decoded
// module is encoded again and must decode to the same formats, and the
// per-device format choice must answer every preference and device.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/KernelBundle.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace plaidml::rt;

namespace {
void check(bool condition) {
  if (!condition)
    __builtin_trap();
}

void checkModule(const KernelBundle &module) {
  check(module.spirv || module.openclC);
  if (module.spirv) {
    check(module.spirv->size() % 4 == 0 && module.spirv->size() >= 20);
    uint32_t magic;
    std::memcpy(&magic, module.spirv->data(), 4);
    check(magic == kSpirvMagic);
  }
  if (module.openclC) {
    check(!module.openclC->empty());
    check(module.openclC->find('\0') == std::string::npos);
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Copy into a buffer of exactly `size` bytes (none for an empty input) so
  // AddressSanitizer sees any read past the end.
  std::vector<uint8_t> bytes(data, data + size);
  StatusOr<KernelBundle> decoded =
      decodeKernelModule(bytes.empty() ? nullptr : bytes.data(), bytes.size());
  if (!decoded.ok()) {
    check(!decoded.status().message().empty());
    return 0;
  }
  const KernelBundle &module = *decoded;
  checkModule(module);
  check(module.isBundle == isKernelBundle(bytes.data(), bytes.size()));

  // A name with a NUL or a note is carried through; formats must survive
  // the round trip exactly.
  std::string encoded = encodeKernelBundle(module);
  StatusOr<KernelBundle> again =
      decodeKernelModule(encoded.data(), encoded.size());
  check(again.ok());
  check(again->isBundle);
  check(again->spirv == module.spirv);
  check(again->openclC == module.openclC);
  check(again->name == module.name);
  check(again->note == module.note);

  for (const char *value : {"auto", "spirv", "opencl-c"}) {
    StatusOr<KernelFormatPreference> preference =
        KernelFormatPreference::parse(value, kOpenCLKernelFormatVariable);
    check(preference.ok());
    for (bool takesSpirv : {false, true}) {
      StatusOr<KernelFormatChoice> choice = chooseOpenCLKernelFormat(
          module, "opencl:0 (fuzz)", takesSpirv, *preference);
      if (!choice.ok()) {
        check(!choice.status().message().empty());
        continue;
      }
      check(module.has(choice->format));
      check(choice->format == KernelFormat::OpenCLC || takesSpirv);
    }
  }
  return 0;
}
