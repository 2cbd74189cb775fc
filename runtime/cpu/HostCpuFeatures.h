#ifndef XSTITCH_RUNTIME_CPU_HOSTCPUFEATURES_H
#define XSTITCH_RUNTIME_CPU_HOSTCPUFEATURES_H

// Which x86 features the host has, in LLVM's names ("avx2", "avx512bf16"),
// read with CPUID and XGETBV (a feature whose registers the OS does not save
// is missing), without LLVM: the runtime checks a bundle's code against the
// host before it runs any of it.

#include <string>
#include <string_view>
#include <vector>

namespace xs {

/// The features of `features` (LLVM's "+avx2,-avx512f,..." form) that the
/// code needs ('+') and this CPU lacks. Features this check does not know
/// are taken to be present: what it knows covers what the x86 backend's
/// code uses (the SSE/AVX/AVX-512/AMX families, FMA, F16C, BMI).
std::vector<std::string> missingCpuFeatures(std::string_view features);

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_HOSTCPUFEATURES_H
