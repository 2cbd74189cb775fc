#include "runtime/devices/Devices.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "ir/Diagnostics.h"
#include "runtime/SpeculatedExecutable.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/simt/SimtDevice.h"

namespace xs {
namespace {

// One CPU device per worker-thread count and float mode, shared by every
// program loaded in the process, and one NVPTX simulation device (the CPU
// device with the lane scheduler) per the same and kind of launch of several
// phases. Devices live as long as the process (no destruction-order hazards
// with TBB's globals at exit).
Device &cpuDevice(int threads, bool flushDenormals, bool simulation, bool cooperative) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<std::tuple<int, bool, bool, bool>, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<Device> &device = (*devices)[{threads, flushDenormals, simulation, cooperative}];
  if (!device) {
    CpuDeviceOptions cpuOptions;
    cpuOptions.threads = threads;
    cpuOptions.flushDenormals = flushDenormals;
    cpuOptions.cooperativeLaunches = cooperative;
    device = simulation ? createNvptxSimulationDevice(cpuOptions) : createCpuDevice(cpuOptions);
  }
  return *device;
}

// One CUDA device per GPU. A GPU that cannot be opened is tried again at the
// next load (the error may be transient); one whose context a kernel fault
// left unusable is replaced by a device on a reset context (the executables
// loaded on the old one keep failing, saying so).
absl::StatusOr<Device *> cudaDevice(int ordinal, bool syncLaunches) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<std::pair<int, bool>, std::shared_ptr<Device>>();
  static auto *faulted = new std::vector<std::shared_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::shared_ptr<Device> &device = (*devices)[{ordinal, syncLaunches}];
  bool reset = false;
  if (device && !device->usable()) {
    // Devices are handed out as plain pointers: the old one stays alive.
    faulted->push_back(std::move(device));
    reset = true;
  }
  if (!device) {
    cuda::CudaDeviceOptions cudaOptions;
    cudaOptions.ordinal = ordinal;
    cudaOptions.context.syncLaunches = syncLaunches;
    cudaOptions.context.resetPrimaryContext = reset;
    XS_ASSIGN_OR_RETURN(device, cuda::createCudaDevice(cudaOptions));
  }
  return device.get();
}

} // namespace

std::vector<std::string> nvptxSimulationNameParts(std::string_view name) {
  std::vector<std::string> parts = absl::StrSplit(absl::string_view(name.data(), name.size()), ':');
  parts.erase(parts.begin());
  return parts;
}

bool isCudaDeviceName(std::string_view name) {
  return name == "cuda" || name.rfind("cuda:", 0) == 0;
}

bool isNvptxSimulationName(std::string_view name) {
  return name == kNvptxSimulationDevice ||
         name.rfind(std::string(kNvptxSimulationDevice) + ":", 0) == 0;
}

std::string simulatedNvidiaTarget(std::string_view name) {
  for (const std::string &part : nvptxSimulationNameParts(name))
    if (part != kPhaseLaunches)
      return part;
  return kDefaultSimulatedTarget;
}

bool simulatesCooperativeLaunches(std::string_view name) {
  std::vector<std::string> parts = nvptxSimulationNameParts(name);
  return std::find(parts.begin(), parts.end(), kPhaseLaunches) == parts.end();
}

absl::StatusOr<int> cudaOrdinal(std::string_view name) {
  int ordinal = 0;
  if (!isCudaDeviceName(name) ||
      (name.size() > 5 &&
       (!absl::SimpleAtoi(absl::string_view(name.data() + 5, name.size() - 5), &ordinal) ||
        ordinal < 0)))
    return absl::InvalidArgumentError(
        strCat("'", name, "' names no CUDA device: write cuda or cuda:N with N >= 0"));
  return ordinal;
}

absl::StatusOr<std::shared_ptr<Executable>> loadCompiledProgram(CompiledProgram program,
                                                                const LoadOptions &options) {
  if (!program.speculations.empty()) {
    std::vector<SpeculatedExecutable::Variant> variants;
    for (SpeculatedProgram &speculated : program.speculations) {
      XS_ASSIGN_OR_RETURN(std::shared_ptr<Executable> executable,
                          loadCompiledProgram(std::move(speculated.program), options));
      variants.push_back({std::move(speculated.assumptions), std::move(executable)});
    }
    return std::make_shared<SpeculatedExecutable>(std::move(program.host), std::move(variants));
  }
  if (isCudaDeviceName(options.device)) {
    XS_ASSIGN_OR_RETURN(int ordinal, cudaOrdinal(options.device));
    XS_ASSIGN_OR_RETURN(Device * device, cudaDevice(ordinal, options.syncLaunches));
    return device->load(std::move(program));
  }
  if (isNvptxSimulationName(options.device))
    return cpuDevice(options.threads, options.flushDenormals, /*simulation=*/true,
                     simulatesCooperativeLaunches(options.device))
        .load(std::move(program));
  if (options.device == "cpu")
    return cpuDevice(options.threads, options.flushDenormals, /*simulation=*/false,
                     /*cooperative=*/true)
        .load(std::move(program));
  return absl::InvalidArgumentError(strCat("device '", options.device,
                                           "' is not one programs load on; devices are cpu, "
                                           "cuda[:N] and nvptx-sim[:sm_XX][:phases]"));
}

} // namespace xs
