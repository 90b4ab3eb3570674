/** Resamples drawn for every bootstrap interval and paired test. */
export const BOOTSTRAP_RESAMPLES = 2000;
/** Fixed seed: the same per-question scores always give the same intervals and p-values. */
export const BOOTSTRAP_SEED = 20240917;
export const CONFIDENCE_LEVEL = 0.95;
/**
 * Fewer paired questions than this never make a lead significant: a bootstrap over one to a few
 * questions resamples the same handful of differences, so its interval says nothing of the noise.
 */
export const MIN_PAIRED_QUESTIONS = 10;

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Linear-interpolated quantile of sorted values. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** A question count's draws are kept when they are at most this many indices (4 MB: up to 500 questions). */
const KEPT_INDICES_MAX = 1_000_000;
/** How many question counts' draws are kept, the least recently used let go first (at most 32 MB in all). */
const KEPT_COUNTS = 8;
const keptIndices = new Map<number, Int32Array>();

/**
 * The BOOTSTRAP_RESAMPLES resamples of the indices 0..n-1, one after another, as bootstrap
 * draws them from its fixed seed, or undefined when there are too many to keep. They are the same
 * for every bootstrap over n questions, so they are drawn once per n and kept: a benchmark
 * bootstraps every strategy, metric and comparison over the same questions, and drawing the
 * indices anew was most of its scoring time.
 */
function keptResampleIndices(n: number): Int32Array | undefined {
  if (BOOTSTRAP_RESAMPLES * n > KEPT_INDICES_MAX) return undefined;
  let drawn = keptIndices.get(n);
  if (drawn) keptIndices.delete(n);
  else {
    const random = seededRandom(BOOTSTRAP_SEED);
    drawn = new Int32Array(BOOTSTRAP_RESAMPLES * n);
    for (let k = 0; k < drawn.length; k++) drawn[k] = Math.floor(random() * n);
    if (keptIndices.size >= KEPT_COUNTS) keptIndices.delete(keptIndices.keys().next().value!);
  }
  // Re-inserted, so the map's first key is the least recently used.
  keptIndices.set(n, drawn);
  return drawn;
}

/**
 * Draws BOOTSTRAP_RESAMPLES resamples (with replacement) of the indices 0..n-1 and returns the
 * statistic of each, skipping resamples where it is null. Every call starts from the same seed,
 * so results do not depend on what was computed before.
 */
export function bootstrap<T>(n: number, statistic: (indices: number[]) => T | null): T[] {
  const kept = keptResampleIndices(n);
  const random = kept ? undefined : seededRandom(BOOTSTRAP_SEED);
  const out: T[] = [];
  const indices = new Array<number>(n);
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    if (kept) for (let i = 0; i < n; i++) indices[i] = kept[b * n + i]!;
    else for (let i = 0; i < n; i++) indices[i] = Math.floor(random!() * n);
    const value = statistic(indices);
    if (value !== null) out.push(value);
  }
  return out;
}

/** Values as a column to resample: NaN stands for each value mean() skips (null, NaN, ±Infinity). */
export function resampleColumn(values: ReadonlyArray<number | null>): Float64Array {
  return Float64Array.from(values, (v) => (v !== null && Number.isFinite(v) ? v : Number.NaN));
}

/** mean(indices.map((i) => values[i])) over the resampleColumn of values, to the last bit (the same additions in the same order). */
export function columnMean(column: Float64Array, indices: readonly number[]): number | null {
  let sum = 0;
  let count = 0;
  for (const i of indices) {
    const v = column[i]!;
    if (!Number.isNaN(v)) {
      sum += v;
      count++;
    }
  }
  return count === 0 ? null : sum / count;
}

/**
 * bootstrap(n, (indices) => mean(indices.map((i) => values[i]))), to the last bit, without a list
 * per resample: the means of the resamples of `values`.
 */
export function bootstrapMeans(values: ReadonlyArray<number | null>): number[] {
  const column = resampleColumn(values);
  return bootstrap(values.length, (indices) => columnMean(column, indices));
}

/** The central CONFIDENCE_LEVEL interval of a bootstrap distribution, or null when it is empty. */
export function percentileInterval(samples: Array<number | null>): [number, number] | null {
  // A typed array sorts numerically without a comparator call per comparison: several times
  // faster over a bootstrap's 2,000 samples, computed for every strategy, metric and comparison.
  const sorted = Float64Array.from(samples.filter((v): v is number => v !== null && Number.isFinite(v))).sort();
  if (sorted.length === 0) return null;
  const tail = (1 - CONFIDENCE_LEVEL) / 2;
  return [quantile(sorted, tail), quantile(sorted, 1 - tail)];
}

/** Two-sided bootstrap p-value of "the difference is zero": twice the smaller tail share at 0. */
export function bootstrapPValue(differences: number[]): number | null {
  if (differences.length === 0) return null;
  const atOrBelow = differences.filter((d) => d <= 0).length;
  const atOrAbove = differences.filter((d) => d >= 0).length;
  return Math.min(1, (2 * Math.min(atOrBelow, atOrAbove)) / differences.length);
}
