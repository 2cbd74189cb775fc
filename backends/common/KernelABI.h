#ifndef XSTITCH_BACKENDS_COMMON_KERNELABI_H
#define XSTITCH_BACKENDS_COMMON_KERNELABI_H

// The calling convention of compiled kernels, shared by the emitters and the
// runtimes.
//
// CPU (x86): every launch variant is a function
//   void SYMBOL(void *const *buffers, int64_t *dims,
//               int64_t blockBegin, int64_t blockEnd, uint64_t streamMask);
// `buffers` holds the kernel's arguments in HostStep::buffers order (body
// parameters, then body results, then KernelPlan::scratch), each pointing at
// row-major data of the buffer's element type (i1 as one byte, f16/bf16 as
// their 16-bit patterns).
// `dims` holds the values of HostPlan::symbols in order, then the run's
// status word (an i64, zero at the call; see encodeStatusWord). The function runs
// blocks [blockBegin, blockEnd); the runtime splits the grid over its workers
// in tasks of at most the plan's HostLaunchVariant::blocksPerTask blocks.
// Bit k of `streamMask` set: argument k is large enough that the kernel may
// write it with streaming stores, which do not keep it in the caches
// (CompiledProgram::streamingStoreBytes; backends/x86/StreamingStores.h).
// A variant with several phases is one such function per phase
// (phaseSymbol() in ir/HostPlan.h); the runtime runs each phase over the
// whole grid before the next one starts, which is the grid barrier.

//
// NVIDIA (nvptx): every launch variant is a kernel
//   .entry SYMBOL(void *const *buffers, int64_t *dims, int64_t blockBegin)
// with `buffers` and `dims` as above but in device memory; CUDA block
// ctaid.x runs plan block blockBegin + ctaid.x with the block's threads as
// its lanes (a grid of more than 2^31 - 1 blocks is several launches);
// SYMBOL is nvptxSymbol() of the variant's (or phase's) symbol. Block
// buffers live in the kernel's dynamic shared memory. A variant with several
// phases is one kernel per phase, launched one after another, and one
// cooperative kernel (cooperativeSymbol() in ir/HostPlan.h) with every
// phase, launched cooperatively with blockBegin 0 and any number of blocks
// that stay resident at once: its blocks stride over the grid, and
// buffers[n], after its n arguments, points at a 32-bit word in device
// memory, zero at the launch, for its grid barriers. Every pointer
// in `buffers` is aligned to kGpuBufferAlignment bytes: the kernels load
// and store runs of elements as 128-bit vectors where positions allow.
//
// AMD (amdgpu): the same kernels, as amdgpu_kernel functions of an HSA code
// object named by the plan's symbols as they are: workgroup workgroup_id.x
// runs plan block blockBegin + workgroup_id.x with its work-items as lanes,
// block buffers live in the kernel's dynamic LDS, and the cooperative kernel
// and its barrier word are NVIDIA's.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xs {

/// Positions of a CPU kernel's arguments, and their count.
enum CpuKernelArg : unsigned {
  kCpuBuffersArg,
  kCpuDimsArg,
  kCpuBlockBeginArg,
  kCpuBlockEndArg,
  kCpuStreamMaskArg,
  kCpuKernelArgs,
};
/// Kernel arguments the stream mask can mark: the first 64.
inline constexpr size_t kStreamMaskBits = 64;

/// The name of a kernel symbol in PTX, whose identifiers take no '.':
/// every '.' becomes "_$_" (as LLVM's NVPTX backend spells internal names).
inline std::string nvptxSymbol(std::string_view symbol) {
  std::string out;
  for (char c : symbol)
    out += c == '.' ? std::string("_$_") : std::string(1, c);
  return out;
}

/// The alignment of every buffer a GPU kernel (NVIDIA, AMD) is given (see above).
inline constexpr int64_t kGpuBufferAlignment = 16;

using CpuKernelFn = void (*)(void *const *buffers, int64_t *dims, int64_t blockBegin,
                             int64_t blockEnd, uint64_t streamMask);

/// The run's status word follows the symbols' values in `dims`. A kernel
/// whose data checks fail (HostPlan::checks: a division by zero, an index
/// out of range) raises it, with an atomic unsigned maximum, to at least
/// encodeStatusWord(code, value): the check's position in HostPlan::checks
/// plus one in the top 16 bits, the offending value (an index; 0 for a
/// division) saturated to 48 bits in the rest. After the run the runtime
/// reads it: 0 is success, anything else the error of its check. Of several
/// failures the largest word wins, so the report names one of them.
inline constexpr int64_t kStatusValueLimit = (int64_t{1} << 47) - 1;
inline constexpr uint64_t kStatusValueMask = (uint64_t{1} << 48) - 1;
inline constexpr uint64_t encodeStatusWord(int code, int64_t value) {
  return (static_cast<uint64_t>(code + 1) << 48) |
         (static_cast<uint64_t>(value) & kStatusValueMask);
}
struct StatusWord {
  int code = -1;          // position in HostPlan::checks; -1 for success
  int64_t value = 0;      // sign-extended from 48 bits
  bool saturated = false; // the value was at least kStatusValueLimit in magnitude
};
inline StatusWord decodeStatusWord(uint64_t word) {
  StatusWord w;
  if (word == 0)
    return w;
  w.code = static_cast<int>(word >> 48) - 1;
  uint64_t bits = word & kStatusValueMask;
  w.value = static_cast<int64_t>(bits << 16) >> 16;
  w.saturated = w.value >= kStatusValueLimit || w.value <= -kStatusValueLimit;
  return w;
}

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_KERNELABI_H
