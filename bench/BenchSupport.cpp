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

double measureCopyBandwidth(size_t bytes, int threads) {
  // Touch both buffers first so page faults are not timed.
  std::unique_ptr<char[]> src(new char[bytes]), dst(new char[bytes]);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  constexpr size_t kChunk = 1 << 20;
  size_t chunks = (bytes + kChunk - 1) / kChunk;
  double seconds = medianSeconds(
      [&] {
        arena.execute([&] {
          tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
            size_t begin = c * kChunk, n = std::min(kChunk, bytes - begin);
            std::memcpy(dst.get() + begin, src.get() + begin, n);
          });
        });
      },
      7);
  return 2.0 * static_cast<double>(bytes) / seconds;
}

} // namespace xs::bench
