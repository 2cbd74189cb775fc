#include "bench/BenchSupport.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_for.h"
#include "oneapi/tbb/task_arena.h"

namespace xs::bench {

double medianSeconds(const std::function<void()> &fn, int iters, int warmup) {
  for (int i = 0; i < warmup; ++i)
    fn();
  std::vector<double> times;
  for (int i = 0; i < iters; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

TurnMedians medianSecondsInTurns(const std::vector<std::function<double()>> &fns, int iters,
                                 int perTurn) {
  perTurn = std::max(perTurn, 1);
  std::vector<std::vector<double>> times(fns.size()), values(fns.size());
  for (int done = 0; done < iters; done += perTurn)
    for (size_t i = 0; i < fns.size(); ++i) {
      (void)fns[i]();
      for (int k = 0; k < perTurn && done + k < iters; ++k) {
        auto start = std::chrono::steady_clock::now();
        values[i].push_back(fns[i]());
        times[i].push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
  auto median = [](std::vector<double> &v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  TurnMedians m;
  for (size_t i = 0; i < fns.size(); ++i) {
    m.seconds.push_back(median(times[i]));
    m.values.push_back(median(values[i]));
  }
  return m;
}

struct CopyFloor::Buffers {
  size_t bytes;
  std::unique_ptr<char[]> src, dst;
  tbb::task_arena arena;
  Buffers(size_t n, int threads)
      : bytes(n), src(new char[n]), dst(new char[n]),
        arena(threads > 0 ? threads : tbb::task_arena::automatic) {}
};

CopyFloor::CopyFloor(size_t bytes, int threads)
    : buffers_(std::make_unique<Buffers>(bytes, threads)) {
  // Touch both buffers first so page faults are not timed.
  std::memset(buffers_->src.get(), 1, bytes);
  std::memset(buffers_->dst.get(), 0, bytes);
}

CopyFloor::~CopyFloor() = default;

void CopyFloor::copy() {
  Buffers &b = *buffers_;
  constexpr size_t kChunk = 1 << 20;
  size_t chunks = (b.bytes + kChunk - 1) / kChunk;
  b.arena.execute([&] {
    tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
      size_t begin = c * kChunk, n = std::min(kChunk, b.bytes - begin);
      std::memcpy(b.dst.get() + begin, b.src.get() + begin, n);
    });
  });
}

double CopyFloor::bytesMoved() const { return 2.0 * static_cast<double>(buffers_->bytes); }

double CopyFloor::measure(int iters) {
  return bytesMoved() / medianSeconds([&] { copy(); }, iters);
}

double measureCopyBandwidth(size_t bytes, int threads) {
  return CopyFloor(bytes, threads).measure();
}

} // namespace xs::bench
