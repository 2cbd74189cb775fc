// Fuzz target for the text format: any bytes must either fail to parse with
// a located error, or parse into IR that prints, re-parses to the same print,
// and survives the verifier. Anything else (a crash, a sanitizer report, a
// print that does not read back) aborts, which the fuzzer records.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

namespace {

[[noreturn]] void fail(const char *what, std::string_view detail) {
  std::fprintf(stderr, "ParserFuzzer: %s\n%.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<std::unique_ptr<xs::Module>> module = xs::parseModule(text, "fuzz.xs");
  if (!module.ok()) {
    std::string message(module.status().message());
    if (message.rfind("fuzz.xs:", 0) != 0 || message.find(": error: ") == std::string::npos)
      fail("a parse error without a location", message);
    return 0;
  }
  std::string printed = xs::printModule(**module);
  absl::StatusOr<std::unique_ptr<xs::Module>> reparsed = xs::parseModule(printed, "printed.xs");
  if (!reparsed.ok())
    fail("the print does not parse",
         std::string(reparsed.status().message()) + "\n--- print:\n" + printed);
  std::string reprinted = xs::printModule(**reparsed);
  if (reprinted != printed)
    fail("print(parse(print(x))) != print(x)",
         "--- first print:\n" + printed + "--- second print:\n" + reprinted);
  // Unknown result types are legal before shape inference; the verifier must
  // judge everything else without crashing, whatever it decides.
  xs::VerifyOptions options;
  options.requireKnownTypes = false;
  (void)xs::verifyModule(**reparsed, options).ok();
  return 0;
}
