// Bad use of the C API never aborts: every function is called with NULL,
// released and mistaken arguments, and must answer with a status (or the
// documented 0 / NULL of an infallible query). Run under ASan and UBSan by
// `scripts/test.sh --sanitize`, where a read of freed memory would fail.

#include <cstring>
#include <string>

#include "tests/api/CApiTestSupport.h"

namespace xs::apitest {
namespace {

constexpr const char *kAdd = R"(
func @add(%a: f32[N], %b: f32[N]) -> (c: f32[N]) {
  %c = add %a, %b
  return %c
}
)";

/// The status's message, which must be an error of `code`.
std::string expectError(xs_status_t status, xs_status_code_t code) {
  EXPECT_NE(status, nullptr);
  if (status == nullptr)
    return "";
  EXPECT_EQ(xs_status_code(status), code) << xs_status_message(status);
  std::string message = xs_status_message(status);
  EXPECT_FALSE(message.empty());
  xs_status_free(status);
  return message;
}

TEST(CApiMisuseTest, NullHandlesAndPointersAreErrors) {
  const xs_status_code_t invalid = XS_STATUS_INVALID_ARGUMENT;
  xs_context_t *context = nullptr;
  xs_module_t *module = nullptr;
  xs_executable_t *executable = nullptr;
  expectError(xs_context_create(nullptr, nullptr), invalid);
  expectError(xs_context_check_device(nullptr, "cpu"), invalid);
  expectError(xs_module_create_from_bytes(nullptr, 4, nullptr, &module), invalid);
  expectError(xs_module_create_from_bytes(kAdd, 10, nullptr, nullptr), invalid);
  expectError(xs_module_create_from_file(nullptr, nullptr, &module), invalid);
  expectError(xs_executable_compile(nullptr, nullptr, nullptr, &executable), invalid);
  expectError(xs_executable_input_desc(nullptr, 0, nullptr), invalid);
  expectError(xs_executable_output_desc(nullptr, 0, nullptr), invalid);
  expectError(xs_executable_run(nullptr, nullptr), invalid);
  expectError(xs_executable_compile_info(nullptr, nullptr), invalid);
  size_t count = 0;
  expectError(xs_executable_output_shapes(nullptr, nullptr, 0, nullptr, 0, &count), invalid);
  expectError(xs_tensor_share(nullptr, nullptr), invalid);
  DLManagedTensor *shared = nullptr;
  expectError(xs_tensor_share(nullptr, &shared), invalid);
  expectError(xs_stats_get(nullptr), invalid);
  xs_stats_t unset{};
  expectError(xs_stats_get(&unset), invalid);
  // Infallible calls answer 0 or NULL.
  EXPECT_EQ(xs_module_function_count(nullptr), 0u);
  EXPECT_EQ(xs_module_function_name(nullptr, 0), nullptr);
  EXPECT_EQ(xs_executable_device(nullptr), nullptr);
  EXPECT_EQ(xs_executable_function(nullptr), nullptr);
  EXPECT_EQ(xs_executable_input_count(nullptr), 0u);
  EXPECT_EQ(xs_executable_output_count(nullptr), 0u);
  EXPECT_EQ(xs_executable_dim_symbol_count(nullptr), 0u);
  EXPECT_EQ(xs_executable_dim_symbol(nullptr, 0), nullptr);
  xs_context_retain(nullptr);
  xs_context_release(nullptr);
  xs_module_retain(nullptr);
  xs_module_release(nullptr);
  xs_executable_retain(nullptr);
  xs_executable_release(nullptr);
  (void)context;
}

TEST(CApiMisuseTest, ReleasedAndMistakenHandlesAreErrors) {
  Context context = newContext();
  ModulePtr module = moduleFromText(kAdd);
  ExecutablePtr executable = compile(context.get(), module.get());
  ASSERT_NE(executable, nullptr);

  // A released module: the executable does not need it, the calls see it gone.
  xs_module_t *gone = nullptr;
  XS_ASSERT_OK(xs_module_create_from_bytes(kAdd, std::string(kAdd).size(), nullptr, &gone));
  xs_module_release(gone);
  xs_executable_t *out = nullptr;
  std::string message = expectError(xs_executable_compile(context.get(), gone, nullptr, &out),
                                    XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("released"), std::string::npos) << message;
  EXPECT_EQ(xs_module_function_count(gone), 0u);
  xs_module_release(gone); // a second release is ignored
  xs_module_retain(gone);

  // A handle of another kind, passed through a cast.
  message = expectError(xs_executable_compile(reinterpret_cast<xs_context_t *>(module.get()),
                                              module.get(), nullptr, &out),
                        XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("is a module, not an context"), std::string::npos) << message;
  EXPECT_EQ(xs_executable_input_count(reinterpret_cast<xs_executable_t *>(context.get())), 0u);
  // A pointer xstitch never made.
  int notAHandle = 0;
  expectError(xs_executable_run(reinterpret_cast<xs_executable_t *>(&notAHandle), nullptr),
              XS_STATUS_INVALID_ARGUMENT);

  // A released executable.
  xs_executable_t *released = nullptr;
  XS_ASSERT_OK(xs_executable_compile(context.get(), module.get(), nullptr, &released));
  xs_executable_release(released);
  xs_run_args_t args;
  xs_run_args_init(&args);
  expectError(xs_executable_run(released, &args), XS_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(xs_executable_device(released), nullptr);
}

TEST(CApiMisuseTest, BadOptionsAndArgumentsAreErrors) {
  Context context = newContext();
  ModulePtr module = moduleFromText(kAdd);
  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = -2;
  xs_context_t *badContext = nullptr;
  expectError(xs_context_create(&contextOptions, &badContext), XS_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(badContext, nullptr);

  xs_compile_options_t options;
  xs_compile_options_init(&options);
  options.device = "gpu";
  xs_executable_t *executable = nullptr;
  std::string message =
      expectError(xs_executable_compile(context.get(), module.get(), &options, &executable),
                  XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("unknown device 'gpu'"), std::string::npos) << message;
  options.device = "nvptx-sim:sm_80:sm_90";
  expectError(xs_executable_compile(context.get(), module.get(), &options, &executable),
              XS_STATUS_INVALID_ARGUMENT);
  options.device = "cpu";
  expectError(xs_executable_compile(context.get(), module.get(), &options, nullptr),
              XS_STATUS_INVALID_ARGUMENT);

  xs_module_options_t moduleOptions;
  xs_module_options_init(&moduleOptions);
  int seven = 7; // not a format; a C caller may pass any int
  std::memcpy(&moduleOptions.format, &seven, sizeof seven);
  xs_module_t *other = nullptr;
  expectError(xs_module_create_from_bytes(kAdd, 5, &moduleOptions, &other),
              XS_STATUS_INVALID_ARGUMENT);
  // Not a model at all, and an empty one.
  expectError(xs_module_create_from_bytes("\x08\xff\xff", 3, nullptr, &other),
              XS_STATUS_INVALID_ARGUMENT);
  XS_ASSERT_OK(xs_module_create_from_bytes("", 0, nullptr, &other));
  ModulePtr empty(other);
  EXPECT_EQ(xs_module_function_count(empty.get()), 0u);
  message = expectError(xs_executable_compile(context.get(), empty.get(), nullptr, &executable),
                        XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("no function"), std::string::npos) << message;

  // A dim no input shape gives.
  ModulePtr unbound = moduleFromText(
      "func @f(%x: f32[N]) -> (y: f32[M]) {\n  %y = iota {dim = 0} : f32[M]\n  return %y\n}\n");
  message = expectError(xs_executable_compile(context.get(), unbound.get(), nullptr, &executable),
                        XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("cannot compute dim symbol 'M'"), std::string::npos) << message;

  ExecutablePtr add = compile(context.get(), module.get());
  ASSERT_NE(add, nullptr);
  xs_tensor_desc_t desc;
  xs_tensor_desc_init(&desc);
  expectError(xs_executable_input_desc(add.get(), 0, nullptr), XS_STATUS_INVALID_ARGUMENT);
  expectError(xs_executable_compile_info(add.get(), nullptr), XS_STATUS_INVALID_ARGUMENT);
  xs_compile_options_t negativeBlocks;
  xs_compile_options_init(&negativeBlocks);
  negativeBlocks.block_elements = -1;
  expectError(xs_executable_compile(context.get(), module.get(), &negativeBlocks, &executable),
              XS_STATUS_INVALID_ARGUMENT);
  xs_compile_options_t unknownShuffles;
  xs_compile_options_init(&unknownShuffles);
  unknownShuffles.amdgpu_shuffles = "swizzle";
  message =
      expectError(xs_executable_compile(context.get(), module.get(), &unknownShuffles, &executable),
                  XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("amdgpu_shuffles is 'swizzle'; use \"dpp\", \"bpermute\" or NULL"),
            std::string::npos)
      << message;
  desc.struct_size = 0;
  expectError(xs_executable_input_desc(add.get(), 0, &desc), XS_STATUS_INVALID_ARGUMENT);
  expectError(xs_executable_output_desc(add.get(), 1, &desc), XS_STATUS_INVALID_ARGUMENT);

  // Runs: unset args, NULL inputs, a negative dim, a missing shape, NULL
  // data, a vector dtype, wrong output shapes.
  xs_run_args_t args{};
  expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  xs_run_args_init(&args);
  args.num_inputs = 2;
  expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  std::vector<float> a = {1, 2, 3}, b = {4, 5, 6}, c(3);
  std::vector<int64_t> shape = {3}, negative = {-3};
  DLTensor inputs[2] = {tensorOf(a, shape, kF32), tensorOf(b, shape, kF32)};
  DLManagedTensor *managed[1] = {nullptr};
  args.inputs = inputs;
  args.out_managed = managed;
  inputs[1].shape = negative.data();
  expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  inputs[1].shape = nullptr;
  expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  inputs[1] = tensorOf(b, shape, kF32);
  inputs[1].data = nullptr;
  message = expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("no data"), std::string::npos) << message;
  inputs[1] = tensorOf(b, shape, kF32);
  inputs[1].dtype.lanes = 4;
  message = expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("float32x4"), std::string::npos) << message;
  inputs[1] = tensorOf(b, shape, kF32);
  std::vector<int64_t> wrongShape = {4};
  std::vector<float> wrong(4);
  DLTensor output = tensorOf(wrong, wrongShape, kF32);
  args.outputs = &output;
  args.num_outputs = 1;
  message = expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("output 0 (result %c) must be f32[3] but is f32[4]"), std::string::npos)
      << message;
  args.num_outputs = 2;
  expectError(xs_executable_run(add.get(), &args), XS_STATUS_INVALID_ARGUMENT);
  size_t count = 0;
  int64_t small[1];
  expectError(xs_executable_output_shapes(add.get(), inputs, 2, small, 0, nullptr),
              XS_STATUS_INVALID_ARGUMENT);
  expectError(xs_executable_output_shapes(add.get(), inputs, 2, nullptr, 4, &count),
              XS_STATUS_INVALID_ARGUMENT);
  expectError(xs_executable_output_shapes(add.get(), inputs, 1, small, 1, &count),
              XS_STATUS_INVALID_ARGUMENT);
}

} // namespace
} // namespace xs::apitest
