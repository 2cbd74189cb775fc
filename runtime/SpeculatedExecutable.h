#ifndef XSTITCH_RUNTIME_SPECULATEDEXECUTABLE_H
#define XSTITCH_RUNTIME_SPECULATEDEXECUTABLE_H

// The executable of a function compiled with broadcast speculation
// (CompiledProgram::speculations): one loaded executable per variant, and
// at each call the first whose assumptions hold at the call's dims runs.
// Binding here only chooses; the chosen variant checks the inputs as any
// executable does. A call that no variant covers (N = 3 and M = 5 meeting
// in a broadcast) is an InvalidArgument error naming the dims and inputs.

#include <memory>
#include <vector>

#include "runtime/Executable.h"

namespace xs {

class SpeculatedExecutable final : public Executable {
public:
  struct Variant {
    std::vector<DimPredicate> assumptions;
    std::shared_ptr<Executable> executable;
  };
  /// `signature`: CompiledProgram::host of the speculated program.
  SpeculatedExecutable(HostPlan signature, std::vector<Variant> variants);

  /// The signature: parameters and results with the function's own types
  /// (the broadcast dims distinct), no steps; kernelPlan() has steps.
  const HostPlan &plan() const override { return signature_; }
  std::string deviceName() const override { return variants_.front().executable->deviceName(); }
  absl::StatusOr<RunResult> execute(const RunRequest &request,
                                    RunStats *stats = nullptr) const override;
  absl::StatusOr<const Executable *> resolve(const std::vector<TensorView> &inputs) const override;
  size_t numVariants() const { return variants_.size(); }
  const Executable &variant(size_t index) const { return *variants_.at(index).executable; }

private:
  /// Where a call's dims come from: input `param`'s dim `dim` is `symbol`.
  struct DimSource {
    size_t param;
    int64_t dim;
    std::string symbol;
  };
  HostPlan signature_;
  std::vector<Variant> variants_;
  // Computed once: a call binds these, and derives the rest from the facts
  // only where an assumption needs a symbol no input dim is.
  std::vector<DimSource> sources_;
  bool derive_ = false;
};

/// Variants of a speculated executable; 1 for any other.
size_t speculatedVariantCount(const Executable &executable);

/// The plan whose steps stand for `executable`'s kernels in reports: its
/// own, or a speculated executable's first variant's (every broadcast dim
/// equal).
const HostPlan &kernelPlan(const Executable &executable);

} // namespace xs

#endif // XSTITCH_RUNTIME_SPECULATEDEXECUTABLE_H
