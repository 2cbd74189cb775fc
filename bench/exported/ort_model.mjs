// ONNX Runtime's CPU execution provider on one model of the exported suite
// (export_models.py), at the dims its NAME.json records. The model runs
// `iters` times after a warm-up; a run's time is ONNX Runtime's own
// `model_run` event from its profiler, so the Node.js binding's copies are
// not counted. Prints one JSON line: {"model", "ort_ms", "ort_kernels"}.
//
// usage: node ort_model.mjs MODELS_DIR NAME THREADS ITERS

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { halfBits, randomFloats, timeWithProfiler } from '../peers/ort_common.mjs';

// onnxruntime-node is installed under bench/peers (bench/run-workloads.sh).
const require = createRequire(new URL('../peers/package.json', import.meta.url));
const ort = require('onnxruntime-node');

const [modelsDir, name, threadsArg, itersArg] = process.argv.slice(2);
const threads = Number(threadsArg ?? 2);
const iters = Number(itersArg ?? 10);
const warmup = 2;
const spec = JSON.parse(fs.readFileSync(path.join(modelsDir, `${name}.json`), 'utf8'));

function inputTensor(inputName, dims) {
  const n = dims.reduce((a, b) => a * b, 1);
  if ((spec.integer_inputs ?? []).includes(inputName)) {
    return new ort.Tensor('int64', new BigInt64Array(n), dims);
  }
  if ((spec.half_inputs ?? []).includes(inputName)) {
    return new ort.Tensor('float16', halfBits(randomFloats(n)), dims);
  }
  return new ort.Tensor('float32', randomFloats(n), dims);
}

const timed = await timeWithProfiler(
  ort, path.join(modelsDir, `${name}.onnx`), threads, warmup, iters, () => {
    const feeds = {};
    for (const [inputName, shape] of Object.entries(spec.inputs)) {
      const dims = shape.map((d) => (typeof d === 'number' ? d : spec.dims[d]));
      feeds[inputName] = inputTensor(inputName, dims);
    }
    return feeds;
  });
console.log(JSON.stringify({ model: name, ort_ms: timed.ms, ort_kernels: timed.kernels }));
