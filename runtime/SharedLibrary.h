#ifndef XSTITCH_RUNTIME_SHAREDLIBRARY_H
#define XSTITCH_RUNTIME_SHAREDLIBRARY_H

// Libraries loaded at run time (dlopen) rather than linked: GPU drivers and
// vendor libraries (libcuda, cuBLASLt, HIP), so that the build needs none of
// them and a machine without one gets an error that says what is missing.
// Handles stay open for the life of the process: kernels and memory live in
// those libraries.

#include <dlfcn.h>

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/Diagnostics.h"

namespace xs {

/// dlopen(`library`); the error is the loader's reason ("not found" where it
/// gives none), for the caller to say what the library is for.
inline absl::StatusOr<void *> openSharedLibrary(const std::string &library) {
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *why = dlerror();
    return absl::NotFoundError(why ? why : "not found");
  }
  return handle;
}

/// Resolves a library's entry points into function-pointer slots; the first
/// one missing makes status() an error: "LIBRARY has no entry point NAME;
/// WHY" (`why`: what a missing one means, e.g. a driver too old).
class EntryPoints {
public:
  EntryPoints(void *handle, std::string library, std::string why)
      : handle_(handle), library_(std::move(library)), why_(std::move(why)) {}

  template <typename Fn> void operator()(const char *name, Fn &slot) {
    if (!status_.ok())
      return;
    void *symbol = dlsym(handle_, name);
    if (symbol == nullptr)
      status_ =
          absl::FailedPreconditionError(strCat(library_, " has no entry point ", name, "; ", why_));
    else
      slot = reinterpret_cast<Fn>(symbol);
  }

  const absl::Status &status() const { return status_; }

private:
  void *handle_;
  std::string library_;
  std::string why_;
  absl::Status status_ = absl::OkStatus();
};

} // namespace xs

#endif // XSTITCH_RUNTIME_SHAREDLIBRARY_H
