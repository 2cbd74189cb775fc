// Contexts: the worker threads and the compile caches (in memory and on
// disk) their executables share. Devices are the process's (a GPU's primary context is too).

#include "api/ApiObjects.h"
#include "ir/Diagnostics.h"

using namespace xs;
using namespace xs::api;

extern "C" {

xs_status_t xs_context_create(const xs_context_options_t *options, xs_context_t **out_context) {
  return guarded([&]() -> absl::Status {
    if (out_context == nullptr)
      return absl::InvalidArgumentError("xs_context_create: out_context is NULL");
    int32_t threads = XS_API_FIELD(options, worker_threads, 0);
    int32_t capacity = XS_API_FIELD(options, compile_cache_capacity, 0);
    if (threads < 0)
      return absl::InvalidArgumentError(strCat("xs_context_create: worker_threads is ", threads,
                                               "; use 0 for all cores or a count"));
    if (capacity < 0)
      return absl::InvalidArgumentError(strCat("xs_context_create: compile_cache_capacity is ",
                                               capacity, "; use 0 for the default or a count"));
    int64_t cacheMaxBytes = XS_API_FIELD(options, cache_max_bytes, int64_t{0});
    if (cacheMaxBytes < 0)
      return absl::InvalidArgumentError(strCat("xs_context_create: cache_max_bytes is ",
                                               cacheMaxBytes, "; use 0 for the default or a size"));
    const char *cacheDir = XS_API_FIELD(options, cache_dir, nullptr);
    auto context = std::make_unique<xs_context_s>();
    context->threads = threads;
    context->diskCache = diskCacheOptionsFor(cacheDir ? cacheDir : "", cacheMaxBytes);
    context->cache = std::make_unique<CompileCache>(capacity == 0 ? 1024 : capacity);
    registerObject(context.get());
    *out_context = context.release();
    return absl::OkStatus();
  });
}

void xs_context_retain(xs_context_t *context) { retainObject(context, ObjectKind::Context); }

void xs_context_release(xs_context_t *context) { releaseObject(context, ObjectKind::Context); }

} // extern "C"
