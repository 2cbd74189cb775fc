#ifndef XSTITCH_TESTS_UNIT_RECORDINGROCBLAS_H
#define XSTITCH_TESTS_UNIT_RECORDINGROCBLAS_H

// A recording rocBLAS for tests of the HIP device on a recording HIP (whose
// device memory is host memory): handles are plain structs holding their
// stream, and the strided-batched gemms compute the column-major product on
// the host, batch by batch, as rocBLAS would on a GPU (f16 and bf16 summed
// in f32 and rounded once). Each gemm is recorded with its rocBLAS shape,
// the handle's stream and the entry point called.

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/hip/Rocblas.h"

namespace xs::hip::testing {

struct RecordedGemm {
  /// "rocblas_sgemm_strided_batched", "rocblas_dgemm_strided_batched" or
  /// "rocblas_gemm_strided_batched_ex".
  std::string entryPoint;
  int32_t m = 0, n = 0, k = 0; // rocBLAS's (column-major) C is m x n over k
  int32_t batches = 1;
  void *stream = nullptr; // the handle's when the gemm was called
  /// The element type and compute type of gemm_ex (rocblas_datatype); 0
  /// for sgemm and dgemm.
  int dataType = 0, computeType = 0;
};

struct RecordingRocblasState {
  std::vector<RecordedGemm> gemms;
  int handlesLive = 0; // created and not yet destroyed
  /// The atomics mode handles were last given (-1: none yet).
  int atomicsMode = -1;
};

/// The recording library and its state (one per process; tests reset it).
const RocblasLibrary &recordingRocblas();
RecordingRocblasState &recordingRocblasState();
/// For HipDeviceOptions::findRocblas.
absl::StatusOr<const RocblasLibrary *> findRecordingRocblas();
/// A machine without rocBLAS.
absl::StatusOr<const RocblasLibrary *> findNoRocblas();

} // namespace xs::hip::testing

#endif // XSTITCH_TESTS_UNIT_RECORDINGROCBLAS_H
