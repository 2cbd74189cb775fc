// Fuzz target for the ONNX frontend: any bytes must either fail to import
// with an error that names the file, or import into IR that prints, parses
// back and survives the verifier; the mapped-file reader walks them only
// where protobuf parses them. Anything else (a crash, a sanitizer report,
// an exception, an error without the file) aborts, which the fuzzer records.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "frontend/onnx/MappedModel.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

namespace {

[[noreturn]] void fail(const char *what, std::string_view detail) {
  std::fprintf(stderr, "OnnxImportFuzzer: %s\n%.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  // The reader of mapped files walks the same bytes (never past them) and
  // gives a model only where protobuf parses them too.
  if (xs::walkModelBytes(bytes, [](std::string_view) {}).has_value()) {
    onnx::ModelProto parsed;
    if (!parsed.ParseFromString(bytes))
      fail("the mapped reader walks bytes protobuf does not parse", "");
  }
  absl::StatusOr<xs::OnnxImport> imported = xs::importOnnxBytes(bytes, "fuzz.onnx");
  if (!imported.ok()) {
    std::string message(imported.status().message());
    if (message.rfind("fuzz.onnx: error: ", 0) != 0)
      fail("an import error that does not name the file", message);
    if (imported.status().code() == absl::StatusCode::kInternal)
      fail("an internal error", message);
    return 0;
  }
  std::string printed = xs::printModule(*imported->module);
  absl::StatusOr<std::unique_ptr<xs::Module>> reparsed = xs::parseModule(printed, "printed.xs");
  if (!reparsed.ok())
    fail("the imported IR does not parse back",
         std::string(reparsed.status().message()) + "\n--- print:\n" + printed);
  for (const auto &function : (*reparsed)->functions())
    if (absl::Status s = xs::verifyFunction(*function); !s.ok())
      fail("the imported IR does not verify",
           std::string(s.message()) + "\n--- print:\n" + printed);
  return 0;
}
