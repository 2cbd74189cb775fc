// ONNX Runtime's CPU execution provider on the workload models of
// make_models.py, at the perf shapes. Each model runs `iters` times after a
// warm-up; the time of a run is ONNX Runtime's own `model_run` event from its
// profiler, so the Node.js binding's copies are not counted. Prints one JSON
// line per workload: {"workload", "ort_ms", "ort_kernels"}; ort_kernels is
// the number of nodes ONNX Runtime ran per run (after its own fusions).
//
// usage: node ort_bench.mjs MODELS_DIR THREADS ITERS [WORKLOAD]

import path from 'node:path';
import ort from 'onnxruntime-node';
import { halfBits, randomFloats, timeWithProfiler } from './ort_common.mjs';

const [modelsDir, threadsArg, itersArg, only] = process.argv.slice(2);
const threads = Number(threadsArg ?? 2);
const iters = Number(itersArg ?? 20);
const warmup = 3;

// Perf shapes of shared/workloads.md, as dim values by name.
const shapes = {
  layernorm: { R: 4096 },
  skip_layernorm: { B: 32, S: 128 },
  bias_gelu: { R: 4096 },
  gelu_tanh: { R: 4096 },
  attn_softmax: { B: 8, S: 128 },
  rmsnorm: { T: 2048 },
  layernorm_bwd: { R: 16384 },
  softmax_small_rows: { R: 750000 },
  softmax_long_rows: { R: 64, C: 30000 },
  bias_grad: { R: 65536 },
  heads_transpose: { B: 32, S: 128 },
  bert_layer: { B: 32, S: 128 },
  layernorm_f16: { R: 16384 },
  softmax_f16: { R: 16384 },
};

function randomTensor(type, dims) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'float16') return new ort.Tensor('float16', halfBits(randomFloats(n)), dims);
  return new ort.Tensor('float32', randomFloats(n), dims);
}

async function bench(name) {
  const timed = await timeWithProfiler(
    ort, path.join(modelsDir, `${name}.onnx`), threads, warmup, iters, (session) => {
      if (!session.inputMetadata) {
        throw new Error('this onnxruntime-node has no inputMetadata; update the package');
      }
      const feeds = {};
      for (const input of session.inputMetadata) {
        const dims = input.shape.map((d) => (typeof d === 'number' ? d : shapes[name][d]));
        feeds[input.name] = randomTensor(input.type, dims);
      }
      return feeds;
    });
  return { workload: name, ort_ms: timed.ms, ort_kernels: timed.kernels };
}

for (const name of Object.keys(shapes)) {
  if (only && only !== name) continue;
  console.log(JSON.stringify(await bench(name)));
}
