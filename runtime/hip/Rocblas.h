#ifndef XSTITCH_RUNTIME_HIP_ROCBLAS_H
#define XSTITCH_RUNTIME_HIP_ROCBLAS_H

// rocBLAS, loaded at run time as HIP is (dlopen): the HIP device's library
// steps (`dot`) run on the GPU through it where it is installed, as the CUDA
// device's run through cuBLASLt (runtime/cuda/CublasLt.h). Only the entry
// points xstitch uses are declared, with rocBLAS's types reduced to their
// ABI (the handle is a pointer, enums ints, rocblas_int 32 bits and
// rocblas_stride 64: the LP64 API every ROCm ships under these names).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/hip/HipDriver.h"

namespace xs::hip {

using RocblasStatus = int;
using RocblasHandle = struct RocblasContext *;

/// rocblas_operation, rocblas_datatype, rocblas_gemm_algo and
/// rocblas_atomics_mode values (rocblas-types.h; stable since rocBLAS 2).
inline constexpr int kRocblasOperationNone = 111;
inline constexpr int kRocblasDatatypeF16 = 150;
inline constexpr int kRocblasDatatypeF32 = 151;
inline constexpr int kRocblasDatatypeF64 = 152;
inline constexpr int kRocblasDatatypeBF16 = 168;
inline constexpr int kRocblasGemmAlgoStandard = 0;
inline constexpr int kRocblasAtomicsNotAllowed = 0;

/// The library's entry points. Loaded once, they may be called from any
/// thread; a handle may not be used by two threads at once (its stream is
/// handle state, set before each call), which HipMatmul serializes.
struct RocblasLibrary {
  RocblasStatus (*rocblas_create_handle)(RocblasHandle *handle) = nullptr;
  RocblasStatus (*rocblas_destroy_handle)(RocblasHandle handle) = nullptr;
  RocblasStatus (*rocblas_set_stream)(RocblasHandle handle, hipStream_t stream) = nullptr;
  RocblasStatus (*rocblas_set_atomics_mode)(RocblasHandle handle, int mode) = nullptr;
  const char *(*rocblas_status_to_string)(RocblasStatus status) = nullptr;
  RocblasStatus (*rocblas_get_version_string)(char *buffer, size_t bytes) = nullptr;
  RocblasStatus (*rocblas_sgemm_strided_batched)(RocblasHandle handle, int transA, int transB,
                                                 int32_t m, int32_t n, int32_t k,
                                                 const float *alpha, const float *a, int32_t lda,
                                                 int64_t strideA, const float *b, int32_t ldb,
                                                 int64_t strideB, const float *beta, float *c,
                                                 int32_t ldc, int64_t strideC,
                                                 int32_t batchCount) = nullptr;
  RocblasStatus (*rocblas_dgemm_strided_batched)(RocblasHandle handle, int transA, int transB,
                                                 int32_t m, int32_t n, int32_t k,
                                                 const double *alpha, const double *a, int32_t lda,
                                                 int64_t strideA, const double *b, int32_t ldb,
                                                 int64_t strideB, const double *beta, double *c,
                                                 int32_t ldc, int64_t strideC,
                                                 int32_t batchCount) = nullptr;
  /// D = alpha A B + beta C with the element types and the compute type as
  /// arguments (rocblas_datatype): f16 and bf16 with f32 compute here.
  /// `alpha` and `beta` are of the compute type.
  RocblasStatus (*rocblas_gemm_strided_batched_ex)(
      RocblasHandle handle, int transA, int transB, int32_t m, int32_t n, int32_t k,
      const void *alpha, const void *a, int aType, int32_t lda, int64_t strideA, const void *b,
      int bType, int32_t ldb, int64_t strideB, const void *beta, const void *c, int cType,
      int32_t ldc, int64_t strideC, void *d, int dType, int32_t ldd, int64_t strideD,
      int32_t batchCount, int computeType, int algo, int32_t solutionIndex,
      uint32_t flags) = nullptr;

  /// The library, loaded once per process from the first of
  /// rocblasLibraries() that loads. The error (FailedPrecondition) names
  /// every file tried and why each failed.
  static absl::StatusOr<const RocblasLibrary *> get();
  /// Loads `library` and resolves the entry points (tests load others).
  static absl::StatusOr<std::unique_ptr<RocblasLibrary>> load(const std::string &library);

  /// OK for rocblas_status_success; otherwise an Internal error with the
  /// library's name of `status`: "rocblas_sgemm_strided_batched:
  /// rocblas_status_invalid_size".
  absl::Status check(RocblasStatus status, std::string_view call) const;
  /// "rocBLAS " and the library's version string
  /// (rocblas_get_version_string: "4.1.0.<build>").
  std::string version() const;
};

/// Where rocBLAS is looked for, in order: the loader's search (ldconfig,
/// LD_LIBRARY_PATH) for ROCm's development link, then the runtime
/// packages' sonames (ROCm 7, 6, 5.6-5.7, and 5.5 and older or Debian's
/// librocblas0), then ROCm's default folder, which ROCm need not have added
/// to the loader's search.
inline const std::vector<std::string> &rocblasLibraries() {
  static const std::vector<std::string> names = {
      "librocblas.so",   "librocblas.so.5", "librocblas.so.4",
      "librocblas.so.3", "librocblas.so.0", "/opt/rocm/lib/librocblas.so",
  };
  return names;
}

} // namespace xs::hip

#endif // XSTITCH_RUNTIME_HIP_ROCBLAS_H
