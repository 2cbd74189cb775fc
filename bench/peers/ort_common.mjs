// What the ONNX Runtime drivers of the benchmarks share: inputs, and a run
// timed by ONNX Runtime's own profiler (its `model_run` events), so that the
// Node.js binding's copies are not counted.

import fs from 'node:fs';
import path from 'node:path';

/// n floats in [-1, 1) from a fixed linear congruential sequence, the same
/// in every run (and close to what xstitch's benchmarks feed).
export function randomFloats(n) {
  const data = new Float32Array(n);
  let seed = 12345;
  for (let i = 0; i < n; ++i) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (seed / 4294967296) * 2 - 1;
  }
  return data;
}

/// The f16 bits nearest to f32 values in [-1, 1) (ties to even; values
/// below f16's normal range become zero, which is close enough for timing).
export function halfBits(floats) {
  const bits = new Uint16Array(floats.length);
  const word = new Uint32Array(1);
  const asFloat = new Float32Array(word.buffer);
  for (let i = 0; i < floats.length; ++i) {
    asFloat[0] = floats[i];
    const w = word[0];
    const sign = (w >>> 16) & 0x8000;
    const exponent = ((w >>> 23) & 0xff) - 127 + 15;
    if (exponent <= 0) {
      bits[i] = sign;
      continue;
    }
    let half = sign | (exponent << 10) | ((w >>> 13) & 0x3ff);
    const rest = w & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1;
    bits[i] = half;
  }
  return bits;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/// Runs `modelPath` with ONNX Runtime's CPU provider (`threads` intra-op
/// threads, graph optimizations on) `warmup + iters` times on the feeds
/// `makeFeeds(session)` builds, and returns the median of the timed runs'
/// milliseconds and the nodes ONNX Runtime ran per run (after its fusions).
export async function timeWithProfiler(ort, modelPath, threads, warmup, iters, makeFeeds) {
  const base = path.basename(modelPath, '.onnx');
  const profileDir = fs.mkdtempSync(path.join(path.dirname(modelPath), `profile-${base}-`));
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    enableProfiling: true,
    profileFilePrefix: path.join(profileDir, 'ort'),
  });
  const feeds = makeFeeds(session);
  for (let i = 0; i < warmup + iters; ++i) await session.run(feeds);
  session.endProfiling();
  await session.release();
  const files = fs.readdirSync(profileDir).filter((f) => f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`${base}: expected one profile in ${profileDir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(profileDir, files[0]), 'utf8'));
  fs.rmSync(profileDir, { recursive: true, force: true });
  const runs = profile.filter((e) => e.name === 'model_run').map((e) => e.dur / 1000);
  const nodes = profile.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  return { ms: median(runs.slice(warmup)), kernels: Math.round(nodes.length / runs.length) };
}
