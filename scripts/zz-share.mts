import * as lancedb from "@lancedb/lancedb";
import { mkdtempSync } from "node:fs";
// 6 strategies x 1000 generations x ~20 rows = 120k rows; search one strategy's rows (1/6 of the table) by ANN vs exact.
const db = await lancedb.connect(mkdtempSync("/tmp/lance-share-"));
const D = 512, S = 6, G = 1000, PER = 20;
let seed = 7; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
// Clustered vectors, so neighbours are meaningful: 200 centres plus noise.
const centres = Array.from({ length: 200 }, () => Array.from({ length: D }, () => rnd() - 0.5));
const vec = () => { const c = centres[Math.floor(rnd() * centres.length)]!; return c.map((x) => x + (rnd() - 0.5) * 0.6); };
let table: lancedb.Table | null = null;
for (let s = 0; s < S; s++) {
  const rows = [];
  for (let g = 0; g < G; g++) for (let k = 0; k < PER; k++) rows.push({ chunk_id: `s${s}g${g}k${k}`, document_id: `d${g}`, strategy: `st${s}`, generation: `s${s}g${g}`, vector: vec() });
  if (!table) table = await db.createTable("t", rows); else await table.add(rows);
}
const t = table!;
await t.createIndex("generation", { config: lancedb.Index.btree() });
await t.createIndex("strategy", { config: lancedb.Index.bitmap() });
await t.createIndex("vector", { config: lancedb.Index.hnswSq({ distanceType: "cosine", numPartitions: 1 }) });
const gens = (s: number, n: number) => Array.from({ length: n }, (_, g) => `'s${s}g${g}'`).join(", ");
for (const [label, filter] of [["one strategy, 1000 docs (1/6 of rows)", `strategy IN ('st2') AND generation IN (${gens(2, 1000)})`], ["one strategy, 200 docs (1/30)", `strategy IN ('st2') AND generation IN (${gens(2, 200)})`]] as const) {
  let hit = 0; const ms: number[] = [];
  for (let i = 0; i < 40; i++) {
    const q = vec();
    const exact = (await t.vectorSearch(q).distanceType("cosine").where(filter).bypassVectorIndex().select(["chunk_id", "_distance"]).limit(10).toArray()) as Array<{ _distance: number }>;
    const s0 = performance.now();
    const ann = (await t.vectorSearch(q).distanceType("cosine").where(filter).refineFactor(4).ef(500).select(["chunk_id", "_distance"]).limit(10).toArray()) as Array<{ _distance: number }>;
    ms.push(performance.now() - s0);
    const tenth = exact.at(-1)!._distance;
    hit += ann.filter((r) => r._distance <= tenth + 1e-6).length / 10;
  }
  ms.sort((a, b) => a - b);
  console.log(label, "recall@10", (hit / 40).toFixed(3), "ANN p50", ms[20]!.toFixed(1), "ms");
}
