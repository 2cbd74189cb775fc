/*
 * xstitch: the C API.
 *
 * xstitch compiles the memory-intensive part of ML graphs (element-wise,
 * broadcast, reduction, transpose, reshape, slice, concat, gather) into few,
 * large kernels for x86 CPUs and NVIDIA GPUs. This header is its only public
 * interface: C99, no C++; libxstitch.so exports nothing but the `xs_`
 * functions declared here. docs/c-api.md walks through it.
 *
 * Conventions
 * - Objects are opaque handles with create/retain/release: a handle comes
 *   with one reference, owned by the caller; release drops one, and the
 *   object goes when the last one does. Objects keep alive what they use (an
 *   executable its context), so they may be released in any order.
 * - Every fallible call returns an xs_status_t: NULL means success; any
 *   other value is an error the caller owns and frees with
 *   xs_status_free(). Calls that cannot fail say so and return a value.
 * - Every options or arguments struct starts with `struct_size`, set by the
 *   caller to the size of the struct as its header declares it (the
 *   `xs_*_init` functions below do that and set the defaults). Fields are
 *   only ever added at the end, so a caller built against an older header
 *   keeps working: fields past its struct_size take their defaults.
 * - A NULL handle, or one already released where that can be detected, is
 *   an XS_STATUS_INVALID_ARGUMENT error; no call aborts on bad input.
 * - `out_` parameters come last and are written only on success.
 * - Tensors are DLPack DLTensors (dlpack/dlpack.h, DLPack 0.6 or newer).
 *
 * Thread safety: every function may be called from any thread. Contexts,
 * modules and executables are immutable once created; one executable may be
 * run from many threads at once.
 */
#ifndef XSTITCH_XSTITCH_H
#define XSTITCH_XSTITCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <dlpack/dlpack.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define XS_API
#else
#define XS_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------
 * Versions
 * ------------------------------------------------------------------------ */

/* The version of this header. A new major version may break callers; a new
 * minor version only adds (functions, fields at the end of structs). */
#define XS_VERSION_MAJOR 0
#define XS_VERSION_MINOR 1
#define XS_VERSION_PATCH 0
#define XS_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for preprocessor comparisons. */
#define XS_VERSION_NUMBER (XS_VERSION_MAJOR * 10000 + XS_VERSION_MINOR * 100 + XS_VERSION_PATCH)

/* The library's version, "MAJOR.MINOR.PATCH": may be newer than the header
 * the caller was built with. Infallible; the string is static. */
XS_API const char *xs_version(void);

/* ------------------------------------------------------------------------
 * Status
 * ------------------------------------------------------------------------ */

typedef enum xs_status_code_e {
  XS_STATUS_OK = 0,
  /* The caller passed something wrong: a NULL or released handle, a module
   * that does not parse, a tensor of the wrong type, rank, shape or device,
   * an unknown device name, an unsupported operator. The message says what. */
  XS_STATUS_INVALID_ARGUMENT = 1,
  /* A file, function or device that is not there. */
  XS_STATUS_NOT_FOUND = 2,
  /* Something xstitch does not do (yet). */
  XS_STATUS_UNIMPLEMENTED = 3,
  /* Out of host or device memory. */
  XS_STATUS_RESOURCE_EXHAUSTED = 4,
  /* The system is not in a state to do it: no NVIDIA driver, no GPU. */
  XS_STATUS_FAILED_PRECONDITION = 5,
  /* A value outside its range (an index, a dim). */
  XS_STATUS_OUT_OF_RANGE = 6,
  /* A bug in xstitch; please report it with the message. */
  XS_STATUS_INTERNAL = 7,
  /* Any other error. */
  XS_STATUS_UNKNOWN = 8,
  /* A file that is truncated or corrupt (a bundle whose checksum does not
   * match). */
  XS_STATUS_DATA_LOSS = 9
} xs_status_code_t;

/* An error; NULL is success. */
typedef struct xs_status_s *xs_status_t;

/* The code of `status` (XS_STATUS_OK for NULL). Infallible. */
XS_API xs_status_code_t xs_status_code(xs_status_t status);
/* The message of `status`, owned by it and valid until it is freed; "" for
 * NULL. Messages about user input begin with the place in it
 * (`file:line:col: error: ...`) where one is known. Infallible. */
XS_API const char *xs_status_message(xs_status_t status);
/* Frees `status`; NULL is a no-op. Infallible. */
XS_API void xs_status_free(xs_status_t status);
/* A status's code as text ("INVALID_ARGUMENT"); static. Infallible. */
XS_API const char *xs_status_code_name(xs_status_code_t code);

/* ------------------------------------------------------------------------
 * Context: the devices, worker threads and compile cache executables share.
 * ------------------------------------------------------------------------ */

typedef struct xs_context_s xs_context_t;

typedef struct xs_context_options_t {
  size_t struct_size;
  /* CPU worker threads for kernels; 0 (the default): all cores. */
  int32_t worker_threads;
  /* Executables the context's compile cache keeps; 0 (the default): 1024.
   * Compiling a module the cache holds (same canonical IR, device and
   * options) returns the executable it holds, without compiling. */
  int32_t compile_cache_capacity;
  /* The persistent compile cache, shared with other processes: a directory,
   * "off" for none, or NULL (the default) for $XSTITCH_CACHE_DIR ("off":
   * none), else $XDG_CACHE_HOME/xstitch, else ~/.cache/xstitch. A compile
   * the in-memory cache misses loads what an earlier process stored there,
   * and stores what it compiles. */
  const char *cache_dir;
  /* The persistent cache's size bound in bytes, least recently used entries
   * evicted first; 0: $XSTITCH_CACHE_MAX_BYTES, else 2 GiB. */
  int64_t cache_max_bytes;
} xs_context_options_t;

static inline void xs_context_options_init(xs_context_options_t *options) {
  memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

/* Creates a context. `options` may be NULL (the defaults); it is read during
 * the call only. On success *out_context holds a new reference. */
XS_API xs_status_t xs_context_create(const xs_context_options_t *options,
                                     xs_context_t **out_context);
/* Adds a reference; NULL is a no-op. Infallible. */
XS_API void xs_context_retain(xs_context_t *context);
/* Drops a reference; NULL is a no-op. Infallible. */
XS_API void xs_context_release(xs_context_t *context);

/* Whether `device` can be compiled for and run on here: NULL (success) when
 * it can, else an error saying why (unknown name, no NVIDIA driver or ROCm,
 * no such GPU). Device names: "cpu"; "cuda" or "cuda:N", NVIDIA GPU N through
 * the CUDA driver; "hip" or "hip:N", AMD GPU N through HIP;
 * "nvptx-sim[:sm_XX][:phases]" and "amdgpu-sim[:gfxNNN][:phases]", the code
 * for an NVIDIA or AMD GPU run on the CPU thread by thread (checking tools,
 * slow); "auto", cuda:0 or hip:0 where a driver sees a GPU, else cpu. */
XS_API xs_status_t xs_context_check_device(xs_context_t *context, const char *device);

/* ------------------------------------------------------------------------
 * Module: a graph from xstitch text IR or an ONNX model.
 * ------------------------------------------------------------------------ */

typedef struct xs_module_s xs_module_t;

typedef enum xs_module_format_e {
  /* ONNX when the data starts as a serialized ModelProto does (or a path
   * ends in .onnx), else text IR. */
  XS_MODULE_FORMAT_AUTO = 0,
  XS_MODULE_FORMAT_TEXT = 1,
  XS_MODULE_FORMAT_ONNX = 2
} xs_module_format_t;

typedef struct xs_module_options_t {
  size_t struct_size;
  xs_module_format_t format;
  /* The name diagnostics give the source (a file name); NULL: "<module>" for
   * bytes, the path for files. Copied during the call. */
  const char *source_name;
} xs_module_options_t;

static inline void xs_module_options_init(xs_module_options_t *options) {
  memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

/* Parses (text IR) or imports (ONNX) `size` bytes at `data`, and checks and
 * canonicalizes every function. The bytes and `options` (may be NULL) are
 * read during the call only. On success *out_module holds a new reference,
 * owned by the caller. Errors locate the problem in the source. */
XS_API xs_status_t xs_module_create_from_bytes(const void *data, size_t size,
                                               const xs_module_options_t *options,
                                               xs_module_t **out_module);
/* The same from the file at `path` (NUL-terminated, read during the call);
 * a file that cannot be read is XS_STATUS_NOT_FOUND. */
XS_API xs_status_t xs_module_create_from_file(const char *path, const xs_module_options_t *options,
                                              xs_module_t **out_module);
/* Adds or drops a reference; NULL is a no-op. Infallible. */
XS_API void xs_module_retain(xs_module_t *module);
XS_API void xs_module_release(xs_module_t *module);
/* The number of functions; 0 for a NULL or released module. Infallible. */
XS_API size_t xs_module_function_count(const xs_module_t *module);
/* Function `index`'s name (without '@'), owned by the module; NULL when out
 * of range or the module is NULL. Infallible. */
XS_API const char *xs_module_function_name(const xs_module_t *module, size_t index);

/* ------------------------------------------------------------------------
 * Executable: one function compiled for one device.
 * ------------------------------------------------------------------------ */

typedef struct xs_executable_s xs_executable_t;

typedef struct xs_compile_options_t {
  size_t struct_size;
  /* The device (see xs_context_check_device); NULL: "cpu". */
  const char *device;
  /* The function to compile; NULL: the module's only function, or "main". */
  const char *function;
  /* Nonzero: one kernel per op instead of stitched kernels (a baseline). */
  int32_t disable_fusion;
  /* Nonzero: CPU kernels keep subnormal floats instead of flushing them to
   * zero (the default, as XLA's CPU runtime does). */
  int32_t keep_denormals;
  /* The x86 CPU to generate code for (an LLVM CPU name, "znver3") and its
   * features ("+avx2,-avx512f"); NULL: the host's. For code that runs on
   * another machine, and for output that does not depend on this one. */
  const char *cpu;
  const char *cpu_features;
  /* Elements a CPU block gets at least; 0: the target's default. Small
   * values give small shapes the split and packed plans of large ones. */
  int64_t block_elements;
  /* CPU kernels write results of at least this many bytes with streaming
   * stores that bypass the caches; 0: half the last-level cache, at most
   * 16 MiB; negative: never. */
  int64_t streaming_store_bytes;
  /* "SYM=N,SYM=N": compile for these values of the symbolic dims, as
   * constants (a static-shape compile, the baseline the symbolic one is
   * measured against); the executable then runs only at them. NULL or "":
   * shape-generic (the default). */
  const char *specialize;
  /* Nonzero: on a GPU, wait for each kernel launch to finish, so that a
   * kernel that faults is named in the run's error (slower; for debugging).
   * XSTITCH_SYNC_LAUNCHES=1 in the environment does the same. */
  int32_t sync_launches;
  /* Called on the calling thread as a compile that misses the caches enters
   * each of its stages, with a line that says what it does ("planning",
   * "generating code for 12 kernels", "loading"), for progress displays;
   * the text lives during the call only. NULL: none. */
  void (*progress)(void *user_data, const char *stage);
  void *progress_user_data;
  /* How AMD GPU kernels exchange values across a wavefront's lanes in
   * reductions: "dpp" (DPP row permutes, ds_swizzle or v_permlanex16 and
   * readlane) or "bpermute" (ds_bpermute on every step, to compare). NULL:
   * "dpp". Other devices ignore it. */
  const char *amdgpu_shuffles;
} xs_compile_options_t;

static inline void xs_compile_options_init(xs_compile_options_t *options) {
  memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

/* Compiles a function of `module` for a device and loads it there. Kernels
 * are shape-generic: one executable runs every value of the symbolic dims.
 * A compile the context's cache holds returns at once. `options` (may be
 * NULL) and its strings are read during the call only. On success
 * *out_executable holds a new reference, owned by the caller. The
 * executable keeps `context` alive; `module` may be released after the
 * call. */
XS_API xs_status_t xs_executable_compile(xs_context_t *context, const xs_module_t *module,
                                         const xs_compile_options_t *options,
                                         xs_executable_t **out_executable);

/* Options of xs_executable_load_bundle; zeroed (xs_bundle_options_init):
 * the defaults. */
typedef struct xs_bundle_options_t {
  size_t struct_size;
  /* The device to load on; NULL: the bundle's ("cpu" for x86 code, "cuda:0"
   * for an NVIDIA architecture's, "hip:0" for an AMD one's). */
  const char *device;
} xs_bundle_options_t;

static inline void xs_bundle_options_init(xs_bundle_options_t *options) {
  memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

/* Loads an AOT bundle (written by xstitch-compile) without compiling: in
 * libxstitch.so and in libxstitch_runtime.so, which has no compiler. A file
 * that is not a bundle, of another format version, truncated or corrupt is
 * XS_STATUS_INVALID_ARGUMENT or XS_STATUS_DATA_LOSS; code for a CPU with
 * features this one lacks, or for another kind of device, is
 * XS_STATUS_FAILED_PRECONDITION; each names the file. On success
 * *out_executable holds a new reference; its compile info's source is
 * XS_EXECUTABLE_FROM_BUNDLE. */
XS_API xs_status_t xs_executable_load_bundle(xs_context_t *context, const char *path,
                                             const xs_bundle_options_t *options,
                                             xs_executable_t **out_executable);

typedef enum xs_executable_source_e {
  XS_EXECUTABLE_COMPILED = 0,    /* compiled by this call */
  XS_EXECUTABLE_FROM_MEMORY = 1, /* the context's in-memory cache held it */
  XS_EXECUTABLE_FROM_DISK = 2,   /* the persistent compile cache held it */
  XS_EXECUTABLE_FROM_BUNDLE = 3, /* loaded from an AOT bundle */
} xs_executable_source_t;

/* What compiling an executable took. */
typedef struct xs_compile_info_t {
  size_t struct_size;
  /* Seconds xs_executable_compile took in all. */
  double compile_seconds;
  /* Nonzero when the compile cache had the executable (the stages are 0). */
  int32_t cache_hit;
  /* Where a compile spent its time: planning the kernels, LLVM (emission,
   * optimization, code generation), loading the code on the device. */
  double plan_seconds;
  double llvm_seconds;
  double load_seconds;
  /* Kernel launches a run makes at most (library calls not counted). */
  int32_t kernel_count;
  /* Where the executable came from (xs_executable_source_t). */
  int32_t source;
  /* What went wrong without failing (an unreadable persistent cache entry,
   * a cache directory that cannot be written), owned by the executable;
   * NULL when nothing did. */
  const char *warning;
  /* Programs compiled for the relations of dims that meet in broadcasts
   * (broadcast speculation: N == M, N == 1, M == 1), a call running the one
   * its dims select; 1 for a function without such dims. kernel_count is
   * the first variant's (every such pair equal); the stages time all. */
  int32_t variant_count;
} xs_compile_info_t;

static inline void xs_compile_info_init(xs_compile_info_t *info) {
  memset(info, 0, sizeof(*info));
  info->struct_size = sizeof(*info);
}

/* How `executable` was compiled. The caller sets out_info->struct_size;
 * fields past it are not written. */
XS_API xs_status_t xs_executable_compile_info(const xs_executable_t *executable,
                                              xs_compile_info_t *out_info);
/* Adds or drops a reference; NULL is a no-op. Infallible. */
XS_API void xs_executable_retain(xs_executable_t *executable);
XS_API void xs_executable_release(xs_executable_t *executable);

/* The device the executable runs on ("cpu", "cuda:0", "nvptx-sim:sm_90"),
 * owned by it; NULL for a NULL or released executable. Infallible. */
XS_API const char *xs_executable_device(const xs_executable_t *executable);
/* The compiled function's name; NULL as above. Infallible. */
XS_API const char *xs_executable_function(const xs_executable_t *executable);
/* Inputs and outputs; 0 for a NULL or released executable. Infallible. */
XS_API size_t xs_executable_input_count(const xs_executable_t *executable);
XS_API size_t xs_executable_output_count(const xs_executable_t *executable);

/* One dim of a tensor's type. */
typedef struct xs_dim_t {
  /* The size where it is a constant, else -1. */
  int64_t size;
  /* The dim as text: a symbol ("B"), an expression of symbols ("B*S",
   * "S-1"), or the constant ("768"). */
  const char *expr;
} xs_dim_t;

/* An input's or output's name and type. Every pointer is owned by the
 * executable and lives as long as it does. */
typedef struct xs_tensor_desc_t {
  size_t struct_size;
  /* The name a caller knows it by: the ONNX graph's input or output name,
   * or the text IR's parameter or result name (without '%'). */
  const char *name;
  DLDataType dtype;
  int32_t ndim;
  const xs_dim_t *dims; /* ndim entries */
} xs_tensor_desc_t;

static inline void xs_tensor_desc_init(xs_tensor_desc_t *desc) {
  memset(desc, 0, sizeof(*desc));
  desc->struct_size = sizeof(*desc);
}

/* Describes input or output `index`. The caller sets out_desc->struct_size;
 * fields past it are not written. An index out of range is
 * XS_STATUS_OUT_OF_RANGE. */
XS_API xs_status_t xs_executable_input_desc(const xs_executable_t *executable, size_t index,
                                            xs_tensor_desc_t *out_desc);
XS_API xs_status_t xs_executable_output_desc(const xs_executable_t *executable, size_t index,
                                             xs_tensor_desc_t *out_desc);

/* The symbolic dims the inputs' and outputs' types use, in order of first
 * appearance; each takes its value from the inputs' shapes at every run.
 * Infallible: 0 / NULL for a NULL executable or an index out of range; the
 * strings are owned by the executable. */
XS_API size_t xs_executable_dim_symbol_count(const xs_executable_t *executable);
XS_API const char *xs_executable_dim_symbol(const xs_executable_t *executable, size_t index);

/* The tensors of one run. */
typedef struct xs_run_args_t {
  size_t struct_size;
  /* One per input, in order. Tensors on the CPU (kDLCPU) for executables on
   * the CPU (cpu, nvptx-sim, amdgpu-sim); on the executable's GPU (kDLCUDA
   * with its ordinal for cuda:N, kDLROCM for hip:N) or the CPU for GPUs. CPU tensors are read where
   * they are, no copy, when they are compact row-major (strides NULL, or those of a compact layout)
   * and aligned to their element size; other strides are read through a compact copy. GPU tensors
   * must be compact. */
  const DLTensor *inputs;
  size_t num_inputs;
  /* NULL, or one per output: outputs[i] with non-NULL data receives output i
   * in its memory (written in place; its dtype, shape and device must be
   * the output's, which xs_executable_output_shapes tells ahead). */
  const DLTensor *outputs;
  size_t num_outputs; /* 0, or the executable's output count */
  /* One per output, for outputs the caller did not provide: xstitch
   * allocates them (on the executable's device) and stores them here, each
   * owned by the caller, who frees it with its deleter; entries of provided
   * outputs are set to NULL. May be NULL when every output is provided. */
  DLManagedTensor **out_managed;
  /* For cuda:N the CUstream, for hip:N the hipStream_t to queue the work on;
   * NULL: a stream of xstitch's own. Ignored elsewhere. */
  void *stream;
  /* NULL, or called once per step of the run (a kernel launch or a library
   * call such as dot), in order, after the run, with the step's name and the
   * seconds it took; `step_timer_data` is passed through. Timing a step
   * waits for it (on a GPU, for the stream), so a timed run is slower. */
  void (*step_timer)(void *step_timer_data, const char *step, double seconds);
  void *step_timer_data;
} xs_run_args_t;

static inline void xs_run_args_init(xs_run_args_t *args) {
  memset(args, 0, sizeof(*args));
  args->struct_size = sizeof(*args);
}

/* Runs the executable. `args` and the tensors it names stay the caller's
 * and are used during the call only. Dims are bound from the inputs'
 * shapes; inputs whose shapes disagree (two values for one symbol, a
 * violated constraint) are an XS_STATUS_INVALID_ARGUMENT error naming the
 * dim and the inputs, as are a wrong dtype, rank, device or count. On a
 * GPU, the call queues its work on the stream. With `args.stream` given and
 * every input and output in that GPU's memory, it returns once the work is
 * queued, as CUDA libraries do: the inputs must stay unchanged and the
 * outputs unread until the stream has run it (work the caller queues on
 * the same stream afterwards sees the results). Otherwise (host tensors,
 * a NULL stream, a step timer) it returns when that stream has done the
 * work. It never waits for the whole device. Thread-safe: many
 * threads may run one executable at once. On an error no out_managed entry
 * is written. */
XS_API xs_status_t xs_executable_run(const xs_executable_t *executable, const xs_run_args_t *args);

/* The outputs' shapes for `num_inputs` inputs of these shapes (only their
 * dtype, ndim and shape are read): out_shapes receives, for each output in
 * order, its ndim dims one after another, up to `capacity` values; the
 * number of values needed is stored in *out_count (so a first call with
 * capacity 0 sizes the array). Errors as for xs_executable_run. */
XS_API xs_status_t xs_executable_output_shapes(const xs_executable_t *executable,
                                               const DLTensor *inputs, size_t num_inputs,
                                               int64_t *out_shapes, size_t capacity,
                                               size_t *out_count);

/* Another reference to the memory of a tensor xstitch allocated (an
 * out_managed entry): a new DLManagedTensor with its own deleter, owned by
 * the caller, sharing the data; the memory goes when every one of them is
 * deleted. `tensor` stays the caller's. Any other tensor is
 * XS_STATUS_INVALID_ARGUMENT. */
XS_API xs_status_t xs_tensor_share(const DLManagedTensor *tensor, DLManagedTensor **out_tensor);

/* ------------------------------------------------------------------------
 * Counters of the process.
 * ------------------------------------------------------------------------ */

typedef struct xs_stats_t {
  size_t struct_size;
  /* Functions compiled (compile cache misses). */
  uint64_t compilations;
  /* xs_executable_compile calls the compile cache answered. */
  uint64_t compile_cache_hits;
  /* xs_executable_run calls that succeeded. */
  uint64_t runs;
  /* Bytes runs copied between the callers' memory and xstitch's own
   * (strided or less aligned inputs, results that alias an input or a
   * constant, tensors moved between host and GPU); 0 when runs read their
   * inputs and wrote their outputs in place. */
  uint64_t bytes_copied;
  /* xs_executable_compile calls the persistent compile cache answered. */
  uint64_t disk_cache_loads;
  /* Executables loaded from bundles. */
  uint64_t bundle_loads;
} xs_stats_t;

static inline void xs_stats_init(xs_stats_t *stats) {
  memset(stats, 0, sizeof(*stats));
  stats->struct_size = sizeof(*stats);
}

/* Fills the fields of *out_stats its struct_size covers. A NULL pointer or
 * a struct_size too small for any field is XS_STATUS_INVALID_ARGUMENT. */
XS_API xs_status_t xs_stats_get(xs_stats_t *out_stats);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* XSTITCH_XSTITCH_H */
