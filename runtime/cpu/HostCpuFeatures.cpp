#include "runtime/cpu/HostCpuFeatures.h"

#include <cpuid.h>

#include <cstdint>

#include "absl/strings/str_split.h"

namespace xs {
namespace {

enum Register : uint8_t { EAX, EBX, ECX, EDX };

struct FeatureBit {
  const char *name; // LLVM's
  unsigned leaf, subleaf;
  Register reg;
  unsigned bit;
};

// CPUID bits, from the Intel SDM and AMD APM (leaf 1, 7.0, 7.1, 0x80000001).
constexpr FeatureBit kFeatures[] = {
    {"sse3", 1, 0, ECX, 0},
    {"pclmul", 1, 0, ECX, 1},
    {"ssse3", 1, 0, ECX, 9},
    {"fma", 1, 0, ECX, 12},
    {"cx16", 1, 0, ECX, 13},
    {"sse4.1", 1, 0, ECX, 19},
    {"sse4.2", 1, 0, ECX, 20},
    {"movbe", 1, 0, ECX, 22},
    {"popcnt", 1, 0, ECX, 23},
    {"aes", 1, 0, ECX, 25},
    {"xsave", 1, 0, ECX, 26},
    {"avx", 1, 0, ECX, 28},
    {"f16c", 1, 0, ECX, 29},
    {"rdrnd", 1, 0, ECX, 30},
    {"cmov", 1, 0, EDX, 15},
    {"sse", 1, 0, EDX, 25},
    {"sse2", 1, 0, EDX, 26},
    {"bmi", 7, 0, EBX, 3},
    {"avx2", 7, 0, EBX, 5},
    {"bmi2", 7, 0, EBX, 8},
    {"avx512f", 7, 0, EBX, 16},
    {"avx512dq", 7, 0, EBX, 17},
    {"rdseed", 7, 0, EBX, 18},
    {"adx", 7, 0, EBX, 19},
    {"avx512ifma", 7, 0, EBX, 21},
    {"avx512cd", 7, 0, EBX, 28},
    {"sha", 7, 0, EBX, 29},
    {"avx512bw", 7, 0, EBX, 30},
    {"avx512vl", 7, 0, EBX, 31},
    {"avx512vbmi", 7, 0, ECX, 1},
    {"avx512vbmi2", 7, 0, ECX, 6},
    {"gfni", 7, 0, ECX, 8},
    {"vaes", 7, 0, ECX, 9},
    {"vpclmulqdq", 7, 0, ECX, 10},
    {"avx512vnni", 7, 0, ECX, 11},
    {"avx512bitalg", 7, 0, ECX, 12},
    {"avx512vpopcntdq", 7, 0, ECX, 14},
    {"avx512vp2intersect", 7, 0, EDX, 8},
    {"amx-bf16", 7, 0, EDX, 22},
    {"avx512fp16", 7, 0, EDX, 23},
    {"amx-tile", 7, 0, EDX, 24},
    {"amx-int8", 7, 0, EDX, 25},
    {"avxvnni", 7, 1, EAX, 4},
    {"avx512bf16", 7, 1, EAX, 5},
    {"lzcnt", 0x80000001, 0, ECX, 5},
    {"sse4a", 0x80000001, 0, ECX, 6},
    {"prfchw", 0x80000001, 0, ECX, 8},
    {"fma4", 0x80000001, 0, ECX, 16},
};

bool cpuidBit(const FeatureBit &f) {
  unsigned highest = __get_cpuid_max(f.leaf & 0x80000000u, nullptr);
  if (highest < f.leaf)
    return false;
  unsigned r[4] = {0, 0, 0, 0};
  __cpuid_count(f.leaf, f.subleaf, r[EAX], r[EBX], r[ECX], r[EDX]);
  return (r[f.reg] >> f.bit) & 1u;
}

/// The register state the OS saves (XCR0), 0 where XGETBV is unavailable.
uint64_t savedState() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid(1, a, b, c, d);
  bool osxsave = (c >> 27) & 1u;
  if (!osxsave)
    return 0;
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

bool hasFeature(const FeatureBit &f, uint64_t xcr0) {
  std::string_view name = f.name;
  bool needsYmm = name.rfind("avx", 0) == 0 || name == "fma" || name == "f16c" || name == "vaes" ||
                  name == "vpclmulqdq" || name == "fma4";
  bool needsZmm = name.rfind("avx512", 0) == 0;
  bool needsTiles = name.rfind("amx", 0) == 0;
  if (needsYmm && (xcr0 & 0x6) != 0x6)
    return false;
  if (needsZmm && (xcr0 & 0xe6) != 0xe6)
    return false;
  if (needsTiles && (xcr0 & 0x60000) != 0x60000)
    return false;
  return cpuidBit(f);
}

} // namespace

std::vector<std::string> missingCpuFeatures(std::string_view features) {
  uint64_t xcr0 = savedState();
  std::vector<std::string> missing;
  for (absl::string_view item : absl::StrSplit(absl::string_view(features.data(), features.size()),
                                               ',', absl::SkipEmpty())) {
    if (item[0] != '+')
      continue;
    absl::string_view name = item.substr(1);
    for (const FeatureBit &f : kFeatures)
      if (name == f.name && !hasFeature(f, xcr0))
        missing.emplace_back(name);
  }
  return missing;
}

} // namespace xs
