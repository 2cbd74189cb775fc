#ifndef XSTITCH_TESTS_UNIT_RECORDINGCUDADRIVER_H
#define XSTITCH_TESTS_UNIT_RECORDINGCUDADRIVER_H

// A recording CUDA driver for tests of the CUDA device's host side: entry
// points that keep "device" memory in host memory and record every module
// load, launch, copy, stream and event on a RecordingGpu, whose fields the
// tests also set to play other GPUs and failures.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "runtime/cuda/CudaDriver.h"

namespace xs::cuda::testing {

struct RecordedLaunch {
  std::string kernel;
  unsigned grid = 0, threads = 0, sharedBytes = 0;
  std::vector<int64_t> dims;     // the dims array the kernel was given
  int64_t *dimsArray = nullptr;  // where it is (the run's status word follows the symbols)
  std::vector<uint64_t> buffers; // its buffer table
  int64_t blockBegin = 0;
  bool cooperative = false;        // cuLaunchCooperativeKernel
  const uint64_t *table = nullptr; // the whole buffer table, for a longer look
};

/// The state behind the recording driver's entry points.
struct RecordingGpu {
  int devices = 1;
  std::set<uint64_t> live; // allocations
  int allocations = 0;
  std::vector<std::string> modules;   // PTX loaded
  std::vector<std::string> functions; // handles are index + 1
  std::vector<RecordedLaunch> launches;
  /// Called at each launch: what the "kernel" does to its buffers.
  void (*kernelEffect)(const RecordedLaunch &) = nullptr;
  bool rejectPtx = false;
  CUcontext current = nullptr; // the calling thread's current context
  CUresult syncResult = 0;
  // Events: each record is one tick of a fake GPU clock of 0.25 ms.
  std::map<uint64_t, int> eventTicks;
  int ticks = 0, eventsLive = 0; // what stream synchronization answers (700: a faulted kernel)
  int hostToDevice = 0, deviceToHost = 0, deviceToDevice = 0; // copies queued
  std::vector<CUstream> launchStreams, synchronized;
  /// Blocks of any kernel that fit an SM at once (the occupancy query): 0
  /// keeps variants of several phases to a launch per phase.
  int occupancy = 0;
  /// Whether the streams have passed every event recorded on them
  /// (cuEventQuery): false keeps runs left queued holding their memory.
  bool eventsDone = true;
  int driverVersion = 13000; // cuDriverGetVersion: CUDA 13.0
  bool outOfMemory = false;  // cuMemAlloc and cuMemHostAlloc fail
  /// Every allocation from the failFrom-th request on fails (0: none).
  int failFrom = 0, allocationRequests = 0;
  int resets = 0; // cuDevicePrimaryCtxReset calls
  /// Shared memory a block may opt in to (attribute 97): an H200's by
  /// default; less plays a smaller GPU than the plan was made for.
  int sharedOptIn = 227 * 1024;
};

/// The GPU the recording driver's entry points act on: one at a time, set
/// by a test before it uses the driver and cleared after.
extern RecordingGpu *recordingGpu;

/// The driver's entry-point table over recordingGpu.
CudaDriver recordingDriver();

} // namespace xs::cuda::testing

#endif // XSTITCH_TESTS_UNIT_RECORDINGCUDADRIVER_H
