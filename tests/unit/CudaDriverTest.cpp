// The CUDA driver loader on machines with and without the NVIDIA driver:
// what is missing is named, never a crash. Tests that need a GPU skip,
// saying so.

#include "runtime/cuda/CudaDriver.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

namespace xs::cuda {
namespace {

bool contains(absl::string_view text, absl::string_view part) {
  return text.find(part) != absl::string_view::npos;
}

// CI's GPU runners set XSTITCH_REQUIRE_DEVICE=cuda (.github/workflows/ci.yml):
// there a missing GPU fails instead of skipping.
bool gpuRequired() {
  const char *required = std::getenv("XSTITCH_REQUIRE_DEVICE");
  return required != nullptr && std::string_view(required) == "cuda";
}

TEST(CudaDriverTest, MissingLibraryIsNamed) {
  absl::StatusOr<std::unique_ptr<CudaDriver>> d = CudaDriver::load("libxstitch-no-such-driver.so");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(contains(d.status().message(), "libxstitch-no-such-driver.so cannot be loaded"))
      << d.status().message();
  EXPECT_TRUE(contains(d.status().message(), "--device=cpu")) << d.status().message();
}

TEST(CudaDriverTest, LibraryWithoutTheEntryPointsIsNamed) {
  absl::StatusOr<std::unique_ptr<CudaDriver>> d = CudaDriver::load("libm.so.6");
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(contains(d.status().message(), "libm.so.6 has no entry point cuInit"))
      << d.status().message();
}

// First: the stub below has the soname libcuda.so.1, and once it is loaded
// the dynamic loader would hand it to get() as the driver.
TEST(CudaDriverTest, ProcessDriverIsLoadedOrMissingIsExplained) {
  absl::StatusOr<const CudaDriver *> driver = CudaDriver::get();
  if (!driver.ok()) {
    EXPECT_TRUE(contains(driver.status().message(), kCudaDriverLibrary) ||
                contains(driver.status().message(), "does not start"))
        << driver.status().message();
    if (gpuRequired())
      FAIL() << "XSTITCH_REQUIRE_DEVICE=cuda but " << driver.status().message();
    GTEST_SKIP() << "no NVIDIA driver here: " << driver.status().message();
  }
  absl::StatusOr<int> count = (*driver)->deviceCount();
  ASSERT_TRUE(count.ok()) << count.status().message();
  absl::StatusOr<CudaDeviceInfo> beyond = (*driver)->deviceInfo(*count);
  EXPECT_FALSE(beyond.ok());
  if (*count == 0) {
    if (gpuRequired())
      FAIL() << "XSTITCH_REQUIRE_DEVICE=cuda but the NVIDIA driver sees no device";
    GTEST_SKIP() << "the NVIDIA driver sees no device";
  }
  absl::StatusOr<CudaDeviceInfo> first = (*driver)->deviceInfo(0);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->warpSize, 32);
  EXPECT_GT(first->multiprocessors, 0);
  EXPECT_EQ(first->arch().rfind("sm_", 0), 0u);
}

// The CUDA toolkit's stub library has every entry point and no driver
// behind it: loading works, starting it fails with a message.
TEST(CudaDriverTest, StubLibraryLoadsButDoesNotStart) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  absl::StatusOr<std::unique_ptr<CudaDriver>> d = CudaDriver::load(stub);
  ASSERT_TRUE(d.ok()) << d.status().message();
  absl::Status started = (*d)->check((*d)->cuInit(0), "cuInit");
  ASSERT_FALSE(started.ok());
  EXPECT_TRUE(contains(started.message(), "cuInit: CUDA_ERROR_STUB_LIBRARY")) << started.message();
}

} // namespace
} // namespace xs::cuda
