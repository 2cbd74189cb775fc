#include "runtime/gpu/GpuDevice.h"

#include "ir/Diagnostics.h"
#include "runtime/gpu/GpuExecutable.h"

namespace xs::gpu {

namespace {

class GpuDevice : public Device {
public:
  explicit GpuDevice(std::shared_ptr<GpuContext> context) : context_(std::move(context)) {}

  std::string name() const override { return context_->name(); }
  bool usable() const override { return !context_->faulted(); }

  absl::StatusOr<std::shared_ptr<Executable>> load(CompiledProgram program) override {
    XS_ASSIGN_OR_RETURN(std::shared_ptr<GpuExecutable> executable,
                        GpuExecutable::create(std::move(program), context_));
    return std::shared_ptr<Executable>(std::move(executable));
  }

private:
  // Shared with every executable loaded here, which may outlive the device.
  std::shared_ptr<GpuContext> context_;
};

} // namespace

absl::StatusOr<std::unique_ptr<Device>> createGpuDevice(std::shared_ptr<const GpuDriver> driver,
                                                        int ordinal,
                                                        const GpuContextOptions &options) {
  XS_ASSIGN_OR_RETURN(std::shared_ptr<GpuContext> context,
                      GpuContext::create(std::move(driver), ordinal, options));
  return std::unique_ptr<Device>(std::make_unique<GpuDevice>(std::move(context)));
}

} // namespace xs::gpu
