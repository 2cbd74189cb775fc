#include "driver/GpuBackendTarget.h"

#include "driver/CpuBackend.h"
#include "ir/Diagnostics.h"

namespace xs {

std::string GpuBackendTarget::identity() const {
  if (!simulated_)
    return gpu_;
  X86Cpu cpu = x86CpuOf(*simulated_);
  return strCat(gpu_, " on x86 ", cpu.cpu, " ", cpu.features);
}

std::optional<HostCpuName> GpuBackendTarget::hostCpu() const {
  if (!simulated_)
    return std::nullopt;
  X86Cpu cpu = x86CpuOf(*simulated_);
  return HostCpuName{cpu.cpu, cpu.features};
}

} // namespace xs
