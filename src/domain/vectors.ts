/** Small vector helpers shared by strategies, retrieval and judges. */

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const denom = Math.sqrt(dot(a, a) * dot(b, b));
  return denom === 0 ? 0 : dot(a, b) / denom;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** The unit-length mean of several vectors of the same dimension. */
export function meanVector(vectors: ArrayLike<number>[]): Float32Array {
  const out = new Float32Array(vectors[0]?.length ?? 0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]!;
  return normalize(out);
}

/** The p-th percentile (0-100) with linear interpolation between ranks (numpy's default). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}
