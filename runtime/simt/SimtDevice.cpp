#include "runtime/simt/SimtDevice.h"

#include "backends/common/KernelABI.h"
#include "runtime/simt/LaneScheduler.h"

namespace xs {

std::unique_ptr<Device> createNvptxSimulationDevice(CpuDeviceOptions options) {
  SimtRunBlocksFn run = &runSimtBlocks;
  SimtRunBlocksFn runGrid = &runSimtGrid;
  options.name = kNvptxSimulationDevice;
  options.hostSymbols = {HostSymbol{kSimtRunBlocksSymbol, reinterpret_cast<void *>(run)},
                         HostSymbol{kSimtRunGridSymbol, reinterpret_cast<void *>(runGrid)}};
  options.inputAlignment = kNvptxBufferAlignment;
  return createCpuDevice(options);
}

} // namespace xs
