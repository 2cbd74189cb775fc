#ifndef XSTITCH_RUNTIME_CUDA_CUDAMATMUL_H
#define XSTITCH_RUNTIME_CUDA_CUDAMATMUL_H

// The `dot` library op on a GPU: batched row-major products [..., M, K] x
// [..., K, N] -> [..., M, N] through cuBLASLt, queued on the call's stream
// with the device addresses the kernels use, so a program's matrix products
// never leave the GPU. Element types f32 and f64 accumulate in their own
// type (no TF32), f16 and bf16 in f32 rounded once to the result: what the
// CPU's library ops and the reference interpreter compute. Other element
// types are not cuBLASLt's (supports() says which); the GPU executable runs
// those on the host.
//
// Row-major C = A x B is column-major C^T = B^T x A^T: cuBLASLt multiplies
// B (as an N x K column-major matrix) by A (K x M) into C (N x M), with no
// transposes and each operand's batches a fixed stride apart. The
// descriptors and the algorithm cuBLASLt's heuristic picks are kept per
// element type and shape, so repeated calls query nothing.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "absl/status/statusor.h"
#include "ir/ElementType.h"
#include "runtime/cuda/CublasLt.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/gpu/GpuDriver.h"

namespace xs::cuda {

using gpu::MatmulShape;

class CudaMatmul : public gpu::GpuMatmul {
public:
  /// Workspace cuBLASLt may use per product, at most (its documentation's
  /// recommendation for Hopper).
  static constexpr int64_t kMaxWorkspaceBytes = int64_t{32} << 20;

  /// Creates cuBLASLt's handle; the GPU's context must be current.
  static absl::StatusOr<std::unique_ptr<CudaMatmul>> create(const CublasLtLibrary &library);
  ~CudaMatmul() override;
  CudaMatmul(const CudaMatmul &) = delete;
  CudaMatmul &operator=(const CudaMatmul &) = delete;

  bool supports(ElementType type) const override;
  const CublasLtLibrary &library() const { return library_; }

  /// The workspace bytes run() needs for this product (0 for none).
  absl::StatusOr<int64_t> workspaceBytes(ElementType type, const MatmulShape &shape) override;
  /// Queues c = a x b on `stream`. `workspace` holds workspaceBytes() bytes
  /// and, like the operands, stays untouched until the stream has run the
  /// product. Shapes with no elements to write queue nothing; a product
  /// over K = 0 is not cuBLASLt's (the caller fills zeros).
  absl::Status run(ElementType type, const MatmulShape &shape, CUdeviceptr a, CUdeviceptr b,
                   CUdeviceptr c, CUdeviceptr workspace, gpu::StreamHandle stream) override;

private:
  struct Plan;
  using Key = std::tuple<ElementType, int64_t, int64_t, int64_t, int64_t>;
  explicit CudaMatmul(const CublasLtLibrary &library);
  absl::StatusOr<const Plan *> plan(ElementType type, const MatmulShape &shape);

  const CublasLtLibrary &library_;
  CublasLtHandle handle_ = nullptr;
  std::mutex mutex_;
  std::map<Key, std::unique_ptr<Plan>> plans_;
};

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUDAMATMUL_H
