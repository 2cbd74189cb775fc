#include "runtime/cuda/CudaDevice.h"

#include "ir/Diagnostics.h"
#include "runtime/cuda/CudaExecutable.h"

namespace xs::cuda {

namespace {

class CudaDevice : public Device {
public:
  explicit CudaDevice(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}

  std::string name() const override { return context_->name(); }
  bool usable() const override { return !context_->faulted(); }

  absl::StatusOr<std::shared_ptr<Executable>> load(CompiledProgram program) override {
    XS_ASSIGN_OR_RETURN(std::shared_ptr<CudaExecutable> executable,
                        CudaExecutable::create(std::move(program), context_));
    return std::shared_ptr<Executable>(std::move(executable));
  }

private:
  // Shared with every executable loaded here, which may outlive the device.
  std::shared_ptr<CudaContext> context_;
};

} // namespace

absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDriver &driver,
                                                         const CudaDeviceOptions &options) {
  XS_ASSIGN_OR_RETURN(std::shared_ptr<CudaContext> context,
                      CudaContext::create(driver, options.ordinal, options.context));
  return std::unique_ptr<Device>(std::make_unique<CudaDevice>(std::move(context)));
}

absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDeviceOptions &options) {
  XS_ASSIGN_OR_RETURN(const CudaDriver *driver, CudaDriver::get());
  return createCudaDevice(*driver, options);
}

} // namespace xs::cuda
