#ifndef XSTITCH_RUNTIME_HIP_HIPMATMUL_H
#define XSTITCH_RUNTIME_HIP_HIPMATMUL_H

// The `dot` library op on an AMD GPU: batched row-major products [..., M, K]
// x [..., K, N] -> [..., M, N] through rocBLAS, queued on the call's stream
// with the device addresses the kernels use, as CudaMatmul does through
// cuBLASLt (runtime/cuda/CudaMatmul.h). Element types f32 and f64 accumulate
// in their own type (sgemm, dgemm), f16 and bf16 in f32 rounded once to the
// result (gemm_ex with an f32 compute type): what the CPU's library ops and
// the reference interpreter compute. Other element types are not rocBLAS's
// (supports() says which); the GPU executable runs those on the host.
//
// Row-major C = A x B is column-major C^T = B^T x A^T: rocBLAS multiplies B
// (as an N x K column-major matrix) by A (K x M) into C (N x M), with no
// transposes and each operand's batches a fixed stride apart. rocBLAS needs
// no workspace from the caller (it keeps its own in the handle) and picks
// its kernel per call, so there is nothing to plan ahead.

#include <cstdint>
#include <memory>
#include <mutex>

#include "absl/status/statusor.h"
#include "ir/ElementType.h"
#include "runtime/gpu/GpuDriver.h"
#include "runtime/hip/Rocblas.h"

namespace xs::hip {

using gpu::MatmulShape;

class HipMatmul : public gpu::GpuMatmul {
public:
  /// Creates rocBLAS's handle, which belongs to the GPU current on the
  /// calling thread: the caller makes the GPU current first.
  static absl::StatusOr<std::unique_ptr<HipMatmul>> create(const RocblasLibrary &library);
  ~HipMatmul() override;
  HipMatmul(const HipMatmul &) = delete;
  HipMatmul &operator=(const HipMatmul &) = delete;

  bool supports(ElementType type) const override;
  const RocblasLibrary &library() const { return library_; }

  /// 0: rocBLAS takes no workspace from the caller.
  absl::StatusOr<int64_t> workspaceBytes(ElementType type, const MatmulShape &shape) override;
  /// Queues c = a x b on `stream`; the operands stay untouched until the
  /// stream has run the product. Shapes with no elements to write queue
  /// nothing; a product over K = 0 is not rocBLAS's (the caller fills
  /// zeros). Dimensions past rocBLAS's 32-bit sizes are an error.
  absl::Status run(ElementType type, const MatmulShape &shape, gpu::DevicePointer a,
                   gpu::DevicePointer b, gpu::DevicePointer c, gpu::DevicePointer workspace,
                   gpu::StreamHandle stream) override;

private:
  explicit HipMatmul(const RocblasLibrary &library);

  const RocblasLibrary &library_;
  RocblasHandle handle_ = nullptr;
  /// The handle's stream is set before each product: one product at a time.
  std::mutex mutex_;
};

} // namespace xs::hip

#endif // XSTITCH_RUNTIME_HIP_HIPMATMUL_H
