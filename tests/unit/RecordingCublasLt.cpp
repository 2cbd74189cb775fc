#include "tests/unit/RecordingCublasLt.h"

#include <cstring>

namespace xs::cuda::testing {
namespace {

struct Layout {
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0, stride = 0;
  int32_t batches = 1;
};

RecordingCublasLtState &state() {
  static RecordingCublasLtState s;
  return s;
}

CublasStatus create(CublasLtHandle *handle) {
  *handle = reinterpret_cast<CublasLtHandle>(0x1);
  return 0;
}
CublasStatus destroy(CublasLtHandle) { return 0; }
size_t version() { return 130000; }
const char *statusName(CublasStatus) { return "CUBLAS_STATUS_NOT_SUPPORTED"; }
const char *statusString(CublasStatus) { return "the functionality requested is not supported"; }
CublasStatus descCreate(CublasLtMatmulDesc *desc, int, int) {
  *desc = reinterpret_cast<CublasLtMatmulDesc>(new int(0));
  ++state().descriptorsLive;
  return 0;
}
CublasStatus descDestroy(CublasLtMatmulDesc desc) {
  delete reinterpret_cast<int *>(desc);
  --state().descriptorsLive;
  return 0;
}
CublasStatus layoutCreate(CublasLtMatrixLayout *layout, int, uint64_t rows, uint64_t cols,
                          int64_t ld) {
  *layout = reinterpret_cast<CublasLtMatrixLayout>(new Layout{rows, cols, ld, 0, 1});
  ++state().descriptorsLive;
  return 0;
}
CublasStatus layoutDestroy(CublasLtMatrixLayout layout) {
  delete reinterpret_cast<Layout *>(layout);
  --state().descriptorsLive;
  return 0;
}
CublasStatus layoutSet(CublasLtMatrixLayout layout, int attribute, const void *value,
                       size_t bytes) {
  Layout &l = *reinterpret_cast<Layout *>(layout);
  if (attribute == 5 && bytes == sizeof(int32_t)) // CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT
    std::memcpy(&l.batches, value, bytes);
  else if (attribute == 6 && bytes == sizeof(int64_t)) // ..._STRIDED_BATCH_OFFSET
    std::memcpy(&l.stride, value, bytes);
  else
    return 7; // CUBLAS_STATUS_INVALID_VALUE
  return 0;
}
CublasStatus preferenceCreate(CublasLtMatmulPreference *preference) {
  *preference = reinterpret_cast<CublasLtMatmulPreference>(new int(0));
  ++state().descriptorsLive;
  return 0;
}
CublasStatus preferenceDestroy(CublasLtMatmulPreference preference) {
  delete reinterpret_cast<int *>(preference);
  --state().descriptorsLive;
  return 0;
}
CublasStatus preferenceSet(CublasLtMatmulPreference, int, const void *, size_t) { return 0; }
CublasStatus heuristic(CublasLtHandle, CublasLtMatmulDesc, CublasLtMatrixLayout,
                       CublasLtMatrixLayout, CublasLtMatrixLayout, CublasLtMatrixLayout,
                       CublasLtMatmulPreference, int requested, CublasLtHeuristicResult *results,
                       int *returned) {
  if (requested < 1)
    return 7;
  results[0] = CublasLtHeuristicResult{};
  results[0].workspaceSize = kRecordedWorkspaceBytes;
  *returned = 1;
  return 0;
}
/// D = A x B, column-major f32, batch by batch.
CublasStatus matmul(CublasLtHandle, CublasLtMatmulDesc, const void *alpha, const void *a,
                    CublasLtMatrixLayout aLayout, const void *b, CublasLtMatrixLayout bLayout,
                    const void *beta, const void *, CublasLtMatrixLayout, void *d,
                    CublasLtMatrixLayout dLayout, const CublasLtMatmulAlgo *, void *workspace,
                    size_t workspaceBytes, void *stream) {
  const Layout &la = *reinterpret_cast<const Layout *>(aLayout);
  const Layout &lb = *reinterpret_cast<const Layout *>(bLayout);
  const Layout &ld = *reinterpret_cast<const Layout *>(dLayout);
  if (la.cols != lb.rows || ld.rows != la.rows || ld.cols != lb.cols || la.batches != lb.batches ||
      ld.batches != la.batches || (workspaceBytes > 0 && workspace == nullptr))
    return 7;
  float scale = *static_cast<const float *>(alpha), keep = *static_cast<const float *>(beta);
  if (keep != 0)
    return 15;
  for (int32_t batch = 0; batch < la.batches; ++batch) {
    const float *pa = static_cast<const float *>(a) + batch * la.stride;
    const float *pb = static_cast<const float *>(b) + batch * lb.stride;
    float *pd = static_cast<float *>(d) + batch * ld.stride;
    for (uint64_t j = 0; j < ld.cols; ++j)
      for (uint64_t i = 0; i < ld.rows; ++i) {
        float sum = 0;
        for (uint64_t p = 0; p < la.cols; ++p)
          sum +=
              pa[i + p * static_cast<uint64_t>(la.ld)] * pb[p + j * static_cast<uint64_t>(lb.ld)];
        pd[i + j * static_cast<uint64_t>(ld.ld)] = scale * sum;
      }
  }
  state().matmuls.push_back({ld.rows, ld.cols, la.cols, la.batches, stream, workspaceBytes});
  return 0;
}

} // namespace

const CublasLtLibrary &recordingCublasLt() {
  static const CublasLtLibrary library = [] {
    CublasLtLibrary l;
    l.cublasLtCreate = create;
    l.cublasLtDestroy = destroy;
    l.cublasLtGetVersion = version;
    l.cublasLtGetStatusName = statusName;
    l.cublasLtGetStatusString = statusString;
    l.cublasLtMatmulDescCreate = descCreate;
    l.cublasLtMatmulDescDestroy = descDestroy;
    l.cublasLtMatrixLayoutCreate = layoutCreate;
    l.cublasLtMatrixLayoutDestroy = layoutDestroy;
    l.cublasLtMatrixLayoutSetAttribute = layoutSet;
    l.cublasLtMatmulPreferenceCreate = preferenceCreate;
    l.cublasLtMatmulPreferenceDestroy = preferenceDestroy;
    l.cublasLtMatmulPreferenceSetAttribute = preferenceSet;
    l.cublasLtMatmulAlgoGetHeuristic = heuristic;
    l.cublasLtMatmul = matmul;
    return l;
  }();
  return library;
}

RecordingCublasLtState &recordingCublasLtState() { return state(); }

absl::StatusOr<const CublasLtLibrary *> findRecordingCublasLt() { return &recordingCublasLt(); }

absl::StatusOr<const CublasLtLibrary *> findNoCublasLt() {
  return absl::FailedPreconditionError("cuBLASLt is not installed (the test's machine)");
}

} // namespace xs::cuda::testing
