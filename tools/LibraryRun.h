#ifndef XSTITCH_TOOLS_LIBRARYRUN_H
#define XSTITCH_TOOLS_LIBRARYRUN_H

// xstitch-run compiles and runs on a device through the C API
// (libxstitch.so), as an integrator does, so that the path users embed is
// the one the CLI exercises every day. Tensors cross it as DLPack tensors
// over the tool's own memory.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/Compiler.h"
#include "include/xstitch/xstitch.h"
#include "ir/HostTensor.h"
#include "runtime/Executable.h"
#include "runtime/Tensor.h"

namespace xs {

class LibraryExecutable {
public:
  /// Compiles function `function` of the model at `path` (text IR or ONNX)
  /// through the C API with `options` (its threads become the context's).
  static absl::StatusOr<std::unique_ptr<LibraryExecutable>>
  compile(const std::string &path, const std::string &function, const CompileOptions &options);
  /// The same from text IR (`sourceName` locates its errors).
  static absl::StatusOr<std::unique_ptr<LibraryExecutable>>
  compileText(const std::string &text, const std::string &sourceName, const std::string &function,
              const CompileOptions &options);
  /// Loads the AOT bundle at `path` through the C API on `device` (empty:
  /// the bundle's) with `threads` CPU workers.
  static absl::StatusOr<std::unique_ptr<LibraryExecutable>>
  loadBundle(const std::string &path, const std::string &device, int threads);
  ~LibraryExecutable();
  LibraryExecutable(const LibraryExecutable &) = delete;
  LibraryExecutable &operator=(const LibraryExecutable &) = delete;

  /// How the compile went (CompileInfo::kernels is left empty: the plan
  /// names them), and how many kernels a run launches at most.
  const CompileInfo &info() const { return info_; }
  int kernelCount() const { return kernelCount_; }

  /// The executable's interface as a function without a body (parameters
  /// typed, results named and given their declared types), for what needs
  /// a signature: binding inputs, naming results. Dims are parsed back from
  /// the descriptions' text.
  absl::StatusOr<std::unique_ptr<Module>> signature() const;
  /// The results' element types.
  std::vector<ElementType> resultTypes() const;

  /// Runs on `inputs`; results come back as HostTensors of `resultTypes`.
  /// With `stats`, the steps are timed.
  absl::StatusOr<std::vector<HostTensor>> run(const std::vector<HostTensor> &inputs,
                                              const std::vector<ElementType> &resultTypes,
                                              RunStats *stats) const;

  /// Seconds one run takes, the inputs converted to typed memory once (the
  /// first call) and the results allocated by the library and freed: what a
  /// framework calling the C API pays.
  absl::StatusOr<double> timeRun(const std::vector<HostTensor> &inputs, RunStats *stats);

  /// Seconds one run on `inputs` (typed memory in place) takes, the results
  /// allocated by the library and freed.
  absl::StatusOr<double> timeViews(const std::vector<TensorView> &inputs, RunStats *stats) const;

private:
  LibraryExecutable() = default;
  /// Compiles `module` (released here) with `options`.
  static absl::StatusOr<std::unique_ptr<LibraryExecutable>>
  compileModule(xs_module_t *module, const std::string &function, const CompileOptions &options);
  /// Reads the compile info and the interface of executable_.
  absl::Status describe();
  /// Runs on tensors already in typed memory; `outputs` receives the
  /// library's tensors (the caller deletes them).
  absl::Status runViews(const std::vector<TensorView> &inputs, RunStats *stats,
                        std::vector<DLManagedTensor *> &outputs) const;

  xs_context_t *context_ = nullptr;
  xs_executable_t *executable_ = nullptr;
  CompileInfo info_;
  int kernelCount_ = 0;
  std::vector<DLDataType> inputTypes_;
  size_t numOutputs_ = 0;
  std::vector<Tensor> timedInputs_; // timeRun's inputs, converted once
  std::vector<TensorView> timedViews_;
};

} // namespace xs

#endif // XSTITCH_TOOLS_LIBRARYRUN_H
