#ifndef XSTITCH_TOOLS_COMMON_TERMINALPROGRESS_H
#define XSTITCH_TOOLS_COMMON_TERMINALPROGRESS_H

// A status line for long work in the tools ("xstitch-run: compiling
// model.onnx: generating code for 48 kernels (2.1 s)"): on a terminal it is
// redrawn in place, once the work has gone on for a moment, and erased when
// the work ends or other output is written; where the stream is not a
// terminal (a file, a pipe, a CI log) it says nothing, unless asked to write
// each new status as a line of its own (--progress=always).

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "absl/status/statusor.h"

namespace xs {

enum class ProgressMode {
  Auto,   // in place on a terminal, nothing elsewhere (the default)
  Always, // in place on a terminal, one line per status elsewhere
  Never,
};

/// "auto", "always", "never".
absl::StatusOr<ProgressMode> parseProgressMode(std::string_view text);

struct TerminalProgressOptions {
  ProgressMode mode = ProgressMode::Auto;
  std::FILE *stream = stderr;
  /// Whether `stream` is a terminal; unset: isatty() says.
  std::optional<bool> terminal;
  /// On a terminal, nothing is drawn before the work has gone on this long
  /// (short work leaves no trace).
  std::chrono::milliseconds delay{1000};
  /// How often the line's elapsed time is redrawn; a new status is drawn at
  /// once unless the last drawing is more recent than a tenth of this
  /// (a run of quick cases does not flood the terminal).
  std::chrono::milliseconds redraw{250};
};

class TerminalProgress {
public:
  /// `prefix` starts every status ("xstitch-run: compiling model.onnx").
  TerminalProgress(std::string prefix, TerminalProgressOptions options);
  ~TerminalProgress(); // stop()
  TerminalProgress(const TerminalProgress &) = delete;
  TerminalProgress &operator=(const TerminalProgress &) = delete;

  /// The current status, after the prefix ("planning", "[12/618] test_abs").
  /// Any thread may call it.
  void set(std::string status);
  /// Erases the line, so that other output starts at the left margin; the
  /// next redraw brings it back.
  void clear();
  /// Erases the line for good: the work is over (its results follow).
  void stop();
  /// Whether anything is ever written.
  bool active() const { return inPlace_ || plain_; }

private:
  void draw(std::unique_lock<std::mutex> &lock);
  void erase(std::unique_lock<std::mutex> &lock);
  void tick();

  std::string prefix_;
  TerminalProgressOptions options_;
  bool inPlace_ = false; // redrawn on a terminal
  bool plain_ = false;   // one line per status
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string status_;
  bool shown_ = false; // a line is on the terminal now
  std::chrono::steady_clock::time_point lastDraw_;
  bool stopping_ = false;
  std::thread ticker_;
};

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_TERMINALPROGRESS_H
