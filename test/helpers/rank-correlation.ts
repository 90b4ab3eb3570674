/** Spearman's rank correlation of two equally long series (ties share their average rank); null when either is constant. */
export function spearman(a: number[], b: number[]): number | null {
  if (a.length !== b.length) throw new Error(`spearman: ${a.length} against ${b.length} values`);
  const [ra, rb] = [ranks(a), ranks(b)];
  const mean = (v: number[]) => v.reduce((x, y) => x + y, 0) / v.length;
  const [ma, mb] = [mean(ra), mean(rb)];
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i]! - ma) * (rb[i]! - mb);
    da += (ra[i]! - ma) ** 2;
    db += (rb[i]! - mb) ** 2;
  }
  return da === 0 || db === 0 ? null : num / Math.sqrt(da * db);
}

function ranks(values: number[]): number[] {
  const order = values.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}
