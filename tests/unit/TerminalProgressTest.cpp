// The tools' status line (tools/common/TerminalProgress.h): drawn in place
// on a terminal, erased before other output and at the end; nothing where
// the stream is not a terminal unless asked, then one line per status.

#include "tools/common/TerminalProgress.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace xs {
namespace {

using namespace std::chrono_literals;

/// What was written to `file` so far.
std::string contents(std::FILE *file) {
  std::fflush(file);
  long size = std::ftell(file);
  std::string text(static_cast<size_t>(size), '\0');
  std::rewind(file);
  size_t read = std::fread(text.data(), 1, text.size(), file);
  text.resize(read);
  std::fseek(file, 0, SEEK_END);
  return text;
}

struct TempFile {
  std::FILE *file = std::tmpfile();
  ~TempFile() { std::fclose(file); }
};

TerminalProgressOptions optionsFor(std::FILE *file, ProgressMode mode, bool terminal) {
  TerminalProgressOptions options;
  options.mode = mode;
  options.stream = file;
  options.terminal = terminal;
  options.delay = 0ms;
  options.redraw = 10s; // no redraws by the ticker while a test looks
  return options;
}

TEST(TerminalProgressTest, DrawsInPlaceOnATerminalAndErasesAtTheEnd) {
  TempFile out;
  {
    TerminalProgress progress("xstitch-run: compiling m.onnx",
                              optionsFor(out.file, ProgressMode::Auto, true));
    EXPECT_TRUE(progress.active());
    progress.set("planning");
    std::string text = contents(out.file);
    EXPECT_EQ(text.rfind("\r\033[Kxstitch-run: compiling m.onnx: planning (", 0), 0u) << text;
    progress.clear();
    EXPECT_EQ(contents(out.file).substr(text.size()), "\r\033[K");
    // Other output now starts at the margin; the next status draws again.
    progress.set("loading");
    EXPECT_NE(contents(out.file).find(": loading ("), std::string::npos);
    // Stopped: erased, and nothing more (the work's results follow).
    progress.stop();
    size_t stopped = contents(out.file).size();
    progress.set("more");
    EXPECT_EQ(contents(out.file).size(), stopped);
  }
  std::string text = contents(out.file);
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K") << "the line is erased at the end";
}

TEST(TerminalProgressTest, ShortWorkLeavesNoTrace) {
  TempFile out;
  {
    TerminalProgressOptions options = optionsFor(out.file, ProgressMode::Auto, true);
    options.delay = 60s;
    TerminalProgress progress("xstitch-run", options);
    progress.set("planning");
    progress.clear();
  }
  EXPECT_EQ(contents(out.file), "");
}

TEST(TerminalProgressTest, QuietOffATerminalByDefaultAndEverywhereWithNever) {
  for (auto [mode, terminal] :
       {std::pair{ProgressMode::Auto, false}, std::pair{ProgressMode::Never, true},
        std::pair{ProgressMode::Never, false}}) {
    TempFile out;
    {
      TerminalProgress progress("xstitch-run", optionsFor(out.file, mode, terminal));
      EXPECT_FALSE(progress.active());
      progress.set("planning");
      progress.clear();
    }
    EXPECT_EQ(contents(out.file), "") << "terminal " << terminal;
  }
}

TEST(TerminalProgressTest, AlwaysWritesOneLinePerStatusElsewhere) {
  TempFile out;
  {
    TerminalProgress progress("xstitch-run", optionsFor(out.file, ProgressMode::Always, false));
    progress.set("planning");
    progress.set("planning"); // unchanged: no new line
    progress.clear();
    progress.set("loading");
  }
  EXPECT_EQ(contents(out.file), "xstitch-run: planning\nxstitch-run: loading\n");
}

TEST(TerminalProgressTest, ParsesModes) {
  EXPECT_EQ(*parseProgressMode("auto"), ProgressMode::Auto);
  EXPECT_EQ(*parseProgressMode("always"), ProgressMode::Always);
  EXPECT_EQ(*parseProgressMode("never"), ProgressMode::Never);
  absl::StatusOr<ProgressMode> bad = parseProgressMode("sometimes");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "--progress needs auto, always or never, got 'sometimes'");
}

} // namespace
} // namespace xs
