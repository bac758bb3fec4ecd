//===- CpuTarget.cpp - Resolve a CPU target description -------------------===//
//
// Implements resolveCpuTarget: host detection for "native", validation of
// CPU and feature names against LLVM's tables for the triple, and the list of
// ISA features recorded in the manifest. That list uses the vocabulary of
// llvm::sys::getHostCPUFeatures (ISA extensions as cpuid reports them, not
// LLVM's tuning flags), so a runtime on another machine can compare it with
// its own host features name by name.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/CpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

using namespace llvm;

void mlir::plaidml::initializeLLVMTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
  });
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Splits "+a,-b" into its entries, dropping empty ones.
static SmallVector<StringRef> splitFeatures(StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef &part : parts)
    part = part.trim();
  llvm::erase_if(parts, [](StringRef part) { return part.empty(); });
  return parts;
}

/// The first CPU's level-2 data (or unified) cache in bytes, as Linux
/// describes it in sysfs ("512K"); 0 elsewhere or when it cannot tell.
static int64_t getHostL2Bytes() {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    auto read = [&](const char *name) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> file =
          MemoryBuffer::getFile(dir + "/" + name, /*IsText=*/true);
      return file ? (*file)->getBuffer().trim().str() : std::string();
    };
    std::string level = read("level");
    if (level.empty())
      break;
    std::string type = read("type");
    if (level != "2" || (type != "Unified" && type != "Data"))
      continue;
    std::string sizeText = read("size");
    StringRef size = sizeText;
    int64_t unit = 1;
    if (size.consume_back("K"))
      unit = 1024;
    else if (size.consume_back("M"))
      unit = 1024 * 1024;
    int64_t value;
    if (size.getAsInteger(10, value) || value <= 0)
      return 0;
    return value * unit;
  }
  return 0;
}

Expected<mlir::plaidml::CpuTarget>
mlir::plaidml::resolveCpuTarget(StringRef tripleName, StringRef cpu,
                                StringRef features) {
  initializeLLVMTargets();

  CpuTarget result;
  Triple hostTriple(sys::getProcessTriple());
  Triple triple(tripleName.empty() ? hostTriple.str()
                                   : Triple::normalize(tripleName));
  result.triple = triple.str();
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("unknown target triple '" + tripleName + "': " + error);

  bool native = cpu.empty() || cpu == "native";
  bool sameArch = triple.getArch() == hostTriple.getArch();
  if (native && !sameArch)
    return makeError("cpu 'native' needs the host's architecture (" +
                     hostTriple.getArchName() + "), not " +
                     triple.getArchName());
  result.cpu = native ? sys::getHostCPUName().str() : cpu.str();
  if (native)
    result.l2Bytes = getHostL2Bytes();

  // LLVM's feature table for this target, to validate names before handing
  // them to LLVM (which would only warn, or abort in checkFeatures).
  std::unique_ptr<MCSubtargetInfo> bareInfo(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!bareInfo)
    return makeError("target '" + result.triple +
                     "' has no subtarget information");
  if (!bareInfo->isCPUStringValid(result.cpu))
    return makeError("unknown CPU '" + result.cpu + "' for target '" +
                     result.triple + "'");
  StringSet<> known;
  for (const SubtargetFeatureKV &kv : bareInfo->getAllProcessorFeatures())
    known.insert(kv.Key);

  SmallVector<std::string> featureList;
  StringMap<bool> hostFeatures = sys::getHostCPUFeatures();
  if (native && features.empty()) {
    for (const auto &entry : hostFeatures)
      if (known.contains(entry.getKey()))
        featureList.push_back((entry.getValue() ? "+" : "-") +
                              entry.getKey().str());
    llvm::sort(featureList);
  }
  for (StringRef feature : splitFeatures(features)) {
    if (!feature.starts_with("+") && !feature.starts_with("-"))
      return makeError("CPU feature '" + feature +
                       "' must start with '+' or '-'");
    if (!known.contains(feature.drop_front()))
      return makeError("unknown CPU feature '" + feature.drop_front() +
                       "' for target '" + result.triple + "'");
    featureList.push_back(feature.str());
  }
  result.features = llvm::join(featureList, ",");

  // The features the code may use: every feature of the vocabulary that the
  // resolved CPU and feature string enable.
  std::unique_ptr<MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, result.cpu, result.features));
  SmallVector<std::string> vocabulary;
  if (sameArch) {
    for (const auto &entry : hostFeatures)
      if (known.contains(entry.getKey()))
        vocabulary.push_back(entry.getKey().str());
  } else {
    for (StringRef feature : splitFeatures(features))
      if (feature.starts_with("+"))
        vocabulary.push_back(feature.drop_front().str());
  }
  llvm::sort(vocabulary);
  vocabulary.erase(llvm::unique(vocabulary), vocabulary.end());
  SmallVector<std::string> enabled;
  for (const std::string &name : vocabulary)
    if (info->checkFeatures("+" + name))
      enabled.push_back("+" + name);
  result.manifestFeatures = llvm::join(enabled, ",");
  return result;
}

int64_t mlir::plaidml::getCacheBlockBytes(const CpuTarget &target) {
  return target.l2Bytes > 0 ? target.l2Bytes / 2 : kDefaultCacheBlockBytes;
}
