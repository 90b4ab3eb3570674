// The bundled model's vectors kept for the test runs (test/helpers/vector-fixture.ts) are the
// model's own output: the installed model's cache key, and texts embedded afresh, bit for bit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handbookBytes } from "../helpers/documents.js";
import { cacheVectors, differingVectors, readVectorFixture } from "../helpers/vector-fixture.js";
import { createWorkspace } from "../helpers/workspace.js";

test("the kept vectors are the installed model's: its cache key, and the handbook's recursive chunks embedded afresh equal them bit for bit", async () => {
  const fixture = readVectorFixture();
  const ownCache = mkdtempSync(join(tmpdir(), "chunkeval-fresh-vectors-"));
  const ws = await createWorkspace({ embedder: "use", cache_dir: ownCache });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const fresh = cacheVectors(ownCache, "use")!;
    assert.equal(fixture.cacheKey, fresh.cacheKey, "the kept vectors were made by another version of the model: npm run test:refresh-vectors");
    const { compared, differing } = differingVectors(fresh.vectors, fixture);
    assert.ok(compared >= 10 && compared === fresh.vectors.size, `${compared} of ${fresh.vectors.size} fresh vectors are kept`);
    assert.deepEqual(differing, [], "fresh vectors that differ from the kept ones");
  } finally {
    await ws.cleanup();
    rmSync(ownCache, { recursive: true, force: true });
  }
});

test("a kept vector one bit away from the model's is told apart", () => {
  const fixture = readVectorFixture();
  const [hash, vector] = [...fixture.vectors][0]!;
  const changed = new Float32Array(vector);
  new Uint32Array(changed.buffer)[7]! ^= 1;
  assert.deepEqual(differingVectors(new Map([[hash, changed]]), fixture), { compared: 1, differing: [hash] });
  assert.deepEqual(differingVectors(new Map([[hash, new Float32Array(vector)]]), fixture), { compared: 1, differing: [] });
});
