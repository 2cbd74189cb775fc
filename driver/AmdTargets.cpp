#include "driver/AmdTargets.h"

#include "ir/Diagnostics.h"

namespace xs {

AmdgpuDeviceLimits amdgpuLimitsOf(const hip::HipDeviceInfo &device) {
  absl::StatusOr<AmdgpuDeviceLimits> preset = amdgpuPreset(device.arch);
  AmdgpuDeviceLimits l = preset.ok() ? *std::move(preset) : AmdgpuDeviceLimits{};
  if (!preset.ok())
    l.maxBlocksPerCU = 32; // what every GCN, CDNA and RDNA CU holds at most
  l.arch = device.arch;
  l.part = device.name;
  l.computeUnits = device.computeUnits;
  l.waveWidth = device.warpSize;
  l.maxThreadsPerBlock = device.maxThreadsPerBlock;
  l.maxThreadsPerCU = device.maxThreadsPerCU;
  l.ldsBytesPerBlock = device.ldsBytesPerBlock;
  l.ldsBytesPerCU = device.ldsBytesPerCU;
  l.l2Bytes = device.l2Bytes;
  return l;
}

absl::StatusOr<AmdgpuDeviceLimits> queryAmdgpuLimits(int ordinal) {
  XS_ASSIGN_OR_RETURN(const hip::HipDriver *driver, hip::HipDriver::get());
  XS_ASSIGN_OR_RETURN(hip::HipDeviceInfo device, driver->deviceInfo(ordinal));
  if (device.arch.substr(0, 3) != "gfx")
    return absl::FailedPreconditionError(
        strCat("HIP reports no gfx processor for hip:", ordinal, " (", device.name,
               "): xstitch cannot tell which code it runs; compile for a preset with "
               "--target=gfxNNN"));
  return amdgpuLimitsOf(device);
}

std::optional<std::string> presentAmdDevice() {
  if (queryAmdgpuLimits(0).ok())
    return "hip:0";
  return std::nullopt;
}

} // namespace xs
