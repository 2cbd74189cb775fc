// Compiled programs as bytes: a serialized program loads and runs as the one
// compiled in this process does; program files refuse what is not theirs
// (another format, truncation, corruption) with errors, never crashes; the
// object loader refuses foreign objects; the persistent compile cache
// stores, loads, treats bad entries as misses with a warning, and keeps to
// its size bound, least recently used entries first.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "driver/Compiler.h"
#include "driver/DiskCache.h"
#include "ir/ByteStream.h"
#include "ir/HostPlanSerialization.h"
#include "runtime/ProgramFile.h"
#include "runtime/cpu/ObjectLoader.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

namespace fs = std::filesystem;

// Constants, a host symbol, a library step (dot), a reshape (an alias) and
// stitched kernels with several launch variants.
constexpr const char *kGraph = R"(
func @f(%x: f32[N, 64], %w: f32[64, 32]) -> (y, z)
    host_symbols H {
      %n = dim_value {dims = [N]} : i64[]
      %two = constant {value = 2} : i64[]
      %h = mul %n, %two : i64[]
      return %h
    } {
  %c = constant {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0]>} : f32[64]
  %cb = broadcast %c {dims = [1]} : f32[N, 64]
  %s = add %x, %cb
  %e = exp %s
  %m = reduce_sum %e {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[N, 64]
  %p = div %e, %mb
  %d = dot %p, %w : f32[N, 32]
  %y = reshape %d : f32[N*32]
  %i = iota {dim = 1} : f32[N, H]
  %z = mul %i, %i
  return %y, %z
}
)";

struct Compiled {
  std::unique_ptr<Module> module;
  const Function *function = nullptr;
};

Compiled parse() {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(kGraph, defaultPipeline());
  EXPECT_TRUE(module.ok()) << module.status().message();
  Compiled c;
  c.module = *std::move(module);
  c.function = c.module->functions().front().get();
  return c;
}

std::vector<HostTensor> inputsFor(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return {randomTensor(ElementType::F32, {n, 64}, defaultRandomRange(ElementType::F32), rng),
          randomTensor(ElementType::F32, {64, 32}, defaultRandomRange(ElementType::F32), rng)};
}

void expectSameResults(const Executable &a, const Executable &b) {
  for (int64_t n : {1, 7, 300}) {
    std::vector<HostTensor> inputs = inputsFor(n, static_cast<uint64_t>(n));
    absl::StatusOr<std::vector<HostTensor>> x = runExecutable(a, inputs);
    absl::StatusOr<std::vector<HostTensor>> y = runExecutable(b, inputs);
    ASSERT_TRUE(x.ok()) << x.status().message();
    ASSERT_TRUE(y.ok()) << y.status().message();
    ASSERT_EQ(x->size(), y->size());
    for (size_t i = 0; i < x->size(); ++i) {
      EXPECT_EQ((*x)[i].shape(), (*y)[i].shape());
      EXPECT_EQ((*x)[i].floats(), (*y)[i].floats()) << "result " << i << " at N = " << n;
    }
  }
}

TEST(ProgramSerializationTest, ARoundTripKeepsThePlanAndRunsTheSame) {
  Compiled c = parse();
  CompileOptions options;
  options.useCache = false;
  absl::StatusOr<CompiledProgram> program = compileProgram(*c.function, options);
  ASSERT_TRUE(program.ok()) << program.status().message();
  std::string bytes = serializeProgram(*program);
  absl::StatusOr<CompiledProgram> back = deserializeProgram(bytes);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(printHostPlan(back->host), printHostPlan(program->host));
  EXPECT_EQ(back->objects, program->objects);
  EXPECT_EQ(back->objectFormat, program->objectFormat);
  EXPECT_EQ(back->streamingStoreBytes, program->streamingStoreBytes);
  EXPECT_EQ(serializeProgram(*back), bytes) << "serializing what was read gives the same bytes";

  absl::StatusOr<std::shared_ptr<Executable>> original = loadProgram(*std::move(program), options);
  absl::StatusOr<std::shared_ptr<Executable>> loaded = loadProgram(*std::move(back), options);
  ASSERT_TRUE(original.ok()) << original.status().message();
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  expectSameResults(**original, **loaded);
}

TEST(ProgramSerializationTest, EveryTruncationIsAnError) {
  Compiled c = parse();
  CompileOptions options;
  options.useCache = false;
  absl::StatusOr<CompiledProgram> program = compileProgram(*c.function, options);
  ASSERT_TRUE(program.ok());
  std::string bytes = serializeProgram(*program);
  // Objects are most of the bytes; every cut inside the plan and a sample of
  // the rest.
  for (size_t cut = 0; cut < bytes.size(); cut += (cut < 4096 ? 1 : 997)) {
    absl::StatusOr<CompiledProgram> back = deserializeProgram(bytes.substr(0, cut));
    ASSERT_FALSE(back.ok()) << "a program cut at " << cut << " of " << bytes.size() << " bytes";
  }
  // Random bytes in the plan: an error or a plan (never a crash).
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string damaged = bytes;
    size_t at = rng() % std::min<size_t>(damaged.size(), 4096);
    damaged[at] = static_cast<char>(rng());
    (void)deserializeProgram(damaged);
  }
}

TEST(ProgramFileTest, RefusesWhatIsNotAWholeProgramFileOfThisVersion) {
  Compiled c = parse();
  CompileOptions options;
  options.useCache = false;
  absl::StatusOr<CompiledProgram> program = compileProgram(*c.function, options);
  ASSERT_TRUE(program.ok());
  ProgramFile file{programFileHeader(*c.function, options), *program};
  file.header.kind = "bundle";
  std::string bytes = encodeProgramFile(file);

  absl::StatusOr<ProgramFile> back = decodeProgramFile(bytes, "m.xsb");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->header.kind, "bundle");
  EXPECT_EQ(back->header.device, "cpu");
  EXPECT_FALSE(back->header.features.empty()) << "x86 code records the features it assumes";

  absl::StatusOr<ProgramFile> text = decodeProgramFile("func @f() -> () {}", "m.xsb");
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(text.status().message().find("not an xstitch program file"), std::string::npos);

  std::string newer = bytes;
  newer[8] = static_cast<char>(kProgramFileVersion + 1);
  absl::StatusOr<ProgramFile> future = decodeProgramFile(newer, "m.xsb");
  EXPECT_EQ(future.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(future.status().message().find("format version"), std::string::npos)
      << future.status().message();

  absl::StatusOr<ProgramFile> cut = decodeProgramFile(bytes.substr(0, bytes.size() / 2), "m.xsb");
  EXPECT_EQ(cut.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(cut.status().message().find("m.xsb"), std::string::npos);

  std::string flipped = bytes;
  flipped[bytes.size() - 100] ^= 0x10;
  absl::StatusOr<ProgramFile> corrupt = decodeProgramFile(flipped, "m.xsb");
  EXPECT_EQ(corrupt.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(corrupt.status().message().find("checksum"), std::string::npos);
}

TEST(ObjectLoaderTest, ForeignObjectsAreErrors) {
  for (std::string bytes : {std::string(),
                            std::string("\x7f"
                                        "ELF",
                                        4),
                            std::string(64, '\0'), std::string(1000, 'x')}) {
    absl::StatusOr<std::unique_ptr<LoadedObject>> loaded = LoadedObject::load({bytes}, {"k0"});
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInternal);
    EXPECT_NE(loaded.status().message().find("k0"), std::string::npos);
  }
  // A real object with its section headers cut off or damaged.
  Compiled c = parse();
  CompileOptions options;
  absl::StatusOr<CompiledProgram> program = compileProgram(*c.function, options);
  ASSERT_TRUE(program.ok());
  const std::string &object = program->objects.front();
  EXPECT_FALSE(LoadedObject::load({object.substr(0, object.size() / 2)}, {"k0"}).ok());
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::string damaged = object;
    // The ELF header and the section headers at the end.
    size_t at = trial % 2 ? rng() % 64 : damaged.size() - 1 - rng() % 512;
    damaged[at] = static_cast<char>(rng());
    (void)LoadedObject::load({damaged}, {"k0"}); // an error or a load, never a crash
  }
}

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("xstitch-disk-cache-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t entries() const {
    size_t n = 0;
    if (fs::exists(dir_))
      for (const auto &e : fs::directory_iterator(dir_))
        n += e.path().extension() == ".xsc";
    return n;
  }
  fs::path dir_;
};

TEST_F(DiskCacheTest, ASecondCompileLoadsFromDiskAndRunsTheSame) {
  Compiled c = parse();
  CompileOptions options;
  options.diskCache.directory = dir_.string();
  options.streamingStoreBytes = 12345; // a key no other test compiles
  CompileCache memory;
  CompileInfo first;
  absl::StatusOr<std::shared_ptr<Executable>> a =
      compileFunction(*c.function, options, memory, &first);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(first.source, ExecutableSource::Compiled);
  EXPECT_TRUE(first.warnings.empty());
  EXPECT_EQ(entries(), 1u);

  CompileCache freshProcess; // a new process: nothing in memory
  CompileInfo second;
  int64_t before = compilerCounters().compilations;
  absl::StatusOr<std::shared_ptr<Executable>> b =
      compileFunction(*c.function, options, freshProcess, &second);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(second.source, ExecutableSource::Disk);
  EXPECT_EQ(compilerCounters().compilations, before) << "a disk hit compiles nothing";
  expectSameResults(**a, **b);

  CompileInfo third;
  ASSERT_TRUE(compileFunction(*c.function, options, freshProcess, &third).ok());
  EXPECT_EQ(third.source, ExecutableSource::Memory);
}

TEST_F(DiskCacheTest, AGarbageEntryIsAMissWithAWarning) {
  Compiled c = parse();
  CompileOptions options;
  options.diskCache.directory = dir_.string();
  options.streamingStoreBytes = 23456;
  {
    CompileCache memory;
    ASSERT_TRUE(compileFunction(*c.function, options, memory).ok());
  }
  ASSERT_EQ(entries(), 1u);
  fs::path entry = fs::directory_iterator(dir_)->path();
  for (const std::string &garbage :
       {std::string("garbage"), std::string(), std::string(1 << 16, '\xff')}) {
    { std::ofstream(entry, std::ios::binary | std::ios::trunc) << garbage; }
    CompileCache memory;
    CompileInfo info;
    absl::StatusOr<std::shared_ptr<Executable>> e =
        compileFunction(*c.function, options, memory, &info);
    ASSERT_TRUE(e.ok()) << e.status().message();
    EXPECT_EQ(info.source, ExecutableSource::Compiled);
    ASSERT_EQ(info.warnings.size(), 1u);
    EXPECT_NE(info.warnings[0].find(entry.string()), std::string::npos) << info.warnings[0];
    EXPECT_EQ(entries(), 1u) << "the compile replaced the bad entry";
  }
  // Truncated: a real entry cut short.
  std::string bytes(mapWholeFile(entry.string())->bytes);
  { std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 1); }
  CompileCache memory;
  CompileInfo info;
  ASSERT_TRUE(compileFunction(*c.function, options, memory, &info).ok());
  EXPECT_EQ(info.source, ExecutableSource::Compiled);
  ASSERT_EQ(info.warnings.size(), 1u);
  EXPECT_NE(info.warnings[0].find("truncated"), std::string::npos) << info.warnings[0];
}

TEST_F(DiskCacheTest, AnEntryOfAnotherKeyIsAMiss) {
  ProgramFile file;
  file.header.kind = "cache";
  file.header.key = "key one";
  DiskCacheOptions options{dir_.string(), kDefaultCacheMaxBytes};
  ASSERT_TRUE(storeDiskCacheEntry(options, file).ok());
  std::string warning;
  EXPECT_TRUE(loadDiskCacheEntry(options, "key one", &warning).has_value());
  // A colliding hash: the entry of "key one" under the name of "key two".
  fs::rename(diskCacheEntryPath(dir_.string(), "key one"),
             diskCacheEntryPath(dir_.string(), "key two"));
  EXPECT_FALSE(loadDiskCacheEntry(options, "key two", &warning).has_value());
  EXPECT_NE(warning.find("another graph"), std::string::npos) << warning;
}

TEST_F(DiskCacheTest, TheSizeBoundEvictsTheLeastRecentlyUsed) {
  auto fileOf = [](const std::string &key) {
    ProgramFile file;
    file.header.kind = "cache";
    file.header.key = key;
    file.program.objects = {std::string(10000, 'o')};
    return file;
  };
  size_t entryBytes = encodeProgramFile(fileOf("a")).size();
  DiskCacheOptions options{dir_.string(), static_cast<int64_t>(3 * entryBytes + entryBytes / 2)};
  std::string warning;
  for (const char *key : {"a", "b", "c"})
    ASSERT_TRUE(storeDiskCacheEntry(options, fileOf(key)).ok());
  // Older modification times than the next store's, a second apart: "a"
  // used last.
  auto now = fs::file_time_type::clock::now();
  fs::last_write_time(diskCacheEntryPath(dir_.string(), "b"), now - std::chrono::seconds(30));
  fs::last_write_time(diskCacheEntryPath(dir_.string(), "c"), now - std::chrono::seconds(20));
  fs::last_write_time(diskCacheEntryPath(dir_.string(), "a"), now - std::chrono::seconds(40));
  ASSERT_TRUE(loadDiskCacheEntry(options, "a", &warning).has_value()); // marks "a" used now
  ASSERT_TRUE(storeDiskCacheEntry(options, fileOf("d")).ok());
  EXPECT_EQ(entries(), 3u);
  EXPECT_FALSE(fs::exists(diskCacheEntryPath(dir_.string(), "b"))) << "least recently used";
  for (const char *kept : {"a", "c", "d"})
    EXPECT_TRUE(fs::exists(diskCacheEntryPath(dir_.string(), kept))) << kept;
}

TEST_F(DiskCacheTest, ConcurrentStoresLeaveOneWholeEntry) {
  ProgramFile file;
  file.header.kind = "cache";
  file.header.key = "same";
  file.program.objects = {std::string(1 << 20, 'o')};
  DiskCacheOptions options{dir_.string(), kDefaultCacheMaxBytes};
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&] { EXPECT_TRUE(storeDiskCacheEntry(options, file).ok()); });
  for (std::thread &t : writers)
    t.join();
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1)
      << "one entry and no temporary files";
  std::string warning;
  EXPECT_TRUE(loadDiskCacheEntry(options, "same", &warning).has_value()) << warning;
}

TEST(DiskCacheOptionsTest, OffAndDirectories) {
  EXPECT_TRUE(diskCacheOptionsFor("off").directory.empty());
  EXPECT_EQ(diskCacheOptionsFor("/some/where").directory, "/some/where");
  EXPECT_EQ(diskCacheOptionsFor("/x", 1000).maxBytes, 1000);
}

} // namespace
} // namespace xs
