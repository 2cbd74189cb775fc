#ifndef XSTITCH_FRONTEND_ONNX_MAPPEDMODEL_H
#define XSTITCH_FRONTEND_ONNX_MAPPEDMODEL_H

// An ONNX model file read without copying its large initializers' bytes into
// the protobuf: the file is mapped, the ModelProto is parsed from its bytes
// minus the initializers' raw data, and each initializer's raw bytes stay in
// the mapping until the importer copies them into the weights' storage. A
// protobuf's own parse would copy them into strings first (BERT-base: 340 MB
// copied and mapped twice; docs/performance.md).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx/onnx_pb.h"

namespace xs {

/// The initializers' raw bytes kept out of a model's proto.
struct RawInitializers {
  /// Per initializer of the graph, in order: its raw bytes, or null where
  /// they are in the proto.
  std::vector<std::optional<std::string_view>> bytes;
  /// Called with an initializer's bytes once they are copied: their pages of
  /// the mapping leave the process's memory (the file's pages stay in the
  /// page cache), so that the weights are not held twice. Keeps the mapping
  /// alive.
  std::function<void(std::string_view)> release;
};

struct MappedModel {
  /// The model; an initializer whose bytes stay in the mapping has a raw_data
  /// of one zero byte in their place (the ONNX checker wants one non-empty
  /// value field, and compares no sizes).
  onnx::ModelProto model;
  RawInitializers raw;
};

/// Initializers whose raw data is at least this many bytes stay in the
/// mapping.
constexpr size_t kMappedRawDataBytes = 64 << 10;

/// The model in `path`, or nullopt where the file cannot be mapped or its
/// bytes are not a model this reader walks (the caller then parses it with
/// protobuf, which gives the error a malformed file deserves).
std::optional<MappedModel> readMappedModel(const std::string &path);

/// The same over bytes already in memory; `release` becomes
/// RawInitializers::release.
std::optional<MappedModel> walkModelBytes(std::string_view bytes,
                                          std::function<void(std::string_view)> release);

} // namespace xs

#endif // XSTITCH_FRONTEND_ONNX_MAPPEDMODEL_H
