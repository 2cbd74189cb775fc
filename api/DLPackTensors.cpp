#include "api/DLPackTensors.h"

#include <cstring>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs::api {

namespace {

/// DLPack's bool (DLPack 0.8 and newer; Debian's header is 0.6).
constexpr uint8_t kDLBoolCode = 6;

bool isHostDevice(DLDeviceType type) { return type == kDLCPU || type == kDLCUDAHost; }

std::string deviceText(DLDevice device) {
  switch (device.device_type) {
  case kDLCPU:
    return "the CPU";
  case kDLCUDAHost:
    return "the CPU (CUDA pinned memory)";
  case kDLCUDA:
    return strCat("cuda:", device.device_id);
  case kDLCUDAManaged:
    return strCat("cuda:", device.device_id, " (managed memory)");
  case kDLROCM:
    return strCat("hip:", device.device_id, " (ROCm)");
  default:
    return strCat("DLPack device type ", static_cast<int>(device.device_type));
  }
}

} // namespace

std::optional<DLDevice> dlpackGpuOf(const DeviceSpec &device) {
  if (device.platform == "cuda")
    return DLDevice{kDLCUDA, device.ordinal};
  if (device.platform == "hip")
    return DLDevice{kDLROCM, device.ordinal};
  return std::nullopt;
}

namespace {

/// Where a tensor is, for an executable: host memory, or the executable's
/// GPU; another device is an error.
absl::StatusOr<bool> inDeviceMemory(const xs_executable_s &executable, const DLTensor &tensor,
                                    const std::string &what) {
  DLDevice device = tensor.device;
  if (isHostDevice(device.device_type))
    return false;
  if (executable.gpu && device.device_id == executable.gpu->device_id &&
      (device.device_type == executable.gpu->device_type ||
       (executable.gpu->device_type == kDLCUDA && device.device_type == kDLCUDAManaged)))
    return true;
  return absl::InvalidArgumentError(
      strCat(what, " is on ", deviceText(device), " but the executable runs on ", executable.device,
             executable.gpu ? "; pass tensors on that GPU or on the CPU"
                            : "; pass tensors in host memory"));
}

std::string shapeText(const DLTensor &t) {
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  return strCat("[", absl::StrJoin(shape, ", "), "]");
}

/// Whether `t`'s strides (in elements) are those of a compact row-major
/// layout; dims of size 1 may have any stride.
bool isCompact(const DLTensor &t) {
  if (t.strides == nullptr)
    return true;
  int64_t expected = 1;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] != 1 && t.strides[i] != expected)
      return false;
    expected *= t.shape[i];
  }
  return true;
}

int64_t elementCount(const DLTensor &t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t.ndim; ++i)
    n *= t.shape[i];
  return n;
}

void *dataOf(const DLTensor &t) {
  return t.data == nullptr ? nullptr : static_cast<char *>(t.data) + t.byte_offset;
}

/// Copies a strided host tensor into compact row-major memory.
void copyCompact(const DLTensor &t, int64_t elementBytes, char *out) {
  const char *base = static_cast<const char *>(dataOf(t));
  int32_t rank = t.ndim;
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  int64_t total = elementCount(t);
  size_t size = static_cast<size_t>(elementBytes);
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (int32_t d = 0; d < rank; ++d)
      offset += index[static_cast<size_t>(d)] * t.strides[d];
    std::memcpy(out + n * elementBytes, base + offset * elementBytes, size);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < t.shape[d])
        break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

/// The checks every tensor passes, input or output.
absl::Status checkTensor(const DLTensor &t, const TensorDescription &desc,
                         const std::string &what) {
  if (t.ndim < 0 || (t.ndim > 0 && t.shape == nullptr))
    return absl::InvalidArgumentError(
        strCat(what, " has ndim ", t.ndim, t.ndim > 0 ? " but no shape" : ""));
  if (!acceptsDlpackType(desc.type, t.dtype))
    return absl::InvalidArgumentError(
        strCat(what, " is ", dlpackTypeName(t.dtype), " but the executable takes ",
               dlpackTypeName(desc.dtype), " (", elementTypeName(desc.type), ")"));
  if (static_cast<size_t>(t.ndim) != desc.dims.size())
    return absl::InvalidArgumentError(strCat(what, " has rank ", t.ndim, " (shape ", shapeText(t),
                                             ") but the executable takes rank ", desc.dims.size()));
  for (int32_t i = 0; i < t.ndim; ++i)
    if (t.shape[i] < 0)
      return absl::InvalidArgumentError(
          strCat(what, " has a negative dim ", i, " (shape ", shapeText(t), ")"));
  return absl::OkStatus();
}

TensorView viewOf(const DLTensor &t, ElementType type) {
  TensorView view;
  view.type = type;
  view.shape.assign(t.shape, t.shape + t.ndim);
  view.data = dataOf(t);
  return view;
}

} // namespace

DLDataType dlpackType(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return {kDLFloat, 32, 1};
  case ElementType::F16:
    return {kDLFloat, 16, 1};
  case ElementType::BF16:
    return {kDLBfloat, 16, 1};
  case ElementType::F64:
    return {kDLFloat, 64, 1};
  case ElementType::I1:
  case ElementType::U8:
    return {kDLUInt, 8, 1};
  case ElementType::I8:
    return {kDLInt, 8, 1};
  case ElementType::I32:
    return {kDLInt, 32, 1};
  case ElementType::I64:
    return {kDLInt, 64, 1};
  }
  return {kDLOpaqueHandle, 0, 1};
}

bool acceptsDlpackType(ElementType expected, DLDataType dtype) {
  if (dtype.lanes != 1)
    return false;
  DLDataType want = dlpackType(expected);
  if (dtype.code == want.code && dtype.bits == want.bits)
    return true;
  return expected == ElementType::I1 && dtype.code == kDLBoolCode && dtype.bits == 8;
}

std::string dlpackTypeName(DLDataType dtype) {
  std::string base;
  switch (dtype.code) {
  case kDLInt:
    base = "int";
    break;
  case kDLUInt:
    base = "uint";
    break;
  case kDLFloat:
    base = "float";
    break;
  case kDLBfloat:
    base = "bfloat";
    break;
  case kDLBoolCode:
    base = "bool";
    break;
  default:
    base = strCat("code", static_cast<int>(dtype.code), "_");
  }
  std::string name = strCat(base, static_cast<int>(dtype.bits));
  if (dtype.lanes != 1)
    name += strCat("x", dtype.lanes);
  return name;
}

absl::StatusOr<RunTensors> viewInputs(const xs_executable_s &executable, const DLTensor *inputs,
                                      size_t numInputs) {
  if (numInputs != executable.inputs.size())
    return absl::InvalidArgumentError(strCat("@", executable.function, " takes ",
                                             executable.inputs.size(), " inputs but ", numInputs,
                                             " were given"));
  if (numInputs > 0 && inputs == nullptr)
    return absl::InvalidArgumentError(
        strCat("inputs is NULL but @", executable.function, " takes ", numInputs));
  RunTensors tensors;
  std::optional<bool> side; // every tensor on the GPU, or every one on the host
  for (size_t i = 0; i < numInputs; ++i) {
    const DLTensor &t = inputs[i];
    const TensorDescription &desc = executable.inputs[i];
    std::string what = strCat("input ", i, " ('", desc.name, "')");
    XS_RETURN_IF_ERROR(checkTensor(t, desc, what));
    XS_ASSIGN_OR_RETURN(bool device, inDeviceMemory(executable, t, what));
    if (side && *side != device)
      return absl::InvalidArgumentError(
          strCat(what, " is on ", deviceText(t.device), " but input 0 is ",
                 device ? "in host memory" : "on the GPU", "; pass every tensor on one side"));
    side = device;
    TensorView view = viewOf(t, desc.type);
    if (!isCompact(t)) {
      if (device)
        return absl::InvalidArgumentError(
            strCat(what, " on ", deviceText(t.device),
                   " has strides that are not compact "
                   "row-major; pass a contiguous tensor (e.g. x.contiguous())"));
      int64_t bytes = elementCount(t) * elementByteSize(desc.type);
      auto copy =
          std::shared_ptr<char[]>(new char[static_cast<size_t>(std::max<int64_t>(bytes, 1))]);
      copyCompact(t, elementByteSize(desc.type), copy.get());
      view.data = copy.get();
      tensors.compactCopies.push_back(std::shared_ptr<void>(copy, copy.get()));
      tensors.bytesCopied += bytes;
    }
    tensors.inputs.push_back(std::move(view));
  }
  tensors.deviceMemory = side.value_or(false);
  return tensors;
}

absl::Status viewOutputs(const xs_executable_s &executable, const DLTensor *outputs,
                         size_t numOutputs, RunTensors &tensors) {
  if (outputs == nullptr)
    return absl::OkStatus();
  if (numOutputs != executable.outputs.size())
    return absl::InvalidArgumentError(strCat("@", executable.function, " has ",
                                             executable.outputs.size(), " outputs but ", numOutputs,
                                             " were given"));
  bool anyInput = !tensors.inputs.empty();
  for (size_t i = 0; i < numOutputs; ++i) {
    const DLTensor &t = outputs[i];
    const TensorDescription &desc = executable.outputs[i];
    if (t.data == nullptr) {
      tensors.outputs.emplace_back(); // allocated by the run
      continue;
    }
    std::string what = strCat("output ", i, " ('", desc.name, "')");
    XS_RETURN_IF_ERROR(checkTensor(t, desc, what));
    XS_ASSIGN_OR_RETURN(bool device, inDeviceMemory(executable, t, what));
    if (anyInput && device != tensors.deviceMemory)
      return absl::InvalidArgumentError(
          strCat(what, " is on ", deviceText(t.device), " but the inputs are ",
                 tensors.deviceMemory ? "on the GPU" : "in host memory",
                 "; pass every tensor on one side"));
    tensors.deviceMemory = device;
    anyInput = true;
    if (!isCompact(t))
      return absl::InvalidArgumentError(
          strCat(what, " has strides that are not compact row-major; xstitch writes compact "
                       "outputs: pass a contiguous tensor, or let xstitch allocate it"));
    tensors.outputs.push_back(viewOf(t, desc.type));
  }
  return absl::OkStatus();
}

namespace {

struct ManagedTensor {
  DLManagedTensor managed{};
  std::vector<int64_t> shape;
  std::shared_ptr<void> storage;
};

void deleteManagedTensor(DLManagedTensor *tensor) {
  if (tensor != nullptr)
    delete static_cast<ManagedTensor *>(tensor->manager_ctx);
}

DLManagedTensor *newManaged(std::shared_ptr<void> storage, DLDataType dtype,
                            const std::vector<int64_t> &shape, DLDevice device) {
  auto *owner = new ManagedTensor();
  owner->shape = shape;
  owner->storage = std::move(storage);
  DLTensor &t = owner->managed.dl_tensor;
  t.data = owner->storage.get();
  t.device = device;
  t.ndim = static_cast<int32_t>(owner->shape.size());
  t.dtype = dtype;
  t.shape = owner->shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  owner->managed.manager_ctx = owner;
  owner->managed.deleter = &deleteManagedTensor;
  return &owner->managed;
}

} // namespace

DLManagedTensor *newManagedTensor(std::shared_ptr<void> storage, ElementType type,
                                  const std::vector<int64_t> &shape, DLDevice device) {
  return newManaged(std::move(storage), dlpackType(type), shape, device);
}

DLManagedTensor *shareManagedTensor(const DLManagedTensor *tensor) {
  if (tensor == nullptr || tensor->deleter != &deleteManagedTensor ||
      tensor->manager_ctx == nullptr)
    return nullptr;
  const auto *owner = static_cast<const ManagedTensor *>(tensor->manager_ctx);
  return newManaged(owner->storage, tensor->dl_tensor.dtype, owner->shape,
                    tensor->dl_tensor.device);
}

} // namespace xs::api
