#include "tests/unit/RecordingRocblas.h"

#include <algorithm>
#include <cstring>

#include "ir/FloatBits.h"

namespace xs::hip::testing {
namespace {

// rocblas_status values (rocblas-types.h).
constexpr RocblasStatus kSuccess = 0;
constexpr RocblasStatus kInvalidHandle = 1;
constexpr RocblasStatus kNotImplemented = 2;
constexpr RocblasStatus kInvalidPointer = 3;
constexpr RocblasStatus kInvalidSize = 4;

struct Handle {
  void *stream = nullptr;
};

RecordingRocblasState &state() {
  static RecordingRocblasState s;
  return s;
}

Handle *handleOf(RocblasHandle handle) { return reinterpret_cast<Handle *>(handle); }

RocblasStatus createHandle(RocblasHandle *handle) {
  if (handle == nullptr)
    return kInvalidPointer;
  *handle = reinterpret_cast<RocblasHandle>(new Handle());
  ++state().handlesLive;
  return kSuccess;
}
RocblasStatus destroyHandle(RocblasHandle handle) {
  if (handle == nullptr)
    return kInvalidHandle;
  delete handleOf(handle);
  --state().handlesLive;
  return kSuccess;
}
RocblasStatus setStream(RocblasHandle handle, hipStream_t stream) {
  if (handle == nullptr)
    return kInvalidHandle;
  handleOf(handle)->stream = stream;
  return kSuccess;
}
RocblasStatus setAtomicsMode(RocblasHandle handle, int mode) {
  if (handle == nullptr)
    return kInvalidHandle;
  state().atomicsMode = mode;
  return kSuccess;
}
const char *statusToString(RocblasStatus status) {
  switch (status) {
  case kSuccess:
    return "rocblas_status_success";
  case kInvalidHandle:
    return "rocblas_status_invalid_handle";
  case kNotImplemented:
    return "rocblas_status_not_implemented";
  case kInvalidPointer:
    return "rocblas_status_invalid_pointer";
  case kInvalidSize:
    return "rocblas_status_invalid_size";
  default:
    return "<undefined rocblas_status>";
  }
}
RocblasStatus versionString(char *buffer, size_t bytes) {
  constexpr char kVersion[] = "4.4.0.recording";
  if (buffer == nullptr)
    return kInvalidPointer;
  if (bytes < sizeof(kVersion))
    return kInvalidSize;
  std::memcpy(buffer, kVersion, sizeof(kVersion));
  return kSuccess;
}

/// What every gemm checks as rocBLAS does, for products without transposes
/// (the only ones xstitch asks for) and with beta = 0 (C is not read).
RocblasStatus checkGemm(RocblasHandle handle, int transA, int transB, int32_t m, int32_t n,
                        int32_t k, const void *alpha, const void *a, int32_t lda, const void *b,
                        int32_t ldb, bool betaIsZero, const void *d, int32_t ldd, int32_t batches) {
  if (handle == nullptr)
    return kInvalidHandle;
  if (transA != kRocblasOperationNone || transB != kRocblasOperationNone)
    return kNotImplemented;
  if (m < 0 || n < 0 || k < 0 || batches < 0 || lda < std::max(1, m) || ldb < std::max(1, k) ||
      ldd < std::max(1, m))
    return kInvalidSize;
  if (m > 0 && n > 0 && batches > 0 &&
      (alpha == nullptr || a == nullptr || b == nullptr || d == nullptr))
    return kInvalidPointer;
  if (!betaIsZero)
    return kNotImplemented;
  return kSuccess;
}

/// D = alpha A x B, column-major, batch by batch: elements read with
/// `load`, summed in `Acc`, written with `store`.
template <typename Acc, typename Load, typename Store>
void multiply(int32_t m, int32_t n, int32_t k, Acc alpha, int64_t lda, int64_t strideA, int64_t ldb,
              int64_t strideB, int64_t ldd, int64_t strideD, int32_t batches, Load load,
              Store store) {
  for (int64_t batch = 0; batch < batches; ++batch)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        Acc sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += load(true, batch * strideA + i + p * lda) *
                 load(false, batch * strideB + p + j * ldb);
        store(batch * strideD + i + j * ldd, alpha * sum);
      }
}

void record(const char *entryPoint, RocblasHandle handle, int32_t m, int32_t n, int32_t k,
            int32_t batches, int dataType = 0, int computeType = 0) {
  state().gemms.push_back(
      {entryPoint, m, n, k, batches, handleOf(handle)->stream, dataType, computeType});
}

template <typename T>
RocblasStatus gemm(const char *entryPoint, RocblasHandle handle, int transA, int transB, int32_t m,
                   int32_t n, int32_t k, const T *alpha, const T *a, int32_t lda, int64_t strideA,
                   const T *b, int32_t ldb, int64_t strideB, const T *beta, T *c, int32_t ldc,
                   int64_t strideC, int32_t batches) {
  if (RocblasStatus s = checkGemm(handle, transA, transB, m, n, k, alpha, a, lda, b, ldb,
                                  beta != nullptr && *beta == 0, c, ldc, batches);
      s != kSuccess)
    return s;
  multiply<T>(
      m, n, k, m > 0 && n > 0 ? *alpha : T(0), lda, strideA, ldb, strideB, ldc, strideC, batches,
      [&](bool fromA, int64_t at) { return fromA ? a[at] : b[at]; },
      [&](int64_t at, T value) { c[at] = value; });
  record(entryPoint, handle, m, n, k, batches);
  return kSuccess;
}

RocblasStatus sgemm(RocblasHandle handle, int transA, int transB, int32_t m, int32_t n, int32_t k,
                    const float *alpha, const float *a, int32_t lda, int64_t strideA,
                    const float *b, int32_t ldb, int64_t strideB, const float *beta, float *c,
                    int32_t ldc, int64_t strideC, int32_t batches) {
  return gemm("rocblas_sgemm_strided_batched", handle, transA, transB, m, n, k, alpha, a, lda,
              strideA, b, ldb, strideB, beta, c, ldc, strideC, batches);
}
RocblasStatus dgemm(RocblasHandle handle, int transA, int transB, int32_t m, int32_t n, int32_t k,
                    const double *alpha, const double *a, int32_t lda, int64_t strideA,
                    const double *b, int32_t ldb, int64_t strideB, const double *beta, double *c,
                    int32_t ldc, int64_t strideC, int32_t batches) {
  return gemm("rocblas_dgemm_strided_batched", handle, transA, transB, m, n, k, alpha, a, lda,
              strideA, b, ldb, strideB, beta, c, ldc, strideC, batches);
}

/// f16 or bf16 operands and result with f32 compute (all xstitch asks of
/// gemm_ex): each element decoded exactly, the sum kept in f32 and rounded
/// once into D. C is not read (beta is 0).
RocblasStatus gemmEx(RocblasHandle handle, int transA, int transB, int32_t m, int32_t n, int32_t k,
                     const void *alpha, const void *a, int aType, int32_t lda, int64_t strideA,
                     const void *b, int bType, int32_t ldb, int64_t strideB, const void *beta,
                     const void *, int cType, int32_t, int64_t, void *d, int dType, int32_t ldd,
                     int64_t strideD, int32_t batches, int computeType, int algo, int32_t,
                     uint32_t) {
  bool f16 = aType == kRocblasDatatypeF16, bf16 = aType == kRocblasDatatypeBF16;
  if (!(f16 || bf16) || bType != aType || cType != aType || dType != aType ||
      computeType != kRocblasDatatypeF32 || algo != kRocblasGemmAlgoStandard)
    return kNotImplemented;
  const float *alpha32 = static_cast<const float *>(alpha);
  const float *beta32 = static_cast<const float *>(beta);
  if (RocblasStatus s = checkGemm(handle, transA, transB, m, n, k, alpha, a, lda, b, ldb,
                                  beta32 != nullptr && *beta32 == 0, d, ldd, batches);
      s != kSuccess)
    return s;
  const uint16_t *pa = static_cast<const uint16_t *>(a), *pb = static_cast<const uint16_t *>(b);
  uint16_t *pd = static_cast<uint16_t *>(d);
  multiply<float>(
      m, n, k, m > 0 && n > 0 ? *alpha32 : 0.0f, lda, strideA, ldb, strideB, ldd, strideD, batches,
      [&](bool fromA, int64_t at) {
        uint16_t bits = fromA ? pa[at] : pb[at];
        return static_cast<float>(f16 ? decodeF16(bits) : decodeBF16(bits));
      },
      [&](int64_t at, float value) { pd[at] = f16 ? encodeF16(value) : encodeBF16(value); });
  record("rocblas_gemm_strided_batched_ex", handle, m, n, k, batches, aType, computeType);
  return kSuccess;
}

} // namespace

const RocblasLibrary &recordingRocblas() {
  static const RocblasLibrary library = [] {
    RocblasLibrary l;
    l.rocblas_create_handle = createHandle;
    l.rocblas_destroy_handle = destroyHandle;
    l.rocblas_set_stream = setStream;
    l.rocblas_set_atomics_mode = setAtomicsMode;
    l.rocblas_status_to_string = statusToString;
    l.rocblas_get_version_string = versionString;
    l.rocblas_sgemm_strided_batched = sgemm;
    l.rocblas_dgemm_strided_batched = dgemm;
    l.rocblas_gemm_strided_batched_ex = gemmEx;
    return l;
  }();
  return library;
}

RecordingRocblasState &recordingRocblasState() { return state(); }

absl::StatusOr<const RocblasLibrary *> findRecordingRocblas() { return &recordingRocblas(); }

absl::StatusOr<const RocblasLibrary *> findNoRocblas() {
  return absl::FailedPreconditionError("rocBLAS is not installed (the test's machine)");
}

} // namespace xs::hip::testing
