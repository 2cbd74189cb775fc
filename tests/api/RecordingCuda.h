#ifndef XSTITCH_TESTS_API_RECORDINGCUDA_H
#define XSTITCH_TESTS_API_RECORDINGCUDA_H

// What the recording libcuda.so.1 (RecordingLibcuda.cpp) records, read by
// the C API's CUDA test through recording_cuda_state().

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

struct RecordedCudaLaunch {
  std::string kernel;
  unsigned grid = 0, threads = 0;
  void *stream = nullptr;
  uint64_t buffers[2] = {0, 0}; // the first two entries of the launch's buffer table
};

struct RecordingCudaState {
  std::atomic<int> hostToDevice{0}, deviceToHost{0}, deviceToDevice{0}; // async copies
  std::vector<RecordedCudaLaunch> launches;
  std::vector<void *> synchronized; // streams waited for, in order
};

extern "C" RecordingCudaState *recording_cuda_state();

#endif // XSTITCH_TESTS_API_RECORDINGCUDA_H
