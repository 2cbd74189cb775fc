#ifndef XSTITCH_TESTS_UNIT_RECORDINGCUBLASLT_H
#define XSTITCH_TESTS_UNIT_RECORDINGCUBLASLT_H

// A recording cuBLASLt for tests of the CUDA device on the recording driver
// (whose device memory is host memory): descriptors are plain structs, the
// heuristic asks for a workspace, and cublasLtMatmul computes the f32
// column-major product on the host, batch by batch, as cuBLASLt would on a
// GPU. Each product is recorded with its shapes and stream.

#include <cstdint>
#include <vector>

#include "runtime/cuda/CublasLt.h"

namespace xs::cuda::testing {

struct RecordedMatmul {
  uint64_t rows = 0, cols = 0, depth = 0; // of D (column-major) and the shared dim
  int batches = 1;
  void *stream = nullptr;
  size_t workspaceBytes = 0;
};

struct RecordingCublasLtState {
  std::vector<RecordedMatmul> matmuls;
  int descriptorsLive = 0; // created and not yet destroyed
};

/// The recording library and its state (one per process; tests reset it).
const CublasLtLibrary &recordingCublasLt();
RecordingCublasLtState &recordingCublasLtState();
/// For CudaDeviceOptions::findCublasLt.
absl::StatusOr<const CublasLtLibrary *> findRecordingCublasLt();
/// A machine without cuBLASLt.
absl::StatusOr<const CublasLtLibrary *> findNoCublasLt();

/// The workspace the recording heuristic asks for.
inline constexpr size_t kRecordedWorkspaceBytes = 4096;

} // namespace xs::cuda::testing

#endif // XSTITCH_TESTS_UNIT_RECORDINGCUBLASLT_H
