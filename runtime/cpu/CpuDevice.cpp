#include "runtime/cpu/CpuDevice.h"

#include "runtime/CachingAllocator.h"
#include "runtime/cpu/CpuExecutable.h"
#include "tbb/task_arena.h"

namespace xs {
namespace {

class CpuDevice : public Device {
public:
  explicit CpuDevice(const CpuDeviceOptions &options)
      : allocator_(CachingAllocator::create(CachingAllocatorOptions{},
                                            options.memory ? options.memory : hostMemorySource())),
        arena_(std::make_shared<tbb::task_arena>(
            options.threads > 0 ? options.threads : static_cast<int>(tbb::task_arena::automatic))),
        options_(options) {}

  std::string name() const override { return options_.name; }

  absl::StatusOr<std::shared_ptr<Executable>> load(CompiledProgram program) override {
    absl::StatusOr<std::shared_ptr<CpuExecutable>> executable =
        CpuExecutable::create(std::move(program), allocator_, arena_, options_);
    if (!executable.ok())
      return executable.status();
    return std::shared_ptr<Executable>(*std::move(executable));
  }

private:
  // Shared with every executable loaded here, which may outlive the device.
  std::shared_ptr<CachingAllocator> allocator_;
  std::shared_ptr<tbb::task_arena> arena_;
  CpuDeviceOptions options_;
};

} // namespace

std::unique_ptr<Device> createCpuDevice(const CpuDeviceOptions &options) {
  return std::make_unique<CpuDevice>(options);
}

} // namespace xs
