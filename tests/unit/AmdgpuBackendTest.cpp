// The AMDGPU backend's presets and planning description, and its code
// objects: HSACO linked in process by lld, from several threads at once,
// and lld's refusal of what is not an AMDGPU object.

#include <gtest/gtest.h>

#include <thread>

#include "backends/amdgpu/AmdgpuBackend.h"
#include "backends/amdgpu/AmdgpuCompiler.h"
#include "driver/Compiler.h"
#include "tools/common/DifferentialCheck.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

TEST(AmdgpuBackendTest, PresetsCarryTheirWavefronts) {
  EXPECT_EQ(amdgpuPresetNames(), (std::vector<std::string>{"gfx90a", "gfx942", "gfx1100"}));
  for (const std::string &name : amdgpuPresetNames()) {
    absl::StatusOr<AmdgpuDeviceLimits> l = amdgpuPreset(name);
    ASSERT_TRUE(l.ok()) << name;
    EXPECT_EQ(l->waveWidth, name == "gfx1100" ? 32 : 64) << name;
    EXPECT_LE(l->ldsBytesPerBlock, l->ldsBytesPerCU) << name;
  }
  absl::StatusOr<AmdgpuDeviceLimits> unknown = amdgpuPreset("gfx908");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown AMD GPU target 'gfx908'; known: gfx90a, gfx942, gfx1100");
}

// Workgroups of 256 work-items: 8 fit a CDNA CU (2048 threads), each with an
// eighth of its 64 KiB of LDS; 4 fit an RDNA3 CU (1024). Lanes round down to
// whole wavefronts, at least one.
TEST(AmdgpuBackendTest, PlanningFollowsTheWavefrontAndTheCU) {
  TargetDescription mi300 = amdgpuTargetDescription(*amdgpuPreset("gfx942"), 256);
  EXPECT_EQ(mi300.name, "gfx942");
  EXPECT_EQ(mi300.warpWidth, 64);
  EXPECT_EQ(mi300.lanesPerBlock, 256);
  EXPECT_EQ(mi300.blockBufferBytes, 64 * 1024 / 8);
  EXPECT_EQ(mi300.parallelUnits, 304 * 8);
  TargetDescription rdna3 = amdgpuTargetDescription(*amdgpuPreset("gfx1100"), 256);
  EXPECT_EQ(rdna3.warpWidth, 32);
  EXPECT_EQ(rdna3.blockBufferBytes, 64 * 1024 / 4);
  EXPECT_EQ(rdna3.parallelUnits, 96 * 4);
  EXPECT_EQ(amdgpuTargetDescription(*amdgpuPreset("gfx90a"), 100).lanesPerBlock, 64);
  EXPECT_EQ(amdgpuTargetDescription(*amdgpuPreset("gfx90a"), 1).lanesPerBlock, 64);
  EXPECT_EQ(amdgpuTargetDescription(*amdgpuPreset("gfx1100"), 100).lanesPerBlock, 96);
}

TEST(AmdgpuBackendTest, CodeObjectsLinkFromSeveralThreadsAtOnce) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(
      "func @f(%x: f32[R, C]) -> (y) {\n  %s = reduce_sum %x {dims = [1]}\n  %y = exp %s\n"
      "  return %y\n}\n",
      defaultPipeline());
  ASSERT_TRUE(module.ok()) << module.status().message();
  const Function &function = *(*module)->functions().front();
  CompileOptions options;
  options.device = "gfx1100";
  // emitKernels compiles each time (no compile cache): four links at once.
  std::vector<absl::StatusOr<std::string>> objects(4, absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < objects.size(); ++i)
    threads.emplace_back([&, i] { objects[i] = emitKernels(function, options, "hsaco"); });
  for (std::thread &thread : threads)
    thread.join();
  for (const absl::StatusOr<std::string> &hsaco : objects) {
    ASSERT_TRUE(hsaco.ok()) << hsaco.status().message();
    EXPECT_EQ(*hsaco, *objects[0]);
    EXPECT_EQ(hsaco->substr(0, 4), "\x7f"
                                   "ELF");
    EXPECT_NE(hsaco->find("amdgcn-amd-amdhsa--gfx1100"), std::string::npos);
    EXPECT_NE(hsaco->find(".kd"), std::string::npos); // kernel descriptors
  }
  // A compiled program carries the code object.
  absl::StatusOr<CompiledProgram> program = compileProgram(function, options);
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_EQ(program->objectFormat, "hsaco");
  ASSERT_EQ(program->objects.size(), 1u);
  EXPECT_EQ(program->objects[0], *objects[0]);
}

TEST(AmdgpuBackendTest, TheLinkerRefusesWhatIsNotAnAmdgpuObject) {
  absl::StatusOr<std::string> linked = linkHsaco("not an object file");
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("lld could not link the HSA code object"),
            std::string::npos)
      << linked.status().message();
  // The linker still links after a refusal.
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(
      "func @g(%x: f32[N]) -> (y) {\n  %y = neg %x\n  return %y\n}\n", defaultPipeline());
  ASSERT_TRUE(module.ok());
  CompileOptions options;
  options.device = "gfx90a";
  absl::StatusOr<CompiledProgram> program =
      compileProgram(*(*module)->functions().front(), options);
  ASSERT_TRUE(program.ok()) << program.status().message();
}

} // namespace
} // namespace xs
