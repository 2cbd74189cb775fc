#include "backends/nvptx/NvidiaTargetDescription.h"

#include <gtest/gtest.h>

namespace xs {
namespace {

TEST(NvidiaTargetDescriptionTest, PresetsCoverTheNamedArchitectures) {
  EXPECT_EQ(nvidiaPresetNames(),
            (std::vector<std::string>{"sm_70", "sm_80", "sm_86", "sm_89", "sm_90"}));
  for (const std::string &name : nvidiaPresetNames()) {
    absl::StatusOr<NvidiaDeviceLimits> l = nvidiaPreset(name);
    ASSERT_TRUE(l.ok()) << name;
    EXPECT_EQ(l->arch, name);
    EXPECT_EQ(l->warpWidth, 32);
    EXPECT_GT(l->smCount, 0);
    EXPECT_LE(l->sharedBytesPerBlock, l->sharedBytesPerSM);
  }
}

TEST(NvidiaTargetDescriptionTest, UnknownNameListsTheKnownOnes) {
  absl::StatusOr<NvidiaDeviceLimits> l = nvidiaPreset("sm_75x");
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            "unknown NVIDIA target 'sm_75x'; known: sm_70, sm_80, sm_86, sm_89, sm_90");
}

// Blocks of 256 threads: 8 fit an H100 SM by threads (of 32 by count), so
// each may take an eighth of its 228 KiB; sm_86 fits 6 (1536 threads).
TEST(NvidiaTargetDescriptionTest, SharedMemoryAndUnitsFollowResidency) {
  TargetDescription h100 = nvidiaTargetDescription(*nvidiaPreset("sm_90"), 256);
  EXPECT_EQ(h100.name, "sm_90");
  EXPECT_EQ(h100.lanesPerBlock, 256);
  EXPECT_EQ(h100.warpWidth, 32);
  EXPECT_EQ(h100.blockBufferBytes, 228 * 1024 / 8);
  EXPECT_EQ(h100.parallelUnits, 132 * 8);
  EXPECT_EQ(h100.vectorBytes, 16);
  TargetDescription ga102 = nvidiaTargetDescription(*nvidiaPreset("sm_86"), 256);
  EXPECT_EQ(ga102.blockBufferBytes, 100 * 1024 / 6);
  EXPECT_EQ(ga102.parallelUnits, 82 * 6);
  // Two blocks of 1024 threads fit an A100 SM: each may take half of it.
  TargetDescription big = nvidiaTargetDescription(*nvidiaPreset("sm_80"), 1024);
  EXPECT_EQ(big.blockBufferBytes, 164 * 1024 / 2);
  EXPECT_EQ(big.parallelUnits, 108 * 2);
}

TEST(NvidiaTargetDescriptionTest, LanesAreWholeWarpsWithinTheBlockLimit) {
  NvidiaDeviceLimits l = *nvidiaPreset("sm_90");
  EXPECT_EQ(nvidiaTargetDescription(l, 1000).lanesPerBlock, 992);
  EXPECT_EQ(nvidiaTargetDescription(l, 1).lanesPerBlock, 32);
  EXPECT_EQ(nvidiaTargetDescription(l, 4096).lanesPerBlock, 1024);
}

} // namespace
} // namespace xs
