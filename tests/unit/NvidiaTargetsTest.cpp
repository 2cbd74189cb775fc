// NVIDIA targets by name: presets, and devices queried through the driver.

#include "driver/NvidiaTargets.h"
#include "runtime/devices/Devices.h"

#include <gtest/gtest.h>

namespace xs {
namespace {

TEST(NvidiaTargetsTest, PresetNamesResolveWithoutADriver) {
  absl::StatusOr<NvidiaDeviceLimits> l = nvidiaPreset(parseDeviceName("sm_80")->preset);
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_EQ(l->smCount, 108);
  EXPECT_FALSE(nvidiaPreset(parseDeviceName("sm_99")->preset).ok());
}

TEST(NvidiaTargetsTest, BadDeviceOrdinalIsAnError) {
  absl::StatusOr<DeviceSpec> l = parseDeviceName("cuda:x");
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            "'cuda:x' names no CUDA device: write cuda or cuda:N with N >= 0");
}

// Without a driver the error says so; with one, device 0's limits come back.
TEST(NvidiaTargetsTest, QueriedDeviceOrMissingDriver) {
  absl::StatusOr<NvidiaDeviceLimits> l = queryNvidiaLimits(parseDeviceName("cuda")->ordinal);
  if (!l.ok()) {
    std::string message(l.status().message());
    EXPECT_TRUE(message.find(cuda::kCudaDriverLibrary) != std::string::npos ||
                message.find("does not start") != std::string::npos ||
                message.find("no CUDA device") != std::string::npos)
        << message;
    GTEST_SKIP() << message;
  }
  EXPECT_EQ(l->warpWidth, 32);
  EXPECT_GT(l->smCount, 0);
}

// What the driver reports for an H200 (compute capability 9.0).
TEST(NvidiaTargetsTest, DeviceInfoMapsToLimits) {
  cuda::CudaDeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.computeMajor = 9;
  h200.computeMinor = 0;
  h200.multiprocessors = 132;
  h200.warpSize = 32;
  h200.maxThreadsPerBlock = 1024;
  h200.maxThreadsPerMultiprocessor = 2048;
  h200.maxBlocksPerMultiprocessor = 32;
  h200.sharedBytesPerBlockOptIn = 232448;
  h200.sharedBytesPerMultiprocessor = 233472;
  h200.registersPerMultiprocessor = 65536;
  h200.registersPerBlock = 65536;
  h200.l2Bytes = 62914560;
  NvidiaDeviceLimits l = nvidiaLimitsOf(h200);
  EXPECT_EQ(l.arch, "sm_90");
  EXPECT_EQ(l.part, "NVIDIA H200");
  TargetDescription t = nvidiaTargetDescription(l, 512);
  EXPECT_EQ(t.parallelUnits, 132 * 4);
  EXPECT_EQ(t.blockBufferBytes, 233472 / 4);
}

} // namespace
} // namespace xs
