/**
 * The bundled model's vectors of the texts the model-backed test files embed, kept in the
 * repository (test/fixtures/use-vectors.bin.gz) and loaded into each test run's embedding cache
 * before the lanes start (./run-fixtures.ts). The model needs about 2 ms of processor time per
 * token, single threaded: embedding these texts afresh cost about 700 s of CPU per run, a quarter
 * of the suite. The vectors are the model's own output, exactly (the cache's little-endian
 * float32 blobs, under the cache key naming the model's package versions): a run serves from them
 * only what this machine's model would compute, computes any text they miss (a strategy changed
 * its chunks), and says how many it computed (./warm-cache.ts). test/embedders/vector-fixture.test.ts
 * embeds a sample afresh and compares it bit for bit. `npm run test:refresh-vectors` makes the file
 * again from a run with an empty cache (scripts/refresh-test-vectors.mjs).
 *
 * The file, gzipped: "CEV1", a little-endian uint32 header length, the JSON header
 * ({cache_key, embedder, dimension, count}), `count` raw SHA-256 text hashes of 32 bytes, then
 * `count` vectors of `dimension` little-endian float32s; sorted by hash, so that the same vectors
 * make the same file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { openCacheDatabase } from "../../src/stores/sqlite/cache-repos.js";
import { CACHE_FILE } from "../../src/stores/sqlite/files.js";

export const VECTOR_FIXTURE = fileURLToPath(new URL("../fixtures/use-vectors.bin.gz", import.meta.url));
/** Set (to anything) to start a run's cache empty: the refresh script's run, or a check of the cold path. */
export const COLD_CACHE = "CHUNKEVAL_TEST_COLD_CACHE";

const MAGIC = "CEV1";
const HASH_BYTES = 32;

export interface VectorFixture {
  cacheKey: string;
  embedder: string;
  dimension: number;
  /** By hex SHA-256 of the text (the cache's text_hash). */
  vectors: Map<string, Float32Array>;
}

export function readVectorFixture(path = VECTOR_FIXTURE): VectorFixture {
  const bytes = gunzipSync(readFileSync(path));
  if (bytes.subarray(0, 4).toString("latin1") !== MAGIC) throw new Error(`${path}: not a vector fixture (no ${MAGIC} mark)`);
  const headerLength = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString("utf8")) as { cache_key: string; embedder: string; dimension: number; count: number };
  const hashesAt = 8 + headerLength;
  const vectorsAt = hashesAt + header.count * HASH_BYTES;
  const vectorBytes = header.dimension * 4;
  if (bytes.length !== vectorsAt + header.count * vectorBytes) throw new Error(`${path}: ${bytes.length} bytes, not what its header describes`);
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < header.count; i++) {
    const hash = bytes.subarray(hashesAt + i * HASH_BYTES, hashesAt + (i + 1) * HASH_BYTES).toString("hex");
    const start = vectorsAt + i * vectorBytes;
    // A copy: a Float32Array over the gunzipped buffer would need 4-byte alignment.
    vectors.set(hash, new Float32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + vectorBytes)));
  }
  return { cacheKey: header.cache_key, embedder: header.embedder, dimension: header.dimension, vectors };
}

export function writeVectorFixture(fixture: VectorFixture, path = VECTOR_FIXTURE): void {
  const hashes = [...fixture.vectors.keys()].sort();
  const header = Buffer.from(
    JSON.stringify({ cache_key: fixture.cacheKey, embedder: fixture.embedder, dimension: fixture.dimension, count: hashes.length }),
    "utf8",
  );
  const lead = Buffer.alloc(8);
  lead.write(MAGIC, 0, "latin1");
  lead.writeUInt32LE(header.length, 4);
  const parts: Buffer[] = [lead, header, ...hashes.map((h) => Buffer.from(h, "hex"))];
  for (const h of hashes) {
    const v = fixture.vectors.get(h)!;
    if (v.length !== fixture.dimension) throw new Error(`vector ${h}: ${v.length} numbers, not ${fixture.dimension}`);
    parts.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }
  writeFileSync(path, gzipSync(Buffer.concat(parts), { level: 9 }));
}

/** Loads the fixture's vectors into the cache database of `cacheDir`; returns how many (0 without the file). */
export function seedCache(cacheDir: string, path = VECTOR_FIXTURE): number {
  if (!existsSync(path)) return 0;
  const fixture = readVectorFixture(path);
  const db = openCacheDatabase(join(cacheDir, CACHE_FILE));
  try {
    const put = db.prepare(`INSERT OR REPLACE INTO embeddings (cache_key, embedder, text_hash, vector, last_used_ms) VALUES (?, ?, ?, ?, ?)`);
    const now = Date.now();
    db.transaction(() => {
      for (const [h, v] of fixture.vectors) put.run(fixture.cacheKey, fixture.embedder, h, Buffer.from(v.buffer, v.byteOffset, v.byteLength), now);
    })();
  } finally {
    db.close();
  }
  return fixture.vectors.size;
}

/** The vectors of `embedder` in the cache database of `cacheDir`, as a fixture (its cache key must be one); undefined when it holds none. */
export function cacheVectors(cacheDir: string, embedder: string): VectorFixture | undefined {
  const db = openCacheDatabase(join(cacheDir, CACHE_FILE));
  try {
    const rows = db.prepare(`SELECT cache_key, text_hash, vector FROM embeddings WHERE embedder = ?`).all(embedder) as Array<{
      cache_key: string;
      text_hash: string;
      vector: Buffer;
    }>;
    if (rows.length === 0) return undefined;
    const keys = new Set(rows.map((r) => r.cache_key));
    if (keys.size !== 1) throw new Error(`${cacheDir}: ${keys.size} cache keys for ${embedder} (${[...keys].join(" | ")}), not one`);
    const vectors = new Map(
      rows.map((r) => [r.text_hash, new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength))]),
    );
    return { cacheKey: [...keys][0]!, embedder, dimension: rows[0]!.vector.byteLength / 4, vectors };
  } finally {
    db.close();
  }
}

/** How many vectors of `embedder` the cache database of `cacheDir` holds. */
export function cachedVectorCount(cacheDir: string, embedder: string): number {
  const db = openCacheDatabase(join(cacheDir, CACHE_FILE));
  try {
    return (db.prepare(`SELECT count(*) AS n FROM embeddings WHERE embedder = ?`).get(embedder) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The hashes whose vectors differ between `fresh` and the fixture (bit for bit), among those both hold. */
export function differingVectors(fresh: Map<string, Float32Array>, fixture: VectorFixture): { compared: number; differing: string[] } {
  let compared = 0;
  const differing: string[] = [];
  for (const [h, v] of fresh) {
    const kept = fixture.vectors.get(h);
    if (!kept) continue;
    compared += 1;
    if (!Buffer.from(v.buffer, v.byteOffset, v.byteLength).equals(Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength))) differing.push(h);
  }
  return { compared, differing };
}
