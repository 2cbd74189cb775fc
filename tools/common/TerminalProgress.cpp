#include "tools/common/TerminalProgress.h"

#include <unistd.h>

#include "absl/strings/str_format.h"
#include "ir/Diagnostics.h"

namespace xs {

absl::StatusOr<ProgressMode> parseProgressMode(std::string_view text) {
  if (text == "auto")
    return ProgressMode::Auto;
  if (text == "always")
    return ProgressMode::Always;
  if (text == "never")
    return ProgressMode::Never;
  return absl::InvalidArgumentError(
      strCat("--progress needs auto, always or never, got '", text, "'"));
}

TerminalProgress::TerminalProgress(std::string prefix, TerminalProgressOptions options)
    : prefix_(std::move(prefix)), options_(options), start_(std::chrono::steady_clock::now()) {
  bool terminal =
      options_.terminal.has_value() ? *options_.terminal : isatty(fileno(options_.stream)) == 1;
  inPlace_ = terminal && options_.mode != ProgressMode::Never;
  plain_ = !terminal && options_.mode == ProgressMode::Always;
  if (inPlace_)
    ticker_ = std::thread([this] { tick(); });
}

TerminalProgress::~TerminalProgress() { stop(); }

void TerminalProgress::stop() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    stopping_ = true;
    erase(lock);
  }
  wake_.notify_all();
  if (ticker_.joinable())
    ticker_.join();
}

void TerminalProgress::set(std::string status) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_ || status == status_)
    return;
  status_ = std::move(status);
  if (plain_) {
    std::fprintf(options_.stream, "%s: %s\n", prefix_.c_str(), status_.c_str());
    std::fflush(options_.stream);
  } else if (inPlace_ &&
             (!shown_ || std::chrono::steady_clock::now() - lastDraw_ >= options_.redraw / 10)) {
    draw(lock);
  }
}

void TerminalProgress::clear() {
  std::unique_lock<std::mutex> lock(mutex_);
  erase(lock);
}

void TerminalProgress::draw(std::unique_lock<std::mutex> &) {
  auto elapsed = std::chrono::steady_clock::now() - start_;
  if (stopping_ || status_.empty() || elapsed < options_.delay)
    return;
  double seconds = std::chrono::duration<double>(elapsed).count();
  // \r and "erase to the end of the line": the new status over the old.
  std::string line = absl::StrFormat("\r\033[K%s: %s (%.1f s)", prefix_, status_, seconds);
  std::fputs(line.c_str(), options_.stream);
  std::fflush(options_.stream);
  shown_ = true;
  lastDraw_ = std::chrono::steady_clock::now();
}

void TerminalProgress::erase(std::unique_lock<std::mutex> &) {
  if (!shown_)
    return;
  std::fputs("\r\033[K", options_.stream);
  std::fflush(options_.stream);
  shown_ = false;
}

void TerminalProgress::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, options_.redraw, [this] { return stopping_; });
    draw(lock);
  }
}

} // namespace xs
