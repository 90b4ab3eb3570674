/** The index of the last of `sorted[0..last]` that is at most `value` (0 when none is): a binary search. */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number, last = sorted.length - 1): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
