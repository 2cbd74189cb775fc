#include "runtime/simt/SimtDevice.h"

#include "backends/common/KernelABI.h"
#include "runtime/simt/LaneScheduler.h"

namespace xs {

std::unique_ptr<Device> createNvptxSimulationDevice(CpuDeviceOptions options) {
  SimtRunBlocksFn run = &runSimtBlocks;
  options.name = kNvptxSimulationDevice;
  options.hostSymbols = {HostSymbol{kSimtRunBlocksSymbol, reinterpret_cast<void *>(run)}};
  options.inputAlignment = kNvptxBufferAlignment;
  return createCpuDevice(options);
}

} // namespace xs
