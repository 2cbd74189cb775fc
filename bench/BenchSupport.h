#ifndef XSTITCH_BENCH_BENCHSUPPORT_H
#define XSTITCH_BENCH_BENCHSUPPORT_H

// Shared pieces of the benchmarks: the memory floor measured in the same run,
// and timing of a compiled function.

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace xs::bench {

/// Median seconds of `iters` calls of `fn` after `warmup` calls.
double medianSeconds(const std::function<void()> &fn, int iters, int warmup = 2);

/// Medians over `iters` timed calls of each of several functions.
struct TurnMedians {
  std::vector<double> seconds; // wall time of a call
  std::vector<double> values;  // what the call returned (a share it timed itself)
};

/// Times `fns` in turns: each turn calls one function `perTurn` times after
/// one untimed call (which brings its data back into the caches, as
/// consecutive calls would have it), and the functions take turns until
/// each has `iters` timed calls, so that a machine whose speed drifts over
/// seconds slows them alike and their ratio holds.
TurnMedians medianSecondsInTurns(const std::vector<std::function<double()>> &fns, int iters,
                                 int perTurn = 5);

/// Copy bandwidth in bytes per second (bytes read + bytes written), measured
/// by a parallel copy of `bytes` bytes with `threads` workers (0: all).
double measureCopyBandwidth(size_t bytes, int threads);

/// The copy floor, measured again next to each measurement it judges: the
/// buffers are kept, so a measurement costs a few copies, not allocations.
class CopyFloor {
public:
  CopyFloor(size_t bytes, int threads);
  ~CopyFloor();
  /// Bytes per second (read + written), median of `iters` copies.
  double measure(int iters = 7);
  /// One parallel copy (to time in turns with what the floor judges:
  /// medianSecondsInTurns), and the bytes it reads and writes.
  void copy();
  double bytesMoved() const;

private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

} // namespace xs::bench

#endif // XSTITCH_BENCH_BENCHSUPPORT_H
