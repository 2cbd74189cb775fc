#include "runtime/hip/Rocblas.h"

#include <array>
#include <mutex>

#include "ir/Diagnostics.h"
#include "runtime/SharedLibrary.h"

namespace xs::hip {

absl::StatusOr<std::unique_ptr<RocblasLibrary>> RocblasLibrary::load(const std::string &library) {
  absl::StatusOr<void *> handle = openSharedLibrary(library);
  if (!handle.ok())
    return absl::FailedPreconditionError(
        strCat(library, " cannot be loaded (", handle.status().message(), ")"));
  // The handle stays open for the life of the process, as HIP's.
  auto blas = std::make_unique<RocblasLibrary>();
  EntryPoints take(*handle, library, "xstitch needs rocBLAS 2 (ROCm 5) or newer");
  take("rocblas_create_handle", blas->rocblas_create_handle);
  take("rocblas_destroy_handle", blas->rocblas_destroy_handle);
  take("rocblas_set_stream", blas->rocblas_set_stream);
  take("rocblas_set_atomics_mode", blas->rocblas_set_atomics_mode);
  take("rocblas_status_to_string", blas->rocblas_status_to_string);
  take("rocblas_get_version_string", blas->rocblas_get_version_string);
  take("rocblas_sgemm_strided_batched", blas->rocblas_sgemm_strided_batched);
  take("rocblas_dgemm_strided_batched", blas->rocblas_dgemm_strided_batched);
  take("rocblas_gemm_strided_batched_ex", blas->rocblas_gemm_strided_batched_ex);
  if (!take.status().ok()) {
    dlclose(*handle);
    return take.status();
  }
  return blas;
}

absl::StatusOr<const RocblasLibrary *> RocblasLibrary::get() {
  static std::once_flag once;
  static absl::StatusOr<std::unique_ptr<RocblasLibrary>> *loaded = nullptr;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string &name : rocblasLibraries()) {
      absl::StatusOr<std::unique_ptr<RocblasLibrary>> library = load(name);
      if (library.ok()) {
        loaded = new absl::StatusOr<std::unique_ptr<RocblasLibrary>>(std::move(library));
        return;
      }
      tried += strCat(tried.empty() ? "" : "; ", library.status().message());
    }
    loaded = new absl::StatusOr<std::unique_ptr<RocblasLibrary>>(absl::FailedPreconditionError(
        strCat("rocBLAS is not installed where xstitch looks for it: ", tried,
               ". Install ROCm's rocBLAS (librocblas.so) or add its folder to LD_LIBRARY_PATH; "
               "until then dot runs on the host")));
  });
  if (!loaded->ok())
    return loaded->status();
  return loaded->value().get();
}

absl::Status RocblasLibrary::check(RocblasStatus status, std::string_view call) const {
  if (status == 0)
    return absl::OkStatus();
  const char *name = rocblas_status_to_string ? rocblas_status_to_string(status) : nullptr;
  return absl::InternalError(
      strCat(call, ": ", name ? std::string(name) : strCat("rocBLAS status ", status)));
}

std::string RocblasLibrary::version() const {
  // rocBLAS refuses a buffer shorter than its string rather than cut it.
  std::array<char, 256> text{};
  if (rocblas_get_version_string == nullptr ||
      rocblas_get_version_string(text.data(), text.size()) != 0)
    return "rocBLAS (version unknown)";
  text.back() = '\0';
  return strCat("rocBLAS ", text.data());
}

} // namespace xs::hip
