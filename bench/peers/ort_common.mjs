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
