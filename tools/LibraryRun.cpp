#include "tools/LibraryRun.h"

#include <chrono>

#include "ir/Diagnostics.h"
#include "ir/Parser.h"

namespace xs {

namespace {

/// The status a C API status means (and frees it).
absl::Status fromLibrary(xs_status_t status) {
  if (status == nullptr)
    return absl::OkStatus();
  std::string message = xs_status_message(status);
  xs_status_code_t code = xs_status_code(status);
  xs_status_free(status);
  switch (code) {
  case XS_STATUS_INVALID_ARGUMENT:
    return absl::InvalidArgumentError(message);
  case XS_STATUS_NOT_FOUND:
    return absl::NotFoundError(message);
  case XS_STATUS_UNIMPLEMENTED:
    return absl::UnimplementedError(message);
  case XS_STATUS_RESOURCE_EXHAUSTED:
    return absl::ResourceExhaustedError(message);
  case XS_STATUS_FAILED_PRECONDITION:
    return absl::FailedPreconditionError(message);
  case XS_STATUS_OUT_OF_RANGE:
    return absl::OutOfRangeError(message);
  case XS_STATUS_INTERNAL:
    return absl::InternalError(message);
  case XS_STATUS_DATA_LOSS:
    return absl::DataLossError(message);
  default:
    return absl::UnknownError(message);
  }
}

void collectStep(void *data, const char *step, double seconds) {
  static_cast<RunStats *>(data)->steps.push_back(KernelTiming{step, seconds});
}

/// xs_compile_options_t::progress to CompileOptions::progress.
void forwardProgress(void *data, const char *stage) {
  (*static_cast<const std::function<void(std::string_view)> *>(data))(stage);
}

} // namespace

absl::StatusOr<std::unique_ptr<LibraryExecutable>>
LibraryExecutable::compile(const std::string &path, const std::string &function,
                           const CompileOptions &options) {
  if (options.progress)
    options.progress("importing");
  xs_module_t *module = nullptr;
  XS_RETURN_IF_ERROR(fromLibrary(xs_module_create_from_file(path.c_str(), nullptr, &module)));
  return compileModule(module, function, options);
}

absl::StatusOr<std::unique_ptr<LibraryExecutable>>
LibraryExecutable::compileText(const std::string &text, const std::string &sourceName,
                               const std::string &function, const CompileOptions &options) {
  xs_module_options_t moduleOptions;
  xs_module_options_init(&moduleOptions);
  moduleOptions.format = XS_MODULE_FORMAT_TEXT;
  moduleOptions.source_name = sourceName.c_str();
  xs_module_t *module = nullptr;
  XS_RETURN_IF_ERROR(
      fromLibrary(xs_module_create_from_bytes(text.data(), text.size(), &moduleOptions, &module)));
  return compileModule(module, function, options);
}

absl::StatusOr<std::unique_ptr<LibraryExecutable>>
LibraryExecutable::compileModule(xs_module_t *module, const std::string &function,
                                 const CompileOptions &options) {
  std::unique_ptr<LibraryExecutable> exe(new LibraryExecutable());
  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = options.threads;
  contextOptions.cache_dir =
      options.diskCache.directory.empty() ? "off" : options.diskCache.directory.c_str();
  contextOptions.cache_max_bytes = options.diskCache.maxBytes;
  if (absl::Status s = fromLibrary(xs_context_create(&contextOptions, &exe->context_)); !s.ok()) {
    xs_module_release(module);
    return s;
  }
  xs_compile_options_t compile;
  xs_compile_options_init(&compile);
  compile.device = options.device.c_str();
  compile.function = function.c_str();
  compile.disable_fusion = options.fusion ? 0 : 1;
  compile.keep_denormals = options.flushDenormals ? 0 : 1;
  compile.sync_launches = options.syncLaunches ? 1 : 0;
  compile.cpu = options.cpu.empty() ? nullptr : options.cpu.c_str();
  compile.cpu_features = options.features.empty() ? nullptr : options.features.c_str();
  compile.block_elements = options.blockElements;
  compile.streaming_store_bytes = options.streamingStoreBytes;
  compile.amdgpu_shuffles = options.amdgpuBpermute ? "bpermute" : nullptr;
  std::string specialization;
  for (const auto &[symbol, value] : options.specialize)
    specialization += strCat(specialization.empty() ? "" : ",", symbol, "=", value);
  compile.specialize = specialization.empty() ? nullptr : specialization.c_str();
  if (options.progress) {
    compile.progress = forwardProgress;
    compile.progress_user_data = const_cast<void *>(static_cast<const void *>(&options.progress));
  }
  absl::Status compiled =
      fromLibrary(xs_executable_compile(exe->context_, module, &compile, &exe->executable_));
  xs_module_release(module);
  XS_RETURN_IF_ERROR(compiled);

  XS_RETURN_IF_ERROR(exe->describe());
  return exe;
}

absl::StatusOr<std::unique_ptr<LibraryExecutable>>
LibraryExecutable::loadBundle(const std::string &path, const std::string &device, int threads) {
  std::unique_ptr<LibraryExecutable> exe(new LibraryExecutable());
  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = threads;
  contextOptions.cache_dir = "off";
  XS_RETURN_IF_ERROR(fromLibrary(xs_context_create(&contextOptions, &exe->context_)));
  xs_bundle_options_t options;
  xs_bundle_options_init(&options);
  options.device = device.empty() ? nullptr : device.c_str();
  XS_RETURN_IF_ERROR(fromLibrary(
      xs_executable_load_bundle(exe->context_, path.c_str(), &options, &exe->executable_)));
  XS_RETURN_IF_ERROR(exe->describe());
  return exe;
}

absl::Status LibraryExecutable::describe() {
  xs_compile_info_t info;
  xs_compile_info_init(&info);
  XS_RETURN_IF_ERROR(fromLibrary(xs_executable_compile_info(executable_, &info)));
  info_.compileSeconds = info.compile_seconds;
  info_.cacheHit = info.cache_hit != 0;
  info_.planSeconds = info.plan_seconds;
  info_.llvmSeconds = info.llvm_seconds;
  info_.loadSeconds = info.load_seconds;
  info_.source = static_cast<ExecutableSource>(info.source);
  if (info.warning != nullptr)
    info_.warnings.push_back(info.warning);
  kernelCount_ = info.kernel_count;
  info_.variants = info.variant_count;
  for (size_t i = 0; i < xs_executable_input_count(executable_); ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    XS_RETURN_IF_ERROR(fromLibrary(xs_executable_input_desc(executable_, i, &desc)));
    inputTypes_.push_back(desc.dtype);
  }
  numOutputs_ = xs_executable_output_count(executable_);
  return absl::OkStatus();
}

namespace {

/// The element type of a description's DLPack type (i1 is uint8 to DLPack
/// 0.6, so a uint8 is u8).
std::optional<ElementType> elementTypeOfDLPack(DLDataType t) {
  if (t.lanes != 1)
    return std::nullopt;
  switch (t.code) {
  case kDLFloat:
    return t.bits == 32   ? std::optional(ElementType::F32)
           : t.bits == 16 ? std::optional(ElementType::F16)
           : t.bits == 64 ? std::optional(ElementType::F64)
                          : std::nullopt;
  case kDLBfloat:
    return t.bits == 16 ? std::optional(ElementType::BF16) : std::nullopt;
  case kDLInt:
    return t.bits == 8    ? std::optional(ElementType::I8)
           : t.bits == 32 ? std::optional(ElementType::I32)
           : t.bits == 64 ? std::optional(ElementType::I64)
                          : std::nullopt;
  case kDLUInt:
    return t.bits == 8 ? std::optional(ElementType::U8) : std::nullopt;
  default:
    return std::nullopt;
  }
}

absl::StatusOr<TensorType> typeOf(const xs_tensor_desc_t &desc) {
  std::optional<ElementType> element = elementTypeOfDLPack(desc.dtype);
  if (!element)
    return absl::InvalidArgumentError(strCat("tensor '", desc.name, "' has a dtype xstitch lacks"));
  std::vector<DimExpr> shape;
  for (int32_t d = 0; d < desc.ndim; ++d) {
    XS_ASSIGN_OR_RETURN(DimExpr dim, parseDimExpr(desc.dims[d].expr));
    shape.push_back(std::move(dim));
  }
  return TensorType(*element, std::move(shape));
}

} // namespace

absl::StatusOr<std::unique_ptr<Module>> LibraryExecutable::signature() const {
  auto module = std::make_unique<Module>();
  Function *f = module->addFunction(xs_executable_function(executable_), Location());
  for (size_t i = 0; i < xs_executable_input_count(executable_); ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    XS_RETURN_IF_ERROR(fromLibrary(xs_executable_input_desc(executable_, i, &desc)));
    XS_ASSIGN_OR_RETURN(TensorType type, typeOf(desc));
    f->addParam(desc.name, type, Location());
  }
  for (size_t i = 0; i < numOutputs_; ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    XS_RETURN_IF_ERROR(fromLibrary(xs_executable_output_desc(executable_, i, &desc)));
    FunctionResult result;
    result.name = desc.name;
    XS_ASSIGN_OR_RETURN(result.declaredType, typeOf(desc));
    f->results().push_back(std::move(result));
  }
  return module;
}

std::vector<ElementType> LibraryExecutable::resultTypes() const {
  std::vector<ElementType> types;
  for (size_t i = 0; i < numOutputs_; ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    if (fromLibrary(xs_executable_output_desc(executable_, i, &desc)).ok())
      types.push_back(elementTypeOfDLPack(desc.dtype).value_or(ElementType::F32));
  }
  return types;
}

LibraryExecutable::~LibraryExecutable() {
  xs_executable_release(executable_);
  xs_context_release(context_);
}

absl::Status LibraryExecutable::runViews(const std::vector<TensorView> &inputs, RunStats *stats,
                                         std::vector<DLManagedTensor *> &outputs) const {
  if (inputs.size() != inputTypes_.size())
    return absl::InvalidArgumentError(
        strCat("the function takes ", inputTypes_.size(), " inputs but got ", inputs.size()));
  std::vector<DLTensor> tensors(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    DLTensor &t = tensors[i];
    t.data = inputs[i].data;
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int32_t>(inputs[i].shape.size());
    t.dtype = inputTypes_[i];
    t.shape = const_cast<int64_t *>(inputs[i].shape.data());
  }
  outputs.assign(numOutputs_, nullptr);
  xs_run_args_t args;
  xs_run_args_init(&args);
  args.inputs = tensors.data();
  args.num_inputs = tensors.size();
  args.out_managed = outputs.data();
  if (stats != nullptr) {
    stats->steps.clear();
    args.step_timer = collectStep;
    args.step_timer_data = stats;
  }
  return fromLibrary(xs_executable_run(executable_, &args));
}

absl::StatusOr<std::vector<HostTensor>>
LibraryExecutable::run(const std::vector<HostTensor> &inputs,
                       const std::vector<ElementType> &resultTypes, RunStats *stats) const {
  std::vector<Tensor> tensors;
  std::vector<TensorView> views;
  tensors.reserve(inputs.size());
  for (const HostTensor &t : inputs) {
    tensors.push_back(toTensor(t));
    views.push_back(tensors.back().view());
  }
  std::vector<DLManagedTensor *> outputs;
  XS_RETURN_IF_ERROR(runViews(views, stats, outputs));
  std::vector<HostTensor> results;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const DLTensor &t = outputs[i]->dl_tensor;
    TensorView view;
    view.type = resultTypes[i];
    view.shape.assign(t.shape, t.shape + t.ndim);
    view.data = t.data;
    results.push_back(toHostTensor(view));
    outputs[i]->deleter(outputs[i]);
  }
  return results;
}

absl::StatusOr<double> LibraryExecutable::timeRun(const std::vector<HostTensor> &inputs,
                                                  RunStats *stats) {
  if (timedInputs_.empty())
    for (const HostTensor &t : inputs) {
      timedInputs_.push_back(toTensor(t));
      timedViews_.push_back(timedInputs_.back().view());
    }
  return timeViews(timedViews_, stats);
}

absl::StatusOr<double> LibraryExecutable::timeViews(const std::vector<TensorView> &inputs,
                                                    RunStats *stats) const {
  std::vector<DLManagedTensor *> outputs;
  auto start = std::chrono::steady_clock::now();
  absl::Status status = runViews(inputs, stats, outputs);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  XS_RETURN_IF_ERROR(status);
  for (DLManagedTensor *t : outputs)
    t->deleter(t);
  return seconds;
}

} // namespace xs
