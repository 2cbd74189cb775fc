// Device names parsed once into DeviceSpecs (runtime/devices/Devices.h) and
// the backends the driver resolves for them (driver/Backends.h).

#include <gtest/gtest.h>

#include "driver/Backends.h"
#include "driver/Compiler.h"
#include "runtime/devices/Devices.h"
#include "tools/common/DifferentialCheck.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

DeviceSpec parsed(std::string_view name) {
  absl::StatusOr<DeviceSpec> device = parseDeviceName(name);
  EXPECT_TRUE(device.ok()) << name << ": " << device.status().message();
  return device.value_or(DeviceSpec());
}

TEST(DeviceRegistryTest, NamesParseIntoTheirPlatforms) {
  DeviceSpec cpu = parsed("cpu");
  EXPECT_EQ(cpu.platform, "cpu");
  EXPECT_EQ(cpu.name, "cpu");

  DeviceSpec gpu = parsed("cuda");
  EXPECT_EQ(gpu.platform, "cuda");
  EXPECT_EQ(gpu.name, "cuda:0");
  EXPECT_EQ(parsed("cuda:3").ordinal, 3);
  DeviceSpec hip = parsed("hip");
  EXPECT_EQ(hip.platform, "hip");
  EXPECT_EQ(hip.name, "hip:0");
  EXPECT_EQ(parsed("hip:2").ordinal, 2);

  DeviceSpec simulation = parsed("nvptx-sim");
  EXPECT_EQ(simulation.platform, "nvptx-sim");
  EXPECT_EQ(simulation.preset, "sm_90");
  EXPECT_FALSE(simulation.phaseLaunches);
  DeviceSpec phases = parsed("nvptx-sim:phases:sm_80");
  EXPECT_EQ(phases.preset, "sm_80");
  EXPECT_TRUE(phases.phaseLaunches);
  EXPECT_EQ(phases.name, "nvptx-sim:phases:sm_80");

  DeviceSpec preset = parsed("sm_86");
  EXPECT_EQ(preset.platform, "nvptx");
  EXPECT_EQ(preset.preset, "sm_86");
  EXPECT_EQ(platformOf(preset).load, nullptr);

  // The AMD platforms are the runtime's whatever the build compiles.
  DeviceSpec amd = parsed("gfx90a");
  EXPECT_EQ(amd.platform, "amdgpu");
  EXPECT_EQ(amd.preset, "gfx90a");
  EXPECT_EQ(platformOf(amd).load, nullptr);
  DeviceSpec amdSimulation = parsed("amdgpu-sim");
  EXPECT_EQ(amdSimulation.platform, "amdgpu-sim");
  EXPECT_EQ(amdSimulation.preset, "gfx942");
  DeviceSpec wave32 = parsed("amdgpu-sim:gfx1100:phases");
  EXPECT_EQ(wave32.preset, "gfx1100");
  EXPECT_TRUE(wave32.phaseLaunches);
}

TEST(DeviceRegistryTest, MisspelledNamesSayHowTheyAreWritten) {
  absl::StatusOr<DeviceSpec> unknown = parseDeviceName("tpu");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown device 'tpu'; devices are cpu, cuda[:N], hip[:N], nvptx-sim[:sm_XX][:phases], "
            "amdgpu-sim[:gfxNNN][:phases], sm_XX, gfxNNN");
  absl::StatusOr<DeviceSpec> ordinal = parseDeviceName("cuda:-1");
  ASSERT_FALSE(ordinal.ok());
  EXPECT_NE(ordinal.status().message().find("write cuda or cuda:N"), std::string::npos);
  for (std::string_view name : {"hip:", "hip:x", "hip:-2"}) {
    absl::StatusOr<DeviceSpec> amd = parseDeviceName(name);
    ASSERT_FALSE(amd.ok()) << name;
    EXPECT_EQ(amd.status().message(),
              strCat("'", name, "' names no HIP device: write hip or hip:N with N >= 0"));
  }
  for (std::string_view name : {"nvptx-sim:sm_80:sm_86", "nvptx-sim:phases:phases", "nvptx-sim:"}) {
    absl::StatusOr<DeviceSpec> simulation = parseDeviceName(name);
    ASSERT_FALSE(simulation.ok()) << name;
    EXPECT_NE(simulation.status().message().find("is not an NVPTX simulation device"),
              std::string::npos);
  }
  // Names that only start like a platform's are not that platform's.
  EXPECT_FALSE(parseDeviceName("cpu0").ok());
  EXPECT_FALSE(parseDeviceName("nvptx-simulator").ok());
  EXPECT_FALSE(parseDeviceName("sm_9x").ok());
  EXPECT_FALSE(parseDeviceName("gfx94z").ok());
  EXPECT_FALSE(parseDeviceName("amdgpu-sim:gfx942:gfx90a").ok());
}

TEST(DeviceRegistryTest, EveryPlatformThatCompilesHasABackend) {
  std::vector<std::string_view> compiling = {"cpu", "nvptx-sim:sm_80", "sm_90"};
  if (XSTITCH_HAS_AMDGPU) {
    compiling.push_back("amdgpu-sim:gfx1100");
    compiling.push_back("gfx942");
  }
  for (std::string_view name : compiling) {
    DeviceSpec device = parsed(name);
    ASSERT_NE(backendOf(device), nullptr) << name;
    absl::StatusOr<std::unique_ptr<BackendTarget>> target =
        resolveBackendTarget(device, CodegenOptions());
    ASSERT_TRUE(target.ok()) << name << ": " << target.status().message();
    EXPECT_GE((*target)->description().parallelUnits, 1) << name;
    EXPECT_FALSE((*target)->identity().empty()) << name;
    // Code that runs on the host records the CPU it was generated for.
    EXPECT_EQ((*target)->hostCpu().has_value(), name != "sm_90" && name != "gfx942") << name;
  }
#if XSTITCH_HAS_AMDGPU
  // Planning follows the preset's wavefront.
  absl::StatusOr<std::unique_ptr<BackendTarget>> wave32 =
      resolveBackendTarget(parsed("amdgpu-sim:gfx1100"), CodegenOptions());
  absl::StatusOr<std::unique_ptr<BackendTarget>> wave64 =
      resolveBackendTarget(parsed("gfx942"), CodegenOptions());
  ASSERT_TRUE(wave32.ok() && wave64.ok());
  EXPECT_EQ((*wave32)->description().warpWidth, 32);
  EXPECT_EQ((*wave64)->description().warpWidth, 64);
  EXPECT_EQ((*wave64)->description().lanesPerBlock % 64, 0);
#endif
  // The simulation plans for the GPU it simulates.
  absl::StatusOr<std::unique_ptr<BackendTarget>> sm80 =
      resolveBackendTarget(parsed("nvptx-sim:sm_80"), CodegenOptions());
  absl::StatusOr<std::unique_ptr<BackendTarget>> sm90 =
      resolveBackendTarget(parsed("sm_90"), CodegenOptions());
  ASSERT_TRUE(sm80.ok() && sm90.ok());
  EXPECT_NE((*sm80)->identity().find("sm_80"), std::string::npos);
  EXPECT_NE((*sm80)->description().parallelUnits, (*sm90)->description().parallelUnits);
  // A preset xstitch does not have is the backend's to refuse.
  absl::StatusOr<std::unique_ptr<BackendTarget>> unknown =
      resolveBackendTarget(parsed("nvptx-sim:sm_99"), CodegenOptions());
  EXPECT_FALSE(unknown.ok());
}

TEST(DeviceRegistryTest, EmitFormatsFollowTheBackend) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(
      "func @f(%x: f32[N]) -> (y) {\n  %y = exp %x\n  return %y\n}\n", defaultPipeline());
  ASSERT_TRUE(module.ok());
  const Function &function = *(*module)->functions().front();
  CompileOptions options;
  options.cpu = "x86-64-v3";
  EXPECT_EQ(emitFormats(options), (std::vector<std::string_view>{"llvm", "llvm-unopt"}));
  absl::StatusOr<std::string> ptxOnCpu = emitKernels(function, options, "ptx");
  ASSERT_FALSE(ptxOnCpu.ok());
  EXPECT_EQ(ptxOnCpu.status().message(),
            "--emit=ptx is not code for cpu; its code is llvm or llvm-unopt");
  options.device = "sm_80";
  absl::StatusOr<std::string> ptx = emitKernels(function, options, "ptx");
  ASSERT_TRUE(ptx.ok()) << ptx.status().message();
  EXPECT_NE(ptx->find(".target sm_80"), std::string::npos);
  // Code for a preset compiles without a GPU but does not load anywhere here.
  absl::StatusOr<CompiledProgram> program = compileProgram(function, options);
  ASSERT_TRUE(program.ok()) << program.status().message();
  absl::StatusOr<std::shared_ptr<Executable>> loaded = loadProgram(*program, options);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message(), "sm_80 is a compile target; run its code on cuda:0");

#if XSTITCH_HAS_AMDGPU
  // An AMD preset's code is an HSA code object.
  options.device = "gfx942";
  EXPECT_EQ(emitFormats(options),
            (std::vector<std::string_view>{"amdgcn", "hsaco", "amdgpu-llvm"}));
  absl::StatusOr<std::string> amdgcn = emitKernels(function, options, "amdgcn");
  ASSERT_TRUE(amdgcn.ok()) << amdgcn.status().message();
  EXPECT_NE(amdgcn->find(".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\""), std::string::npos);
  absl::StatusOr<CompiledProgram> hsaco = compileProgram(function, options);
  ASSERT_TRUE(hsaco.ok()) << hsaco.status().message();
  EXPECT_EQ(hsaco->objectFormat, "hsaco");
  ASSERT_EQ(hsaco->objects.size(), 1u);
  EXPECT_EQ(hsaco->objects[0].substr(0, 4), "\x7f"
                                            "ELF");
#endif
}

} // namespace
} // namespace xs
