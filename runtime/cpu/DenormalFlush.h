#ifndef XSTITCH_RUNTIME_CPU_DENORMALFLUSH_H
#define XSTITCH_RUNTIME_CPU_DENORMALFLUSH_H

// Kernels run with subnormal floats flushed to zero (results) and read as
// zero (operands), as XLA's and TensorFlow's CPU runtimes do: an x86 core
// takes a microcode assist for each subnormal result, and a masked softmax,
// whose exp underflows for most keys, ran 2.6x slower with them kept
// (attn_softmax, 1.40 against 0.54 ms). CpuDeviceOptions::flushDenormals
// turns it off (`xstitch-run --keep-denormals`).

#if !defined(__x86_64__) && !defined(__i386__)
#error "DenormalFlush.h sets the x86 MXCSR; the CPU runtime targets x86"
#endif
#include <xmmintrin.h>

namespace xs {

/// Sets MXCSR's flush-to-zero and denormals-are-zero bits for the current
/// thread while alive and restores the previous control word after.
class ScopedDenormalFlush {
public:
  explicit ScopedDenormalFlush(bool enable) : enabled_(enable) {
    if (!enabled_)
      return;
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
  }
  ~ScopedDenormalFlush() {
    if (enabled_)
      _mm_setcsr(saved_);
  }
  ScopedDenormalFlush(const ScopedDenormalFlush &) = delete;
  ScopedDenormalFlush &operator=(const ScopedDenormalFlush &) = delete;

private:
  static constexpr unsigned kFlushToZero = 0x8000;
  static constexpr unsigned kDenormalsAreZero = 0x0040;
  bool enabled_;
  unsigned saved_ = 0;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_DENORMALFLUSH_H
