#ifndef XSTITCH_TESTS_API_CAPITESTSUPPORT_H
#define XSTITCH_TESTS_API_CAPITESTSUPPORT_H

// What the C API tests share: statuses as gtest assertions, handles that
// release themselves, and DLTensors over vectors. Only the public header:
// these tests link libxstitch.so as an integrator does.

#include <memory>
#include <string>
#include <vector>

#include "xstitch/xstitch.h"
#include "gtest/gtest.h"

namespace xs::apitest {

/// Takes a status: empty for success, else "CODE: message"; frees it.
inline std::string take(xs_status_t status) {
  if (status == nullptr)
    return "";
  std::string text =
      std::string(xs_status_code_name(xs_status_code(status))) + ": " + xs_status_message(status);
  xs_status_free(status);
  return text;
}

#define XS_ASSERT_OK(expr)                                                                         \
  do {                                                                                             \
    std::string xsError = ::xs::apitest::take(expr);                                               \
    ASSERT_TRUE(xsError.empty()) << xsError;                                                       \
  } while (false)

struct ContextDeleter {
  void operator()(xs_context_t *c) const { xs_context_release(c); }
};
struct ModuleDeleter {
  void operator()(xs_module_t *m) const { xs_module_release(m); }
};
struct ExecutableDeleter {
  void operator()(xs_executable_t *e) const { xs_executable_release(e); }
};
struct ManagedDeleter {
  void operator()(DLManagedTensor *t) const {
    if (t != nullptr && t->deleter != nullptr)
      t->deleter(t);
  }
};
using Context = std::unique_ptr<xs_context_t, ContextDeleter>;
using ModulePtr = std::unique_ptr<xs_module_t, ModuleDeleter>;
using ExecutablePtr = std::unique_ptr<xs_executable_t, ExecutableDeleter>;
using Managed = std::unique_ptr<DLManagedTensor, ManagedDeleter>;

/// A DLTensor over `data` with `shape` (kept by the caller).
template <typename T>
DLTensor tensorOf(std::vector<T> &data, std::vector<int64_t> &shape, DLDataType dtype) {
  DLTensor t{};
  t.data = data.data();
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = static_cast<int32_t>(shape.size());
  t.dtype = dtype;
  t.shape = shape.data();
  return t;
}

inline constexpr DLDataType kF32{kDLFloat, 32, 1};
inline constexpr DLDataType kF64{kDLFloat, 64, 1};
inline constexpr DLDataType kI64{kDLInt, 64, 1};

/// A module from text IR; fails the test on error.
inline ModulePtr moduleFromText(const std::string &text) {
  xs_module_t *module = nullptr;
  std::string error = take(xs_module_create_from_bytes(text.data(), text.size(), nullptr, &module));
  EXPECT_TRUE(error.empty()) << error;
  return ModulePtr(module);
}

inline ExecutablePtr compile(xs_context_t *context, xs_module_t *module,
                             const char *device = "cpu") {
  xs_compile_options_t options;
  xs_compile_options_init(&options);
  options.device = device;
  xs_executable_t *executable = nullptr;
  std::string error = take(xs_executable_compile(context, module, &options, &executable));
  EXPECT_TRUE(error.empty()) << error;
  return ExecutablePtr(executable);
}

inline Context newContext() {
  xs_context_t *context = nullptr;
  std::string error = take(xs_context_create(nullptr, &context));
  EXPECT_TRUE(error.empty()) << error;
  return Context(context);
}

/// Run arguments over `inputs`, writing into `outputs` (one per output),
/// or handing allocated outputs out through `managed`.
inline xs_run_args_t runArgs(const std::vector<DLTensor> &inputs, const DLTensor *outputs,
                             size_t numOutputs, DLManagedTensor **managed = nullptr) {
  xs_run_args_t args;
  xs_run_args_init(&args);
  args.inputs = inputs.data();
  args.num_inputs = inputs.size();
  args.outputs = outputs;
  args.num_outputs = numOutputs;
  args.out_managed = managed;
  return args;
}
inline xs_run_args_t runArgs(const std::vector<DLTensor> &inputs, DLManagedTensor **managed) {
  return runArgs(inputs, nullptr, 0, managed);
}

inline uint64_t bytesCopiedSoFar() {
  xs_stats_t stats;
  xs_stats_init(&stats);
  EXPECT_EQ(take(xs_stats_get(&stats)), "");
  return stats.bytes_copied;
}

} // namespace xs::apitest

#endif // XSTITCH_TESTS_API_CAPITESTSUPPORT_H
