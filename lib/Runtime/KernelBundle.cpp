//===- KernelBundle.cpp - Kernel modules in several formats ---------------===//
//
// The kernel bundle codec and the choice of a format per OpenCL device
// (KernelBundle.h). The layout, little-endian 32-bit fields (docs/ABI.md
// section 6):
//
//   magic "\x7fPKB" | version | count | count x {kind, offset, size} | data
//
// with each entry's bytes at its offset, a multiple of 4 past the table.
// The reader trusts nothing: every field is checked against the bytes it
// was given before it is used.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/KernelBundle.h"

#include <cstring>
#include <vector>

using namespace plaidml::rt;

namespace {
constexpr size_t kHeaderBytes = 12, kEntryBytes = 12;

void putWord(std::string &out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint32_t getWord(const unsigned char *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
         uint32_t(p[3]) << 24;
}

const char *describeKind(uint32_t kind) {
  switch (static_cast<KernelBundleEntryKind>(kind)) {
  case KernelBundleEntryKind::SPIRV:
    return "SPIR-V";
  case KernelBundleEntryKind::OpenCLC:
    return "OpenCL C";
  case KernelBundleEntryKind::Name:
    return "name";
  case KernelBundleEntryKind::Note:
    return "note";
  }
  return "unknown kind";
}

/// Why `bytes` is not a SPIR-V module, or "" when it looks like one.
std::string checkSpirv(std::string_view bytes) {
  if (bytes.size() % 4 != 0)
    return std::to_string(bytes.size()) + " bytes, not a multiple of 4";
  if (bytes.size() < 20)
    return std::to_string(bytes.size()) +
           " bytes, less than a SPIR-V header (20)";
  uint32_t magic;
  std::memcpy(&magic, bytes.data(), 4);
  if (magic != kSpirvMagic)
    return "no SPIR-V magic number";
  return "";
}
} // namespace

const char *plaidml::rt::getKernelFormatName(KernelFormat format) {
  return format == KernelFormat::SPIRV ? "SPIR-V" : "OpenCL C";
}

std::string KernelBundle::describeName() const {
  return name.empty() ? "" : "'" + name + "'";
}

std::string plaidml::rt::encodeKernelBundle(const KernelBundle &bundle) {
  std::vector<std::pair<KernelBundleEntryKind, const std::string *>> entries;
  if (bundle.spirv)
    entries.emplace_back(KernelBundleEntryKind::SPIRV, &*bundle.spirv);
  if (bundle.openclC)
    entries.emplace_back(KernelBundleEntryKind::OpenCLC, &*bundle.openclC);
  if (!bundle.name.empty())
    entries.emplace_back(KernelBundleEntryKind::Name, &bundle.name);
  if (!bundle.note.empty())
    entries.emplace_back(KernelBundleEntryKind::Note, &bundle.note);

  std::string out(kKernelBundleMagic, sizeof(kKernelBundleMagic));
  putWord(out, kKernelBundleVersion);
  putWord(out, static_cast<uint32_t>(entries.size()));
  size_t offset = kHeaderBytes + kEntryBytes * entries.size();
  for (auto &[kind, bytes] : entries) {
    putWord(out, static_cast<uint32_t>(kind));
    putWord(out, static_cast<uint32_t>(offset));
    putWord(out, static_cast<uint32_t>(bytes->size()));
    offset += (bytes->size() + 3) / 4 * 4;
  }
  for (auto &[kind, bytes] : entries) {
    out += *bytes;
    out.append((4 - bytes->size() % 4) % 4, '\0');
  }
  return out;
}

bool plaidml::rt::isKernelBundle(const void *data, size_t size) {
  return size >= sizeof(kKernelBundleMagic) &&
         std::memcmp(data, kKernelBundleMagic, sizeof(kKernelBundleMagic)) == 0;
}

StatusOr<KernelBundle> plaidml::rt::decodeKernelModule(const void *data,
                                                       size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  KernelBundle module;
  if (size == 0)
    return Status::invalidArgument("empty kernel module");
  if (!isKernelBundle(data, size)) {
    // DEL starts no OpenCL C program: a bundle cut inside its magic.
    if (bytes[0] == 0x7f)
      return Status::invalidArgument(
          "kernel module of " + std::to_string(size) +
          " bytes starts with 0x7F but not with the kernel bundle magic "
          "0x7F 'PKB'");
    std::string_view view(static_cast<const char *>(data), size);
    if (size >= 4 && getWord(bytes) == kSpirvMagic) {
      if (std::string why = checkSpirv(view); !why.empty())
        return Status::invalidArgument("kernel module is not SPIR-V: " + why);
      module.spirv = std::string(view);
      return module;
    }
    // Single-format OpenCL C, NUL-terminated in artifacts.
    view = view.substr(0, view.find('\0'));
    if (view.empty())
      return Status::invalidArgument(
          "kernel module of " + std::to_string(size) +
          " bytes holds no OpenCL C text (it starts with "
          "a NUL)");
    module.openclC = std::string(view);
    return module;
  }

  module.isBundle = true;
  auto fail = [&](const std::string &what) {
    return Status::invalidArgument("kernel bundle of " + std::to_string(size) +
                                   " bytes: " + what);
  };
  if (size < kHeaderBytes)
    return fail("truncated: the header alone is " +
                std::to_string(kHeaderBytes) + " bytes");
  uint32_t version = getWord(bytes + 4);
  if (version != kKernelBundleVersion)
    return fail("version " + std::to_string(version) +
                " is not supported (this runtime reads version " +
                std::to_string(kKernelBundleVersion) + ")");
  uint64_t count = getWord(bytes + 8);
  uint64_t tableEnd = kHeaderBytes + kEntryBytes * count;
  if (tableEnd > size)
    return fail("truncated: its " + std::to_string(count) +
                " entries need a header of " + std::to_string(tableEnd) +
                " bytes");
  bool seen[5] = {};
  for (uint64_t i = 0; i < count; ++i) {
    const unsigned char *entry = bytes + kHeaderBytes + kEntryBytes * i;
    uint32_t kind = getWord(entry);
    uint64_t offset = getWord(entry + 4), length = getWord(entry + 8);
    std::string what = "entry " + std::to_string(i) + " (" +
                       describeKind(kind) + ", " + std::to_string(length) +
                       " bytes at " + std::to_string(offset) + ")";
    if (offset < tableEnd || offset % 4 != 0)
      return fail(what + " does not start at a multiple of 4 past the " +
                  std::to_string(tableEnd) + "-byte header");
    if (offset + length > size)
      return fail("truncated: " + what + " ends past the end");
    std::string_view payload(reinterpret_cast<const char *>(bytes) + offset,
                             length);
    if (kind < 1 || kind > 4)
      continue; // A later compiler's addition: not ours to read.
    if (seen[kind])
      return fail(what + " repeats an entry of that kind");
    seen[kind] = true;
    switch (static_cast<KernelBundleEntryKind>(kind)) {
    case KernelBundleEntryKind::SPIRV:
      if (std::string why = checkSpirv(payload); !why.empty())
        return fail(what + " is not SPIR-V: " + why);
      module.spirv = std::string(payload);
      break;
    case KernelBundleEntryKind::OpenCLC:
      if (payload.empty())
        return fail(what + " is empty");
      if (size_t nul = payload.find('\0'); nul != payload.npos)
        return fail(what + " holds a NUL at byte " + std::to_string(nul));
      module.openclC = std::string(payload);
      break;
    case KernelBundleEntryKind::Name:
      module.name = std::string(payload);
      break;
    case KernelBundleEntryKind::Note:
      module.note = std::string(payload);
      break;
    }
  }
  if (!module.spirv && !module.openclC)
    return fail("neither SPIR-V nor OpenCL C" +
                (module.note.empty() ? "" : " (" + module.note + ")"));
  return module;
}

StatusOr<KernelFormatPreference>
KernelFormatPreference::parse(std::string_view value, std::string_view name) {
  KernelFormatPreference preference;
  if (value.empty() || value == "auto")
    return preference;
  preference.origin = std::string(name) + "=" + std::string(value);
  if (value == "spirv")
    preference.kind = SPIRV;
  else if (value == "opencl-c")
    preference.kind = OpenCLC;
  else
    return Status::invalidArgument(
        preference.origin + " is not a kernel format (expected auto, spirv or "
                            "opencl-c)");
  return preference;
}

StatusOr<KernelFormatChoice> plaidml::rt::chooseOpenCLKernelFormat(
    const KernelBundle &module, const std::string &device,
    bool deviceTakesSpirv, const KernelFormatPreference &preference) {
  std::string name = module.name.empty()
                         ? "the kernel module"
                         : "kernel module " + module.describeName();
  // The compiler's note says why a format is missing ("no SPIR-V: ...").
  std::string note = module.note.empty() ? "" : " (" + module.note + ")";
  // Errors name the device; reasons follow its name in messages.
  std::string why = " takes no SPIR-V (no SPIR-V in its CL_DEVICE_IL_VERSION, "
                    "no cl_khr_il_program)";
  std::string noSpirv = device + why;
  if (preference.kind != KernelFormatPreference::Auto) {
    KernelFormat format = preference.kind == KernelFormatPreference::SPIRV
                              ? KernelFormat::SPIRV
                              : KernelFormat::OpenCLC;
    std::string asked =
        preference.origin + " asks for " + getKernelFormatName(format);
    if (!module.has(format))
      return Status::failedPrecondition(asked + ", but " + name + " has none" +
                                        note);
    if (format == KernelFormat::SPIRV && !deviceTakesSpirv)
      return Status::failedPrecondition(asked + ", but " + noSpirv);
    return KernelFormatChoice{format, "forced by " + preference.origin};
  }
  if (module.spirv && deviceTakesSpirv)
    return KernelFormatChoice{
        KernelFormat::SPIRV,
        std::string("the device takes SPIR-V") +
            (module.openclC ? "; the module has OpenCL C too" : "")};
  if (module.openclC) {
    if (module.spirv)
      return KernelFormatChoice{KernelFormat::OpenCLC,
                                "the device" + why +
                                    "; the module has SPIR-V too"};
    return KernelFormatChoice{KernelFormat::OpenCLC,
                              module.note.empty() ? "the module has no SPIR-V"
                                                  : module.note};
  }
  return Status::failedPrecondition(name + " has only SPIR-V" + note +
                                    ", but " + noSpirv);
}
