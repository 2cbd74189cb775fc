/*
 * embed: xstitch embedded in a C program. Compiles a model (ONNX or xstitch
 * text IR) for the CPU, or loads an AOT bundle (MODEL.xsb, written by
 * xstitch-compile), runs it on buffers the program owns, writing the
 * results into buffers it owns too, and prints what came out.
 *
 *   embed MODEL [SYMBOL=VALUE ...]
 *
 * Built with XSTITCH_EMBED_BUNDLES_ONLY it loads bundles only and links
 * libxstitch_runtime.so, the library without the compiler that a
 * deployment ships.
 *
 * Symbolic dims (an ONNX model's dynamic axes) take the values given, 2 when
 * not given. Inputs are float32 and filled with a fixed pattern.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xstitch/xstitch.h>

/* Prints and frees an error; returns nonzero when there was one. */
static int failed(xs_status_t status, const char *what) {
  if (status == NULL)
    return 0;
  fprintf(stderr, "embed: %s: %s: %s\n", what, xs_status_code_name(xs_status_code(status)),
          xs_status_message(status));
  xs_status_free(status);
  return 1;
}

/* The value of symbolic dim `expr` from the command line, or 2. */
static int64_t dim_value(const char *expr, int argc, char **argv) {
  size_t length = strlen(expr);
  int i;
  for (i = 2; i < argc; ++i)
    if (strncmp(argv[i], expr, length) == 0 && argv[i][length] == '=')
      return atoll(argv[i] + length + 1);
  return 2;
}

int main(int argc, char **argv) {
  xs_context_t *context = NULL;
#ifndef XSTITCH_EMBED_BUNDLES_ONLY
  xs_module_t *module = NULL;
#endif
  xs_executable_t *executable = NULL;
  DLTensor *inputs = NULL, *outputs = NULL;
  int64_t *shapes = NULL, *output_shapes = NULL;
  size_t num_inputs = 0, num_outputs = 0, i, count = 0, offset;
  int status = 1;

  if (argc < 2) {
    fprintf(stderr, "usage: embed MODEL [SYMBOL=VALUE ...]\n");
    return 2;
  }
  printf("xstitch %s\n", xs_version());
  if (failed(xs_context_create(NULL, &context), "creating a context"))
    goto done;
  if (strlen(argv[1]) > 4 && strcmp(argv[1] + strlen(argv[1]) - 4, ".xsb") == 0) {
    if (failed(xs_executable_load_bundle(context, argv[1], NULL, &executable),
               "loading the bundle"))
      goto done;
  } else {
#ifdef XSTITCH_EMBED_BUNDLES_ONLY
    fprintf(stderr, "embed: %s: this build loads bundles (MODEL.xsb) only\n", argv[1]);
    goto done;
#else
    if (failed(xs_module_create_from_file(argv[1], NULL, &module), "loading the model") ||
        failed(xs_executable_compile(context, module, NULL, &executable), "compiling"))
      goto done;
#endif
  }

  /* Inputs: shapes from the descriptions, symbolic dims from the command
   * line, float32 buffers of the program's own. */
  num_inputs = xs_executable_input_count(executable);
  num_outputs = xs_executable_output_count(executable);
  inputs = calloc(num_inputs + 1, sizeof(DLTensor));
  outputs = calloc(num_outputs + 1, sizeof(DLTensor));
  shapes = calloc(num_inputs * 8 + 1, sizeof(int64_t));
  if (inputs == NULL || outputs == NULL || shapes == NULL)
    goto done;
  for (i = 0; i < num_inputs; ++i) {
    xs_tensor_desc_t desc;
    int32_t d;
    int64_t n = 1, k;
    float *data;
    xs_tensor_desc_init(&desc);
    if (failed(xs_executable_input_desc(executable, i, &desc), "describing an input"))
      goto done;
    if (desc.dtype.code != kDLFloat || desc.dtype.bits != 32 || desc.ndim > 8) {
      fprintf(stderr, "embed: input '%s' is not a float32 tensor of rank 8 or less\n", desc.name);
      goto done;
    }
    for (d = 0; d < desc.ndim; ++d) {
      int64_t size =
          desc.dims[d].size >= 0 ? desc.dims[d].size : dim_value(desc.dims[d].expr, argc, argv);
      shapes[i * 8 + (size_t)d] = size;
      n *= size;
    }
    data = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (data == NULL)
      goto done;
    for (k = 0; k < n; ++k)
      data[k] = (float)(k % 13) * 0.1f - 0.6f + (float)i;
    inputs[i].data = data;
    inputs[i].device.device_type = kDLCPU;
    inputs[i].ndim = desc.ndim;
    inputs[i].dtype = desc.dtype;
    inputs[i].shape = &shapes[i * 8];
    printf("input %s: float32[", desc.name);
    for (d = 0; d < desc.ndim; ++d)
      printf(d ? ", %lld" : "%lld", (long long)shapes[i * 8 + (size_t)d]);
    printf("]\n");
  }

  /* Outputs: their shapes follow from the inputs'; the program owns them. */
  if (failed(xs_executable_output_shapes(executable, inputs, num_inputs, NULL, 0, &count),
             "sizing the outputs"))
    goto done;
  output_shapes = calloc(count + 1, sizeof(int64_t));
  if (output_shapes == NULL || failed(xs_executable_output_shapes(executable, inputs, num_inputs,
                                                                  output_shapes, count, &count),
                                      "sizing the outputs"))
    goto done;
  for (i = 0, offset = 0; i < num_outputs; ++i) {
    xs_tensor_desc_t desc;
    int64_t n = 1;
    int32_t d;
    xs_tensor_desc_init(&desc);
    if (failed(xs_executable_output_desc(executable, i, &desc), "describing an output"))
      goto done;
    outputs[i].device.device_type = kDLCPU;
    outputs[i].ndim = desc.ndim;
    outputs[i].dtype = desc.dtype;
    outputs[i].shape = &output_shapes[offset];
    for (d = 0; d < desc.ndim; ++d)
      n *= output_shapes[offset + (size_t)d];
    offset += (size_t)desc.ndim;
    outputs[i].data = malloc((size_t)(n > 0 ? n : 1) * (desc.dtype.bits / 8));
    if (outputs[i].data == NULL)
      goto done;
  }

  {
    xs_run_args_t args;
    xs_run_args_init(&args);
    args.inputs = inputs;
    args.num_inputs = num_inputs;
    args.outputs = outputs;
    args.num_outputs = num_outputs;
    if (failed(xs_executable_run(executable, &args), "running"))
      goto done;
  }

  for (i = 0; i < num_outputs; ++i) {
    xs_tensor_desc_t desc;
    int64_t n = 1, k;
    int32_t d;
    double sum = 0, absolute = 0;
    xs_tensor_desc_init(&desc);
    if (failed(xs_executable_output_desc(executable, i, &desc), "describing an output"))
      goto done;
    printf("output %s: float32[", desc.name);
    for (d = 0; d < outputs[i].ndim; ++d) {
      printf(d ? ", %lld" : "%lld", (long long)outputs[i].shape[d]);
      n *= outputs[i].shape[d];
    }
    if (desc.dtype.code == kDLFloat && desc.dtype.bits == 32)
      for (k = 0; k < n; ++k) {
        sum += ((const float *)outputs[i].data)[k];
        absolute += ((const float *)outputs[i].data)[k] < 0 ? -((const float *)outputs[i].data)[k]
                                                            : ((const float *)outputs[i].data)[k];
      }
    printf("] sum %.6g mean |y| %.6g\n", sum, n > 0 ? absolute / (double)n : 0.0);
  }
  status = 0;

done:
  if (inputs != NULL)
    for (i = 0; i < num_inputs; ++i)
      free(inputs[i].data);
  if (outputs != NULL)
    for (i = 0; i < num_outputs; ++i)
      free(outputs[i].data);
  free(inputs);
  free(outputs);
  free(shapes);
  free(output_shapes);
  xs_executable_release(executable);
#ifndef XSTITCH_EMBED_BUNDLES_ONLY
  xs_module_release(module);
#endif
  xs_context_release(context);
  return status;
}
