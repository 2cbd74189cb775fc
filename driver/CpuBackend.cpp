// The x86 backend as the compile driver sees it (Backend.h):
// code for the host CPU, or for the CPU and features the options name.

#include "driver/CpuBackend.h"

#include <mutex>

#include "absl/strings/str_cat.h"

namespace xs {
namespace {

class X86BackendTarget final : public BackendTarget {
public:
  explicit X86BackendTarget(const CodegenOptions &options)
      : options_(x86OptionsFrom(options)), cpu_(x86CpuOf(options_)) {}

  const TargetDescription &description() const override {
    // Describing the CPU builds a target machine: not for cache lookups,
    // which only need identity(). Broadcast variants plan on several
    // threads at once.
    std::call_once(described_, [&] { description_ = x86TargetDescription(options_); });
    return *description_;
  }
  std::string identity() const override {
    return absl::StrCat("x86 ", cpu_.cpu, " ", cpu_.features);
  }
  std::optional<HostCpuName> hostCpu() const override {
    return HostCpuName{cpu_.cpu, cpu_.features};
  }
  std::string_view codeName() const override { return "code"; }
  absl::StatusOr<CompiledProgram> generate(const ProgramPlan &plan) const override {
    return compileForX86(plan, options_);
  }
  absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                   std::string_view format) const override {
    return emitX86LLVMIR(plan, options_, /*optimized=*/format == "llvm");
  }

private:
  X86Options options_;
  X86Cpu cpu_;
  mutable std::once_flag described_;
  mutable std::optional<TargetDescription> description_;
};

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveX86(const DeviceSpec &,
                                                          const CodegenOptions &options) {
  return std::make_unique<X86BackendTarget>(options);
}

} // namespace

X86Options x86OptionsFrom(const CodegenOptions &options) {
  X86Options x86;
  x86.cpu = options.cpu;
  x86.features = options.features;
  x86.threads = options.threads;
  x86.minElementsPerBlock = options.blockElements;
  x86.flushDenormals = options.flushDenormals;
  x86.streamingStoreBytes = options.streamingStoreBytes;
  return x86;
}

X86Cpu x86CpuOf(const X86Options &options) {
  if (!options.cpu.empty() || !options.features.empty())
    return resolveX86Cpu(options);
  // The host's, asked of LLVM once per process.
  static const X86Cpu *host = new X86Cpu(resolveX86Cpu(X86Options()));
  return *host;
}

const Backend &x86Backend() {
  static const Backend backend{
      .platform = "cpu", .emitFormats = {"llvm", "llvm-unopt"}, .resolve = resolveX86};
  return backend;
}

} // namespace xs
