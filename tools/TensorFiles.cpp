#include "tools/TensorFiles.h"

#include "frontend/onnx/OnnxImporter.h"
#include "tools/common/Npy.h"

namespace xs {

namespace {
bool isTensorProto(const std::string &path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
}
} // namespace

absl::StatusOr<HostTensor> readTensorFile(const std::string &path) {
  return isTensorProto(path) ? readTensorProtoFile(path) : readNpy(path);
}

absl::Status writeTensorFile(const std::string &path, const HostTensor &tensor) {
  return isTensorProto(path) ? writeTensorProtoFile(path, tensor) : writeNpy(path, tensor);
}

} // namespace xs
