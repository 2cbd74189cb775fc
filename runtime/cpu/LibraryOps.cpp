#include "runtime/cpu/LibraryOps.h"

#include <dlfcn.h>

#include <algorithm>
#include <vector>

#include "dnnl.h"

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "ir/FloatBits.h"
#include "tbb/blocked_range.h"
#include "tbb/parallel_for.h"
#include "tbb/partitioner.h"
#include "tbb/task_arena.h"

namespace xs {
namespace {

// Tiles chosen so that a K-by-N tile of the right operand (up to 128 x 512
// f32 = 256 KiB) stays in L2 while a few rows of the left one stream by.
constexpr int64_t kRowTile = 8;
constexpr int64_t kDepthTile = 128;
constexpr int64_t kColumnTile = 512;

struct DotShape {
  int64_t batches = 1, m = 0, k = 0, n = 0;
};

/// C[b] = A[b] * B[b] for row-major A [batches, M, K], B [batches, K, N],
/// accumulating in `Acc`. `load` widens an element to Acc; `store` narrows
/// the accumulated value to the result element.
template <typename Acc, typename In, typename Out, typename Load, typename Store>
void blockedDot(const In *a, const In *b, Out *c, DotShape s, Load load, Store store) {
  int64_t rows = s.batches * s.m;
  if (rows == 0 || s.n == 0)
    return;
  // Row tiles never cross a batch, so each tile reads one B matrix.
  int64_t tilesPerBatch = (s.m + kRowTile - 1) / kRowTile;
  int64_t tiles = s.batches * tilesPerBatch;
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, tiles),
                    [&](const tbb::blocked_range<int64_t> &range) {
                      std::vector<Acc> accumulator(static_cast<size_t>(kRowTile * s.n));
                      for (int64_t tile = range.begin(); tile != range.end(); ++tile) {
                        int64_t batch = tile / tilesPerBatch;
                        int64_t rowBegin = (tile % tilesPerBatch) * kRowTile;
                        int64_t rowCount = std::min(kRowTile, s.m - rowBegin);
                        const In *aTile = a + (batch * s.m + rowBegin) * s.k;
                        const In *bMatrix = b + batch * s.k * s.n;
                        std::fill(accumulator.begin(), accumulator.end(), Acc{});
                        for (int64_t jb = 0; jb < s.n; jb += kColumnTile) {
                          int64_t columns = std::min(kColumnTile, s.n - jb);
                          for (int64_t pb = 0; pb < s.k; pb += kDepthTile) {
                            int64_t depth = std::min(kDepthTile, s.k - pb);
                            for (int64_t i = 0; i < rowCount; ++i) {
                              Acc *__restrict cRow = accumulator.data() + i * s.n + jb;
                              const In *aRow = aTile + i * s.k + pb;
                              for (int64_t p = 0; p < depth; ++p) {
                                Acc scale = load(aRow[p]);
                                const In *__restrict bRow = bMatrix + (pb + p) * s.n + jb;
                                for (int64_t j = 0; j < columns; ++j)
                                  cRow[j] += scale * load(bRow[j]);
                              }
                            }
                          }
                        }
                        Out *cTile = c + (batch * s.m + rowBegin) * s.n;
                        for (int64_t i = 0; i < rowCount * s.n; ++i)
                          cTile[i] = store(accumulator[static_cast<size_t>(i)]);
                      }
                    });
}

template <typename T>
void floatDot(const TensorView &a, const TensorView &b, const TensorView &c, DotShape s) {
  auto identity = [](T v) { return v; };
  blockedDot<T>(static_cast<const T *>(a.data), static_cast<const T *>(b.data),
                static_cast<T *>(c.data), s, identity, identity);
}

/// Debian's oneDNN runs a GEMM in an OpenMP team of its own, whose threads
/// spin after each call and took the cores from the TBB workers of the next
/// kernel (bert_layer's memory-intensive kernels ran 1.6x slower after a
/// `dot`). GEMMs therefore run as TBB tasks, each with an OpenMP team of
/// one: one pool of workers for the whole program. The OpenMP entry points
/// are looked up at run time, where oneDNN's runtime has loaded them; the
/// thread's own setting is restored after (the calling thread joins the
/// arena and may belong to an application that uses OpenMP itself).
struct OpenMPThreads {
  using Set = void (*)(int);
  using Get = int (*)();
  Set set = reinterpret_cast<Set>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  Get get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  bool available() const { return set && get; }
};

const OpenMPThreads &openMP() {
  static const OpenMPThreads threads;
  return threads;
}

/// Runs `work` with this thread's OpenMP team size set to one.
template <typename Work> void withOneOpenMPThread(const Work &work) {
  const OpenMPThreads &omp = openMP();
  int previous = omp.get();
  omp.set(1);
  work();
  omp.set(previous);
}

/// Rows of the left operand one GEMM task multiplies, at least: smaller
/// slices of a large product would reload the right operand too often.
constexpr int64_t kMinGemmRows = 64;
/// Rows of a slice, about: oneDNN's sgemm ran 256-row slices faster than
/// larger ones (2 cores with AVX-512, [1024, 768] x [768, 3072] with TBB
/// over two workers: 10.5-10.9 ms as four slices of 256 rows, 13.8-15 ms as
/// two of 512; [4096, 768] x [768, 3072] the same, 41-43 ms, from two to
/// sixteen slices).
constexpr int64_t kGemmSliceRows = 256;

/// f32 goes to oneDNN's GEMM, over row slices of every batch in parallel.
/// Measured here (2 cores with AVX-512), f32 [4096, 768] x [768, 3072]:
/// oneDNN 63 ms, OpenBLAS 102 ms (it picks its AVX2 kernels on this CPU),
/// the blocked loops above about 10x slower.
void f32Dot(const float *lhs, const float *rhs, float *out, DotShape s) {
  if (s.batches == 0 || s.m == 0 || s.n == 0)
    return;
  if (s.k == 0) {
    std::fill(out, out + s.batches * s.m * s.n, 0.0f);
    return;
  }
  auto gemm = [&](int64_t batch, int64_t row, int64_t rows) {
    dnnl_sgemm('N', 'N', rows, s.n, s.k, 1.0f, lhs + (batch * s.m + row) * s.k, s.k,
               rhs + batch * s.k * s.n, s.n, 0.0f, out + (batch * s.m + row) * s.n, s.n);
  };
  if (!openMP().available()) {
    // A oneDNN without OpenMP threads its calls itself: one call per batch.
    for (int64_t batch = 0; batch < s.batches; ++batch)
      gemm(batch, 0, s.m);
    return;
  }
  int64_t workers = std::max(1, tbb::this_task_arena::max_concurrency());
  // A slice per worker at least over all batches, slices of about
  // kGemmSliceRows rows, each worker taking an even share of them in order.
  int64_t bySize = (s.m + kGemmSliceRows - 1) / kGemmSliceRows;
  int64_t slicesPerBatch = std::clamp<int64_t>(std::max<int64_t>(workers / s.batches, bySize), 1,
                                               std::max<int64_t>(s.m / kMinGemmRows, 1));
  int64_t sliceRows = (s.m + slicesPerBatch - 1) / slicesPerBatch;
  tbb::parallel_for(
      tbb::blocked_range<int64_t>(0, s.batches * slicesPerBatch),
      [&](const tbb::blocked_range<int64_t> &range) {
        withOneOpenMPThread([&] {
          for (int64_t task = range.begin(); task != range.end(); ++task) {
            int64_t batch = task / slicesPerBatch;
            int64_t row = (task % slicesPerBatch) * sliceRows;
            int64_t rows = std::min(sliceRows, s.m - row);
            if (rows > 0)
              gemm(batch, row, rows);
          }
        });
      },
      tbb::static_partitioner());
}

/// f16/bf16: widened to f32 once (exact), accumulated in f32, rounded once.
void halfDot(const TensorView &a, const TensorView &b, const TensorView &c, DotShape s,
             double (*decode)(uint16_t), uint16_t (*encode)(double)) {
  auto widen = [decode](const TensorView &t) {
    const uint16_t *in = static_cast<const uint16_t *>(t.data);
    std::vector<float> out(static_cast<size_t>(t.numElements()));
    tbb::parallel_for(tbb::blocked_range<size_t>(0, out.size()),
                      [&](const tbb::blocked_range<size_t> &r) {
                        for (size_t i = r.begin(); i != r.end(); ++i)
                          out[i] = static_cast<float>(decode(in[i]));
                      });
    return out;
  };
  std::vector<float> wideA = widen(a), wideB = widen(b);
  std::vector<float> wideC(static_cast<size_t>(s.batches * s.m * s.n));
  f32Dot(wideA.data(), wideB.data(), wideC.data(), s);
  uint16_t *out = static_cast<uint16_t *>(c.data);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, wideC.size()),
                    [&](const tbb::blocked_range<size_t> &r) {
                      for (size_t i = r.begin(); i != r.end(); ++i)
                        out[i] = encode(static_cast<double>(wideC[i]));
                    });
}

/// Integers: products and sums modulo 2^64 (as the interpreter), wrapped to
/// the width by the narrowing store.
template <typename T>
void integerDot(const TensorView &a, const TensorView &b, const TensorView &c, DotShape s) {
  auto widen = [](T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); };
  auto narrow = [](uint64_t v) { return static_cast<T>(v); };
  blockedDot<uint64_t>(static_cast<const T *>(a.data), static_cast<const T *>(b.data),
                       static_cast<T *>(c.data), s, widen, narrow);
}

void boolDot(const TensorView &a, const TensorView &b, const TensorView &c, DotShape s) {
  auto widen = [](uint8_t v) { return static_cast<uint64_t>(v != 0); };
  auto narrow = [](uint64_t v) { return static_cast<uint8_t>(v != 0); };
  blockedDot<uint64_t>(static_cast<const uint8_t *>(a.data), static_cast<const uint8_t *>(b.data),
                       static_cast<uint8_t *>(c.data), s, widen, narrow);
}

std::string viewStr(const TensorView &t) {
  return strCat(elementTypeName(t.type), "[", absl::StrJoin(t.shape, ", "), "]");
}

} // namespace

absl::Status cpuDot(const TensorView &lhs, const TensorView &rhs, const TensorView &result) {
  size_t rank = lhs.shape.size();
  bool valid = rank >= 2 && rhs.shape.size() == rank && result.shape.size() == rank &&
               lhs.type == rhs.type && lhs.type == result.type;
  for (size_t d = 0; valid && d + 2 < rank; ++d)
    valid = lhs.shape[d] == rhs.shape[d] && result.shape[d] == lhs.shape[d];
  valid = valid && lhs.shape[rank - 1] == rhs.shape[rank - 2] &&
          result.shape[rank - 2] == lhs.shape[rank - 2] &&
          result.shape[rank - 1] == rhs.shape[rank - 1];
  if (!valid)
    return absl::InternalError(strCat("dot: operands ", viewStr(lhs), " and ", viewStr(rhs),
                                      " do not give the result ", viewStr(result)));
  DotShape s;
  s.m = lhs.shape[rank - 2];
  s.k = lhs.shape[rank - 1];
  s.n = rhs.shape[rank - 1];
  for (size_t d = 0; d + 2 < rank; ++d)
    s.batches *= lhs.shape[d];
  switch (lhs.type) {
  case ElementType::F32:
    f32Dot(static_cast<const float *>(lhs.data), static_cast<const float *>(rhs.data),
           static_cast<float *>(result.data), s);
    break;
  case ElementType::F64:
    floatDot<double>(lhs, rhs, result, s);
    break;
  case ElementType::F16:
    halfDot(lhs, rhs, result, s, decodeF16, encodeF16);
    break;
  case ElementType::BF16:
    halfDot(lhs, rhs, result, s, decodeBF16, encodeBF16);
    break;
  case ElementType::I1:
    boolDot(lhs, rhs, result, s);
    break;
  case ElementType::I8:
    integerDot<int8_t>(lhs, rhs, result, s);
    break;
  case ElementType::U8:
    integerDot<uint8_t>(lhs, rhs, result, s);
    break;
  case ElementType::I32:
    integerDot<int32_t>(lhs, rhs, result, s);
    break;
  case ElementType::I64:
    integerDot<int64_t>(lhs, rhs, result, s);
    break;
  }
  return absl::OkStatus();
}

absl::Status runCpuLibraryOp(OpKind op, const std::vector<TensorView> &operands,
                             const TensorView &result) {
  switch (op) {
  case OpKind::Dot:
    if (operands.size() != 2)
      return absl::InternalError(strCat("dot takes 2 operands, got ", operands.size()));
    return cpuDot(operands[0], operands[1], result);
  default:
    return absl::UnimplementedError(
        strCat("the CPU runtime has no library implementation of ", mnemonic(op)));
  }
}

} // namespace xs
