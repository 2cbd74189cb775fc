// What the ONNX Runtime drivers of the benchmarks share.

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
