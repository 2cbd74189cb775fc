#include "runtime/simt/SimtDevice.h"

#include "backends/common/KernelABI.h"
#include "runtime/simt/LaneScheduler.h"

namespace xs {

std::unique_ptr<Device> createSimtSimulationDevice(CpuDeviceOptions options, std::string name) {
  SimtRunBlocksFn run = &runSimtBlocks;
  SimtRunBlocksFn runGrid = &runSimtGrid;
  options.name = std::move(name);
  options.hostSymbols = {HostSymbol{kSimtRunBlocksSymbol, reinterpret_cast<void *>(run)},
                         HostSymbol{kSimtRunGridSymbol, reinterpret_cast<void *>(runGrid)}};
  options.inputAlignment = kGpuBufferAlignment;
  return createCpuDevice(options);
}

} // namespace xs
