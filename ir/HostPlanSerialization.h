#ifndef XSTITCH_IR_HOSTPLANSERIALIZATION_H
#define XSTITCH_IR_HOSTPLANSERIALIZATION_H

// A compiled program as bytes and back: the host plan (dims as their
// polynomials, constraints as their facts, host-symbol computations as IR
// text, constants as raw elements) and the kernels' objects. Persistent
// compile-cache entries and AOT bundles (runtime/ProgramFile.h) hold these
// bytes; they carry no version of their own, the file that holds them does.
//
// Reading checks every count, index and enum against what the bytes hold,
// so bytes that are not a program are a DataLoss error, never a crash; a
// plan that reads back is still checked by the device that loads it
// (checkHostPlan).

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"

namespace xs {

class ByteReader;
class ByteWriter;

void writeProgram(const CompiledProgram &program, ByteWriter &out);
/// With `owner` (what keeps the reader's bytes alive: a mapped file),
/// constants are used in place where they are aligned, not copied.
absl::StatusOr<CompiledProgram> readProgram(ByteReader &in,
                                            std::shared_ptr<const void> owner = nullptr);

/// The two above on a whole string.
std::string serializeProgram(const CompiledProgram &program);
absl::StatusOr<CompiledProgram> deserializeProgram(std::string_view bytes);

} // namespace xs

#endif // XSTITCH_IR_HOSTPLANSERIALIZATION_H
