#include "runtime/hip/HipMatmul.h"

#include <limits>

#include "ir/Diagnostics.h"

namespace xs::hip {

namespace {

int dataType(ElementType type) {
  return type == ElementType::BF16 ? kRocblasDatatypeBF16 : kRocblasDatatypeF16;
}

template <typename T> T *pointer(gpu::DevicePointer address) {
  return reinterpret_cast<T *>(static_cast<uintptr_t>(address));
}

} // namespace

bool HipMatmul::supports(ElementType type) const {
  return type == ElementType::F32 || type == ElementType::F64 || type == ElementType::F16 ||
         type == ElementType::BF16;
}

HipMatmul::HipMatmul(const RocblasLibrary &library) : library_(library) {}

absl::StatusOr<std::unique_ptr<HipMatmul>> HipMatmul::create(const RocblasLibrary &library) {
  std::unique_ptr<HipMatmul> matmul(new HipMatmul(library));
  XS_RETURN_IF_ERROR(
      library.check(library.rocblas_create_handle(&matmul->handle_), "rocblas_create_handle"));
  // Products repeat bit for bit: without atomics rocBLAS does not split the
  // sum over K into parts added in whatever order they finish.
  XS_RETURN_IF_ERROR(
      library.check(library.rocblas_set_atomics_mode(matmul->handle_, kRocblasAtomicsNotAllowed),
                    "rocblas_set_atomics_mode"));
  return matmul;
}

HipMatmul::~HipMatmul() {
  if (handle_ != nullptr)
    (void)library_.rocblas_destroy_handle(handle_);
}

absl::StatusOr<int64_t> HipMatmul::workspaceBytes(ElementType, const MatmulShape &) { return 0; }

absl::Status HipMatmul::run(ElementType type, const MatmulShape &shape, gpu::DevicePointer a,
                            gpu::DevicePointer b, gpu::DevicePointer c, gpu::DevicePointer,
                            gpu::StreamHandle stream) {
  if (shape.batches == 0 || shape.m == 0 || shape.n == 0 || shape.k == 0)
    return absl::OkStatus();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (shape.batches > kMax || shape.m > kMax || shape.n > kMax || shape.k > kMax)
    return absl::UnimplementedError(
        strCat("rocBLAS multiplies at most ", kMax, " rows, columns, depth and batches; this ",
               elementTypeName(type), " product is ", shape.batches, " x [", shape.m, ", ", shape.k,
               "] x [", shape.k, ", ", shape.n, "]"));
  // Column-major, in rocBLAS's order: B as N x K (leading dimension N), A
  // as K x M (K), C as N x M (N), each batch a whole matrix after the last.
  auto m = static_cast<int32_t>(shape.n), n = static_cast<int32_t>(shape.m),
       k = static_cast<int32_t>(shape.k), batches = static_cast<int32_t>(shape.batches);
  int64_t strideB = shape.n * shape.k, strideA = shape.k * shape.m, strideC = shape.n * shape.m;
  const RocblasLibrary &blas = library_;
  std::lock_guard<std::mutex> lock(mutex_);
  XS_RETURN_IF_ERROR(blas.check(blas.rocblas_set_stream(handle_, static_cast<hipStream_t>(stream)),
                                "rocblas_set_stream"));
  switch (type) {
  case ElementType::F32: {
    float alpha = 1, beta = 0;
    return blas.check(blas.rocblas_sgemm_strided_batched(
                          handle_, kRocblasOperationNone, kRocblasOperationNone, m, n, k, &alpha,
                          pointer<const float>(b), m, strideB, pointer<const float>(a), k, strideA,
                          &beta, pointer<float>(c), m, strideC, batches),
                      "rocblas_sgemm_strided_batched");
  }
  case ElementType::F64: {
    double alpha = 1, beta = 0;
    return blas.check(blas.rocblas_dgemm_strided_batched(
                          handle_, kRocblasOperationNone, kRocblasOperationNone, m, n, k, &alpha,
                          pointer<const double>(b), m, strideB, pointer<const double>(a), k,
                          strideA, &beta, pointer<double>(c), m, strideC, batches),
                      "rocblas_dgemm_strided_batched");
  }
  case ElementType::F16:
  case ElementType::BF16: {
    // alpha and beta are of the compute type; C (not read, beta being 0)
    // and D are the same matrix.
    float alpha = 1, beta = 0;
    int data = dataType(type);
    return blas.check(blas.rocblas_gemm_strided_batched_ex(
                          handle_, kRocblasOperationNone, kRocblasOperationNone, m, n, k, &alpha,
                          pointer<const void>(b), data, m, strideB, pointer<const void>(a), data, k,
                          strideA, &beta, pointer<const void>(c), data, m, strideC,
                          pointer<void>(c), data, m, strideC, batches, kRocblasDatatypeF32,
                          kRocblasGemmAlgoStandard, /*solutionIndex=*/0, /*flags=*/0),
                      "rocblas_gemm_strided_batched_ex");
  }
  default:
    return absl::InvalidArgumentError(
        strCat("rocBLAS does not multiply ", elementTypeName(type), " for xstitch"));
  }
}

} // namespace xs::hip
