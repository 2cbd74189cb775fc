// xs_context_check_device: whether a device can be compiled for and run on
// here (libxstitch.so: it knows the NVIDIA presets the compiler has).

#include "api/ApiObjects.h"
#include "driver/DeviceNames.h"
#include "ir/Diagnostics.h"

using namespace xs;
using namespace xs::api;

extern "C" {

xs_status_t xs_context_check_device(xs_context_t *context, const char *device) {
  return guarded([&]() -> absl::Status {
    XS_RETURN_IF_ERROR(lookupObject(context, ObjectKind::Context, "context").status());
    if (device == nullptr)
      return absl::InvalidArgumentError("xs_context_check_device: device is NULL");
    XS_ASSIGN_OR_RETURN(std::string name, resolveDeviceName(device));
    return checkDeviceAvailable(name);
  });
}

} // extern "C"
