#include "api/ApiObjects.h"

#include <algorithm>

#include <mutex>
#include <shared_mutex>

#include "absl/container/flat_hash_map.h"
#include "api/DLPackTensors.h"
#include "ir/Diagnostics.h"

namespace xs::api {

namespace {

const char *kindName(ObjectKind kind) {
  switch (kind) {
  case ObjectKind::Context:
    return "context";
  case ObjectKind::Module:
    return "module";
  case ObjectKind::Executable:
    return "executable";
  }
  return "object";
}

/// Every live handle and its kind. Never destroyed: handles may be released
/// by static destructors of the caller's, after this library's would run.
struct Registry {
  std::shared_mutex mutex;
  absl::flat_hash_map<const void *, ObjectKind> live;
};
Registry &registry() {
  static Registry *instance = new Registry();
  return *instance;
}

} // namespace

void registerObject(ApiObject *object) {
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  r.live[object] = object->kind;
}

absl::StatusOr<ApiObject *> lookupObject(const void *handle, ObjectKind kind, const char *what) {
  if (handle == nullptr)
    return absl::InvalidArgumentError(
        strCat(what, " is NULL; pass an ", kindName(kind), " from xs_", kindName(kind), "_create"));
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.live.find(handle);
  if (it == r.live.end())
    return absl::InvalidArgumentError(strCat(what, " is not a live ", kindName(kind),
                                             " (released, or never created by xstitch)"));
  if (it->second != kind)
    return absl::InvalidArgumentError(
        strCat(what, " is a ", kindName(it->second), ", not an ", kindName(kind)));
  return static_cast<ApiObject *>(const_cast<void *>(handle));
}

ApiObject *findObject(const void *handle, ObjectKind kind) noexcept {
  if (handle == nullptr)
    return nullptr;
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.live.find(handle);
  if (it == r.live.end() || it->second != kind)
    return nullptr;
  return static_cast<ApiObject *>(const_cast<void *>(handle));
}

void retainObject(const void *handle, ObjectKind kind) {
  if (ApiObject *object = findObject(handle, kind))
    object->references.fetch_add(1, std::memory_order_relaxed);
}

void releaseObject(const void *handle, ObjectKind kind) {
  ApiObject *object = nullptr;
  {
    Registry &r = registry();
    std::unique_lock<std::shared_mutex> lock(r.mutex);
    auto it = r.live.find(handle);
    if (it == r.live.end() || it->second != kind)
      return;
    object = static_cast<ApiObject *>(const_cast<void *>(handle));
    if (object->references.fetch_sub(1, std::memory_order_acq_rel) != 1)
      return;
    r.live.erase(it);
  }
  delete object;
}

TensorDescription describeTensorType(std::string name, const TensorType &type,
                                     std::vector<std::string> &symbols) {
  TensorDescription desc;
  desc.name = std::move(name);
  desc.type = type.elementType();
  desc.dtype = dlpackType(desc.type);
  for (int64_t i = 0; i < type.rank(); ++i) {
    const DimExpr &d = type.dim(i);
    desc.expressions.push_back(d.str());
    for (const std::string &symbol : d.symbols())
      if (std::find(symbols.begin(), symbols.end(), symbol) == symbols.end())
        symbols.push_back(symbol);
  }
  // The strings are in place: point at them.
  for (int64_t i = 0; i < type.rank(); ++i) {
    std::optional<int64_t> size = type.dim(i).constantValue();
    desc.dims.push_back(
        xs_dim_t{size.value_or(-1), desc.expressions[static_cast<size_t>(i)].c_str()});
  }
  return desc;
}

} // namespace xs::api
