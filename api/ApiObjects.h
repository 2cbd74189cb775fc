#ifndef XSTITCH_API_APIOBJECTS_H
#define XSTITCH_API_APIOBJECTS_H

// The objects behind the C API's handles, the registry that tells a live
// handle from a NULL, released or foreign one, and the guard every entry
// point runs its body in (no exception crosses the C API).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "driver/CompileCache.h"
#include "driver/Compiler.h"
#include "driver/DiskCache.h"
#include "include/xstitch/xstitch.h"
#include "ir/IR.h"
#include "runtime/Executable.h"

namespace xs::api {

enum class ObjectKind : uint8_t { Context, Module, Executable };

/// What every handle points at: a reference count and its kind.
struct ApiObject {
  explicit ApiObject(ObjectKind kind) : kind(kind) {}
  virtual ~ApiObject() = default;
  const ObjectKind kind;
  std::atomic<int64_t> references{1};
};

/// Records `object` as live (call once, right after creating it).
void registerObject(ApiObject *object);
/// The live object `handle` points at when it is of `kind`; else an
/// InvalidArgument error naming `what` (NULL, released, or another kind).
absl::StatusOr<ApiObject *> lookupObject(const void *handle, ObjectKind kind, const char *what);
/// The same without a message, for calls documented as infallible: the
/// object, or nullptr.
ApiObject *findObject(const void *handle, ObjectKind kind) noexcept;
/// Adds a reference to a live handle of `kind`; anything else is ignored.
void retainObject(const void *handle, ObjectKind kind);
/// Drops a reference; the last one unregisters and deletes the object.
void releaseObject(const void *handle, ObjectKind kind);

/// A status for the C API: NULL for OK.
xs_status_t toApiStatus(const absl::Status &status);

/// Runs `body` (returning absl::Status) and turns what it returns, or an
/// exception it throws, into an xs_status_t.
template <typename Body> xs_status_t guarded(Body &&body) noexcept {
  try {
    return toApiStatus(body());
  } catch (const std::bad_alloc &) {
    return toApiStatus(absl::ResourceExhaustedError("out of host memory"));
  } catch (const std::exception &e) {
    return toApiStatus(absl::InternalError(std::string("unexpected exception: ") + e.what()));
  } catch (...) {
    return toApiStatus(absl::InternalError("unexpected exception"));
  }
}

/// A caller's enum as an int, read without assuming it holds one of the
/// enumerators: a C caller may pass any int, and loading such a value as
/// the C++ enum type is undefined.
template <typename Enum> int enumValue(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int));
  int raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

/// Whether a caller's versioned struct `s` (not NULL) has field `field`: its
/// struct_size covers it (a caller built against an older header may not).
#define XS_API_HAS(s, field)                                                                       \
  ((s)->struct_size >= offsetof(std::remove_cvref_t<decltype(*(s))>, field) + sizeof((s)->field))

/// Reads field `field` of a caller's versioned struct when it has it, else
/// `fallback`.
#define XS_API_FIELD(s, field, fallback)                                                           \
  ((s) != nullptr && XS_API_HAS(s, field) ? (s)->field : (fallback))

/// Writes field `field` of a caller's versioned struct (not NULL) when it
/// has it.
#define XS_API_SET(s, field, value)                                                                \
  do {                                                                                             \
    if (XS_API_HAS(s, field))                                                                      \
      (s)->field = (value);                                                                        \
  } while (false)

} // namespace xs::api

/// A context: options for compiles, and its compile cache.
struct xs_context_s : xs::api::ApiObject {
  xs_context_s() : ApiObject(xs::api::ObjectKind::Context) {}
  int threads = 0;
  std::unique_ptr<xs::CompileCache> cache;
  xs::DiskCacheOptions diskCache;
};

/// A module: canonicalized functions, and for an ONNX model the graph's
/// input and output names (its one function's parameters and results).
struct xs_module_s : xs::api::ApiObject {
  xs_module_s() : ApiObject(xs::api::ObjectKind::Module) {}
  std::unique_ptr<xs::Module> module;
  std::vector<std::string> functionNames;
  std::vector<std::string> onnxInputNames, onnxOutputNames;
};

namespace xs::api {

/// An input's or output's description, with storage for what xs_dim_t and
/// xs_tensor_desc_t point at.
struct TensorDescription {
  std::string name;
  ElementType type = ElementType::F32;
  DLDataType dtype{};
  std::vector<std::string> expressions;
  std::vector<xs_dim_t> dims;
};

/// The description of a tensor of `type` called `name`; symbols its dims
/// use that `symbols` lacks are appended to it.
TensorDescription describeTensorType(std::string name, const TensorType &type,
                                     std::vector<std::string> &symbols);

} // namespace xs::api

/// An executable: the runtime's, its interface, and its context kept alive.
struct xs_executable_s : xs::api::ApiObject {
  xs_executable_s() : ApiObject(xs::api::ObjectKind::Executable) {}
  ~xs_executable_s() override;
  xs_context_s *context = nullptr; // one reference held
  std::shared_ptr<xs::Executable> executable;
  std::string device, function;
  /// The GPU it runs on, as DLPack names it (kDLCUDA for cuda:N, kDLROCM
  /// for hip:N); nullopt for the CPU and simulations.
  std::optional<DLDevice> gpu;
  std::vector<xs::api::TensorDescription> inputs, outputs;
  std::vector<std::string> symbols;
  xs::CompileInfo compileInfo;
  std::string compileWarning; // compileInfo's warnings, joined (xs_compile_info_t::warning)
};

#endif // XSTITCH_API_APIOBJECTS_H
