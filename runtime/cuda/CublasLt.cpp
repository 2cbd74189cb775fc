#include "runtime/cuda/CublasLt.h"

#include <mutex>

#include "ir/Diagnostics.h"
#include "runtime/SharedLibrary.h"

namespace xs::cuda {

absl::StatusOr<std::unique_ptr<CublasLtLibrary>> CublasLtLibrary::load(const std::string &library) {
  absl::StatusOr<void *> handle = openSharedLibrary(library);
  if (!handle.ok())
    return absl::FailedPreconditionError(
        strCat(library, " cannot be loaded (", handle.status().message(), ")"));
  // The handle stays open for the life of the process, as the driver's.
  auto lt = std::make_unique<CublasLtLibrary>();
  EntryPoints take(*handle, library, "xstitch needs cuBLASLt 11 or newer");
  take("cublasLtCreate", lt->cublasLtCreate);
  take("cublasLtDestroy", lt->cublasLtDestroy);
  take("cublasLtGetVersion", lt->cublasLtGetVersion);
  take("cublasLtGetStatusName", lt->cublasLtGetStatusName);
  take("cublasLtGetStatusString", lt->cublasLtGetStatusString);
  take("cublasLtMatmulDescCreate", lt->cublasLtMatmulDescCreate);
  take("cublasLtMatmulDescDestroy", lt->cublasLtMatmulDescDestroy);
  take("cublasLtMatrixLayoutCreate", lt->cublasLtMatrixLayoutCreate);
  take("cublasLtMatrixLayoutDestroy", lt->cublasLtMatrixLayoutDestroy);
  take("cublasLtMatrixLayoutSetAttribute", lt->cublasLtMatrixLayoutSetAttribute);
  take("cublasLtMatmulPreferenceCreate", lt->cublasLtMatmulPreferenceCreate);
  take("cublasLtMatmulPreferenceDestroy", lt->cublasLtMatmulPreferenceDestroy);
  take("cublasLtMatmulPreferenceSetAttribute", lt->cublasLtMatmulPreferenceSetAttribute);
  take("cublasLtMatmulAlgoGetHeuristic", lt->cublasLtMatmulAlgoGetHeuristic);
  take("cublasLtMatmul", lt->cublasLtMatmul);
  if (!take.status().ok()) {
    dlclose(*handle);
    return take.status();
  }
  return lt;
}

absl::StatusOr<const CublasLtLibrary *> CublasLtLibrary::get() {
  static std::once_flag once;
  static absl::StatusOr<std::unique_ptr<CublasLtLibrary>> *loaded = nullptr;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string &name : cublasLtLibraries()) {
      absl::StatusOr<std::unique_ptr<CublasLtLibrary>> library = load(name);
      if (library.ok()) {
        loaded = new absl::StatusOr<std::unique_ptr<CublasLtLibrary>>(std::move(library));
        return;
      }
      tried += strCat(tried.empty() ? "" : "; ", library.status().message());
    }
    loaded = new absl::StatusOr<std::unique_ptr<CublasLtLibrary>>(absl::FailedPreconditionError(
        strCat("cuBLASLt is not installed where xstitch looks for it: ", tried,
               ". Install CUDA's cuBLAS (libcublasLt.so) or add its folder to LD_LIBRARY_PATH")));
  });
  if (!loaded->ok())
    return loaded->status();
  return loaded->value().get();
}

absl::Status CublasLtLibrary::check(CublasStatus status, std::string_view call) const {
  if (status == 0)
    return absl::OkStatus();
  const char *name = cublasLtGetStatusName ? cublasLtGetStatusName(status) : nullptr;
  const char *text = cublasLtGetStatusString ? cublasLtGetStatusString(status) : nullptr;
  return absl::InternalError(strCat(call, ": ", name ? name : strCat("cuBLAS status ", status),
                                    text ? strCat(" (", text, ")") : std::string()));
}

std::string CublasLtLibrary::version() const {
  return strCat("cuBLASLt ", cublasLtGetVersion ? cublasLtGetVersion() : 0);
}

} // namespace xs::cuda
