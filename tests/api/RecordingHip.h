#ifndef XSTITCH_TESTS_API_RECORDINGHIP_H
#define XSTITCH_TESTS_API_RECORDINGHIP_H

// What the recording libamdhip64.so (RecordingLibamdhip64.cpp) records, read
// by the C API's HIP test through recording_hip_state().

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

struct RecordedHipLaunch {
  std::string kernel;
  unsigned grid = 0, threads = 0;
  void *stream = nullptr;
  uint64_t buffers[2] = {0, 0}; // the first two entries of the launch's buffer table
};

struct RecordingHipState {
  std::atomic<int> hostToDevice{0}, deviceToHost{0}, deviceToDevice{0}; // async copies
  std::vector<RecordedHipLaunch> launches;
  std::vector<void *> synchronized; // streams waited for, in order
  std::vector<std::string> codeObjects;
};

extern "C" RecordingHipState *recording_hip_state();

#endif // XSTITCH_TESTS_API_RECORDINGHIP_H
