// xs_status_t: a code and a message, allocated for an error and freed by
// the caller. NULL is success.

#include <new>
#include <string>

#include "api/ApiObjects.h"

struct xs_status_s {
  xs_status_code_t code;
  std::string message;
};

namespace xs::api {

namespace {

xs_status_code_t codeOf(absl::StatusCode code) {
  switch (code) {
  case absl::StatusCode::kOk:
    return XS_STATUS_OK;
  case absl::StatusCode::kInvalidArgument:
    return XS_STATUS_INVALID_ARGUMENT;
  case absl::StatusCode::kNotFound:
    return XS_STATUS_NOT_FOUND;
  case absl::StatusCode::kUnimplemented:
    return XS_STATUS_UNIMPLEMENTED;
  case absl::StatusCode::kResourceExhausted:
    return XS_STATUS_RESOURCE_EXHAUSTED;
  case absl::StatusCode::kFailedPrecondition:
  case absl::StatusCode::kUnavailable:
    return XS_STATUS_FAILED_PRECONDITION;
  case absl::StatusCode::kOutOfRange:
    return XS_STATUS_OUT_OF_RANGE;
  case absl::StatusCode::kInternal:
    return XS_STATUS_INTERNAL;
  case absl::StatusCode::kDataLoss:
    return XS_STATUS_DATA_LOSS;
  default:
    return XS_STATUS_UNKNOWN;
  }
}

/// What a status allocation that fails returns: a static error that
/// xs_status_free recognizes and leaves alone.
xs_status_s outOfMemoryStatus{XS_STATUS_RESOURCE_EXHAUSTED, {}};

} // namespace

xs_status_t toApiStatus(const absl::Status &status) {
  if (status.ok())
    return nullptr;
  xs_status_s *out = new (std::nothrow) xs_status_s{codeOf(status.code()), {}};
  if (out == nullptr)
    return &outOfMemoryStatus;
  try {
    out->message = std::string(status.message());
  } catch (...) {
    // The code alone is still the answer.
  }
  return out;
}

} // namespace xs::api

extern "C" {

const char *xs_version(void) { return XS_VERSION_STRING; }

xs_status_code_t xs_status_code(xs_status_t status) {
  return status == nullptr ? XS_STATUS_OK : status->code;
}

const char *xs_status_message(xs_status_t status) {
  if (status == nullptr)
    return "";
  if (status == &xs::api::outOfMemoryStatus)
    return "out of host memory";
  return status->message.c_str();
}

void xs_status_free(xs_status_t status) {
  if (status != &xs::api::outOfMemoryStatus)
    delete status;
}

const char *xs_status_code_name(xs_status_code_t code) {
  switch (xs::api::enumValue(code)) {
  case XS_STATUS_OK:
    return "OK";
  case XS_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case XS_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case XS_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case XS_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case XS_STATUS_FAILED_PRECONDITION:
    return "FAILED_PRECONDITION";
  case XS_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case XS_STATUS_INTERNAL:
    return "INTERNAL";
  case XS_STATUS_UNKNOWN:
    return "UNKNOWN";
  case XS_STATUS_DATA_LOSS:
    return "DATA_LOSS";
  }
  return "UNKNOWN";
}

} // extern "C"
