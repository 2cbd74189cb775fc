#include "runtime/cuda/CudaMatmul.h"

#include "ir/Diagnostics.h"

namespace xs::cuda {

namespace {

// cublasComputeType_t, cudaDataType_t and attribute values (cublasLt.h,
// library_types.h); stable across cuBLAS versions.
constexpr int kComputeF32 = 68;
constexpr int kComputeF64 = 70;
constexpr int kDataF32 = 0;
constexpr int kDataF64 = 1;
constexpr int kDataF16 = 2;
constexpr int kDataBF16 = 14;
constexpr int kLayoutBatchCount = 5;
constexpr int kLayoutStridedBatchOffset = 6;
constexpr int kPreferenceMaxWorkspaceBytes = 1;

int dataType(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return kDataF64;
  case ElementType::F16:
    return kDataF16;
  case ElementType::BF16:
    return kDataBF16;
  default:
    return kDataF32;
  }
}

} // namespace

/// Descriptors of one element type and shape, and the algorithm for them.
struct CudaMatmul::Plan {
  const CublasLtLibrary *library = nullptr;
  CublasLtMatmulDesc desc = nullptr;
  CublasLtMatrixLayout b = nullptr, a = nullptr, c = nullptr; // in cuBLASLt's order
  CublasLtMatmulAlgo algo{};
  int64_t workspaceBytes = 0;
  ~Plan() {
    for (CublasLtMatrixLayout layout : {a, b, c})
      if (layout != nullptr)
        (void)library->cublasLtMatrixLayoutDestroy(layout);
    if (desc != nullptr)
      (void)library->cublasLtMatmulDescDestroy(desc);
  }
};

bool CudaMatmul::supports(ElementType type) const {
  return type == ElementType::F32 || type == ElementType::F64 || type == ElementType::F16 ||
         type == ElementType::BF16;
}

CudaMatmul::CudaMatmul(const CublasLtLibrary &library) : library_(library) {}

absl::StatusOr<std::unique_ptr<CudaMatmul>> CudaMatmul::create(const CublasLtLibrary &library) {
  std::unique_ptr<CudaMatmul> matmul(new CudaMatmul(library));
  XS_RETURN_IF_ERROR(library.check(library.cublasLtCreate(&matmul->handle_), "cublasLtCreate"));
  return matmul;
}

CudaMatmul::~CudaMatmul() {
  plans_.clear();
  if (handle_ != nullptr)
    (void)library_.cublasLtDestroy(handle_);
}

absl::StatusOr<const CudaMatmul::Plan *> CudaMatmul::plan(ElementType type,
                                                          const MatmulShape &shape) {
  Key key{type, shape.batches, shape.m, shape.k, shape.n};
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = plans_.find(key); found != plans_.end())
    return found->second.get();
  const CublasLtLibrary &lt = library_;
  auto plan = std::make_unique<Plan>();
  plan->library = &lt;
  bool f64 = type == ElementType::F64;
  XS_RETURN_IF_ERROR(
      lt.check(lt.cublasLtMatmulDescCreate(&plan->desc, f64 ? kComputeF64 : kComputeF32,
                                           f64 ? kDataF64 : kDataF32),
               "cublasLtMatmulDescCreate"));
  int data = dataType(type);
  // Column-major views of the row-major operands: B as N x K, A as K x M, C
  // as N x M, each batch a whole matrix after the previous one.
  auto layout = [&](CublasLtMatrixLayout &out, int64_t rows, int64_t cols) -> absl::Status {
    XS_RETURN_IF_ERROR(
        lt.check(lt.cublasLtMatrixLayoutCreate(&out, data, static_cast<uint64_t>(rows),
                                               static_cast<uint64_t>(cols), rows),
                 "cublasLtMatrixLayoutCreate"));
    if (shape.batches == 1)
      return absl::OkStatus();
    int32_t count = static_cast<int32_t>(shape.batches);
    int64_t stride = rows * cols;
    XS_RETURN_IF_ERROR(
        lt.check(lt.cublasLtMatrixLayoutSetAttribute(out, kLayoutBatchCount, &count, sizeof(count)),
                 "cublasLtMatrixLayoutSetAttribute"));
    return lt.check(lt.cublasLtMatrixLayoutSetAttribute(out, kLayoutStridedBatchOffset, &stride,
                                                        sizeof(stride)),
                    "cublasLtMatrixLayoutSetAttribute");
  };
  XS_RETURN_IF_ERROR(layout(plan->b, shape.n, shape.k));
  XS_RETURN_IF_ERROR(layout(plan->a, shape.k, shape.m));
  XS_RETURN_IF_ERROR(layout(plan->c, shape.n, shape.m));

  CublasLtMatmulPreference preference = nullptr;
  XS_RETURN_IF_ERROR(
      lt.check(lt.cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate"));
  uint64_t maxWorkspace = kMaxWorkspaceBytes;
  CublasLtHeuristicResult result{};
  int returned = 0;
  absl::Status found =
      lt.check(lt.cublasLtMatmulPreferenceSetAttribute(preference, kPreferenceMaxWorkspaceBytes,
                                                       &maxWorkspace, sizeof(maxWorkspace)),
               "cublasLtMatmulPreferenceSetAttribute");
  if (found.ok())
    found =
        lt.check(lt.cublasLtMatmulAlgoGetHeuristic(handle_, plan->desc, plan->b, plan->a, plan->c,
                                                   plan->c, preference, 1, &result, &returned),
                 "cublasLtMatmulAlgoGetHeuristic");
  (void)lt.cublasLtMatmulPreferenceDestroy(preference);
  XS_RETURN_IF_ERROR(found);
  if (returned < 1 || result.state != 0)
    return absl::UnimplementedError(strCat(
        "cuBLASLt has no algorithm for a ", elementTypeName(type), " product of ", shape.batches,
        " x [", shape.m, ", ", shape.k, "] x [", shape.k, ", ", shape.n, "] on this GPU"));
  plan->algo = result.algo;
  plan->workspaceBytes = static_cast<int64_t>(result.workspaceSize);
  const Plan *kept = plan.get();
  plans_.emplace(key, std::move(plan));
  return kept;
}

absl::StatusOr<int64_t> CudaMatmul::workspaceBytes(ElementType type, const MatmulShape &shape) {
  if (shape.batches == 0 || shape.m == 0 || shape.n == 0 || shape.k == 0)
    return 0;
  XS_ASSIGN_OR_RETURN(const Plan *p, plan(type, shape));
  return p->workspaceBytes;
}

absl::Status CudaMatmul::run(ElementType type, const MatmulShape &shape, CUdeviceptr a,
                             CUdeviceptr b, CUdeviceptr c, CUdeviceptr workspace,
                             gpu::StreamHandle stream) {
  if (shape.batches == 0 || shape.m == 0 || shape.n == 0 || shape.k == 0)
    return absl::OkStatus();
  XS_ASSIGN_OR_RETURN(const Plan *p, plan(type, shape));
  double alpha64 = 1, beta64 = 0;
  float alpha32 = 1, beta32 = 0;
  bool f64 = type == ElementType::F64;
  auto pointer = [](CUdeviceptr address) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  };
  return library_.check(library_.cublasLtMatmul(
                            handle_, p->desc, f64 ? static_cast<const void *>(&alpha64) : &alpha32,
                            pointer(b), p->b, pointer(a), p->a,
                            f64 ? static_cast<const void *>(&beta64) : &beta32, pointer(c), p->c,
                            pointer(c), p->c, &p->algo, pointer(workspace),
                            static_cast<size_t>(p->workspaceBytes), static_cast<CUstream>(stream)),
                        "cublasLtMatmul");
}

} // namespace xs::cuda
