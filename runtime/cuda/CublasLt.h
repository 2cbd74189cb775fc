#ifndef XSTITCH_RUNTIME_CUDA_CUBLASLT_H
#define XSTITCH_RUNTIME_CUDA_CUBLASLT_H

// cuBLASLt, loaded at run time as the driver is (dlopen): the CUDA device's
// library steps (`dot`) run on the GPU through it where it is installed.
// Only the entry points xstitch uses are declared, with cuBLASLt's types
// reduced to their ABI (descriptors are pointers, enums ints, the algorithm
// and heuristic result plain structs of the header's size).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace xs::cuda {

using CublasStatus = int;
using CublasLtHandle = struct CublasLtContext *;
using CublasLtMatmulDesc = struct CublasLtMatmulDescOpaque *;
using CublasLtMatrixLayout = struct CublasLtMatrixLayoutOpaque *;
using CublasLtMatmulPreference = struct CublasLtMatmulPreferenceOpaque *;

/// cublasLtMatmulAlgo_t: 64 bytes the heuristic fills and matmul reads.
struct CublasLtMatmulAlgo {
  uint64_t data[8];
};

/// cublasLtMatmulHeuristicResult_t.
struct CublasLtHeuristicResult {
  CublasLtMatmulAlgo algo;
  size_t workspaceSize;
  CublasStatus state;
  float wavesCount;
  int reserved[4];
};

/// The library's entry points. Thread-safe once loaded (cuBLASLt is, also
/// with one handle shared by many threads: the stream and the workspace are
/// arguments of each call).
struct CublasLtLibrary {
  CublasStatus (*cublasLtCreate)(CublasLtHandle *handle) = nullptr;
  CublasStatus (*cublasLtDestroy)(CublasLtHandle handle) = nullptr;
  size_t (*cublasLtGetVersion)() = nullptr;
  const char *(*cublasLtGetStatusName)(CublasStatus status) = nullptr;
  const char *(*cublasLtGetStatusString)(CublasStatus status) = nullptr;
  CublasStatus (*cublasLtMatmulDescCreate)(CublasLtMatmulDesc *desc, int computeType,
                                           int scaleType) = nullptr;
  CublasStatus (*cublasLtMatmulDescDestroy)(CublasLtMatmulDesc desc) = nullptr;
  CublasStatus (*cublasLtMatrixLayoutCreate)(CublasLtMatrixLayout *layout, int type, uint64_t rows,
                                             uint64_t cols, int64_t ld) = nullptr;
  CublasStatus (*cublasLtMatrixLayoutDestroy)(CublasLtMatrixLayout layout) = nullptr;
  CublasStatus (*cublasLtMatrixLayoutSetAttribute)(CublasLtMatrixLayout layout, int attribute,
                                                   const void *value, size_t bytes) = nullptr;
  CublasStatus (*cublasLtMatmulPreferenceCreate)(CublasLtMatmulPreference *preference) = nullptr;
  CublasStatus (*cublasLtMatmulPreferenceDestroy)(CublasLtMatmulPreference preference) = nullptr;
  CublasStatus (*cublasLtMatmulPreferenceSetAttribute)(CublasLtMatmulPreference preference,
                                                       int attribute, const void *value,
                                                       size_t bytes) = nullptr;
  CublasStatus (*cublasLtMatmulAlgoGetHeuristic)(CublasLtHandle handle, CublasLtMatmulDesc desc,
                                                 CublasLtMatrixLayout a, CublasLtMatrixLayout b,
                                                 CublasLtMatrixLayout c, CublasLtMatrixLayout d,
                                                 CublasLtMatmulPreference preference, int requested,
                                                 CublasLtHeuristicResult *results,
                                                 int *returned) = nullptr;
  CublasStatus (*cublasLtMatmul)(CublasLtHandle handle, CublasLtMatmulDesc desc, const void *alpha,
                                 const void *a, CublasLtMatrixLayout aLayout, const void *b,
                                 CublasLtMatrixLayout bLayout, const void *beta, const void *c,
                                 CublasLtMatrixLayout cLayout, void *d,
                                 CublasLtMatrixLayout dLayout, const CublasLtMatmulAlgo *algo,
                                 void *workspace, size_t workspaceBytes, void *stream) = nullptr;

  /// The library, loaded once per process from the first of
  /// kCublasLtLibraries that loads. The error (FailedPrecondition) names
  /// every file tried and why each failed.
  static absl::StatusOr<const CublasLtLibrary *> get();
  /// Loads `library` and resolves the entry points (tests load others).
  static absl::StatusOr<std::unique_ptr<CublasLtLibrary>> load(const std::string &library);

  /// OK for CUBLAS_STATUS_SUCCESS; otherwise an error with the library's
  /// name and text of `status`: "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED
  /// (the functionality requested is not supported)".
  absl::Status check(CublasStatus status, std::string_view call) const;
  /// "cuBLASLt 130000" (cublasLtGetVersion).
  std::string version() const;
};

/// Where cuBLASLt is looked for, in order: the loader's search (ldconfig,
/// LD_LIBRARY_PATH) for the versions CUDA 13, 12 and 11 install, then the
/// CUDA toolkit's default folder.
inline const std::vector<std::string> &cublasLtLibraries() {
  static const std::vector<std::string> names = {
      "libcublasLt.so.13",
      "libcublasLt.so.12",
      "libcublasLt.so.11",
      "libcublasLt.so",
      "/usr/local/cuda/lib64/libcublasLt.so.13",
      "/usr/local/cuda/lib64/libcublasLt.so.12",
      "/usr/local/cuda/lib64/libcublasLt.so.11",
  };
  return names;
}

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUBLASLT_H
