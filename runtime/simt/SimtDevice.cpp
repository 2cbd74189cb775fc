#include "runtime/simt/SimtDevice.h"

#include "runtime/simt/LaneScheduler.h"

namespace xs {

std::unique_ptr<Device> createNvptxSimulationDevice(CpuDeviceOptions options) {
  SimtRunBlocksFn run = &runSimtBlocks;
  options.name = kNvptxSimulationDevice;
  options.hostSymbols = {HostSymbol{kSimtRunBlocksSymbol, reinterpret_cast<void *>(run)}};
  return createCpuDevice(options);
}

} // namespace xs
