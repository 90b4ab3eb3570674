import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { HANDBOOK_PATH, handbookBytes } from "../helpers/documents.js";
import { runCli, runCliProcess } from "../helpers/cli.js";

const vector = () => new Float32Array(512).fill(0.1);

/**
 * A dense question on recursive fails naming the missing vectors. Dense search is the subject:
 * keyword search (the hash embedder's default) reads no vectors.
 */
async function assertDenseAskFindsVectorsMissing(ws: Workspace, documentId: string): Promise<void> {
  await assert.rejects(ws.app.ask({ documentId, strategy: "recursive@retrieval=dense", question: "How much does a member share cost?" }), (error: Error) => {
    assert.equal(error.constructor.name, "IndexFailedError");
    assert.match(error.message, /vectors are missing from the vector store \(run: chunkeval doctor\)/);
    return true;
  });
}

test("opening the store never sweeps a generation another live process is writing; a dead writer's is swept", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const chunks = ws.internals.context.chunks;
    const store = await ws.internals.context.vectors();
    const SPACE = store.spaceFor("hash", 512);
    const live = { documentId: doc.id, strategy: "recursive", generation: "gen_inflight", vectorSpace: SPACE };
    const dead = { documentId: doc.id, strategy: "fixed_size", generation: "gen_deadwriter", vectorSpace: SPACE };
    // Another process on this machine (alive: this test's own pid, another instance) mid-write,
    // and one that was killed mid-write.
    await chunks.beginGeneration(live, { instance: "ins_other", pid: process.pid, host: hostname() });
    await chunks.beginGeneration(dead, { instance: "ins_killed", pid: spawnSync(process.execPath, ["-e", ""]).pid!, host: hostname() });
    for (const g of [live, dead]) await store.add(SPACE, [{ ...g, chunkId: `chk_${g.generation}`, text: "x", vector: vector() }]);

    await ws.reopen(); // a new process opening the data directory runs the cleanup
    const reopened = await ws.internals.context.vectors();
    assert.equal((await reopened.search(SPACE, vector(), [live], 10)).length, 1, "the live writer's vectors stay");
    assert.equal((await reopened.search(SPACE, vector(), [dead], 10)).length, 0, "the dead writer's vectors are gone");
    assert.deepEqual(
      (await ws.internals.context.chunks.pendingGenerations()).map((p) => p.generation),
      ["gen_inflight"],
    );

    // A writer whose pending row was reclaimed (it outlived the age bound) cannot commit.
    await ws.internals.context.chunks.dropPending("gen_inflight");
    const state = { ...live, options: {}, embedder: "hash", retrieval: "dense" as const, chunkCount: 1, processedAt: "2026-01-01T00:00:00" };
    await assert.rejects(async () => await ws.internals.context.chunks.commitGeneration(state, []), /reclaimed by cleanup/);
    assert.equal(await ws.internals.context.chunks.state(doc.id, "recursive"), null);
  } finally {
    await ws.cleanup();
  }
});

test("cleanup never deletes a generation that commits while it reads SQLite", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const chunks = ws.internals.context.chunks;
    const store = await ws.internals.context.vectors();
    const ref = { documentId: doc.id, strategy: "recursive", generation: "gen_committing", vectorSpace: store.spaceFor("hash", 512) };
    await chunks.beginGeneration(ref, ws.internals.context.owner);
    await store.add(ref.vectorSpace, [{ ...ref, chunkId: "chk_committing", text: "x", vector: vector() }]);
    // The writer commits at the worst moment: between cleanup's two reads of SQLite (after its
    // claim of abandoned generations, after whichever of current and pending it reads first).
    const commit = () =>
      chunks.commitGeneration({ ...ref, options: {}, embedder: "hash", retrieval: "dense", chunkCount: 1, processedAt: "2026-01-01T00:00:00" }, []);
    let armed = false;
    const claim = chunks.claimAbandoned.bind(chunks);
    chunks.claimAbandoned = async (...args) => {
      const claimed = await claim(...args);
      armed = true;
      return claimed;
    };
    for (const read of ["currentGenerations", "pendingGenerations"] as const) {
      const original = (chunks[read] as () => Promise<unknown[]>).bind(chunks);
      (chunks as unknown as Record<string, () => Promise<unknown[]>>)[read] = async () => {
        const result = await original();
        if (armed) {
          armed = false;
          await commit();
        }
        return result;
      };
    }
    const { sweepAbandoned } = await import("../../src/services/corpus/generations.js");
    assert.equal(await sweepAbandoned(chunks, store, ws.internals.context.owner), 0);
    assert.equal((await store.search(ref.vectorSpace, vector(), [ref], 10)).length, 1, "the committed generation keeps its vectors");
  } finally {
    await ws.cleanup();
  }
});

test("doctor --repair never touches a generation another process commits, or the one it replaces, while doctor looks", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const { chunks, owner } = ws.internals.context;
    const store = await ws.internals.context.vectors();
    const old = (await chunks.state(doc.id, "recursive"))!;
    const next = { documentId: doc.id, strategy: "recursive", generation: "gen_next", vectorSpace: old.vectorSpace };
    await chunks.beginGeneration(next, owner);
    // Right after doctor lists the vectors, the other process writes its new generation's
    // vectors, commits it, and deletes the replaced generation's vectors (process's write order).
    const inventory = store.inventory.bind(store);
    store.inventory = async () => {
      const listed = await inventory();
      await store.add(next.vectorSpace, [{ ...next, chunkId: "chk_next", text: "A member share costs 100 euros.", vector: vector() }]);
      const chunk = { id: "chk_next", position: 0, text: "A member share costs 100 euros.", start: 0, end: 10, tokenCount: 8, parentId: null, context: null };
      await chunks.commitGeneration({ ...old, generation: "gen_next", chunkCount: 1, processedAt: "2026-01-01T00:00:00" }, [{ ...chunk, role: "chunk" }]);
      await store.deleteGeneration(old.vectorSpace, old);
      return listed;
    };
    const { runDoctor } = await import("../../src/services/corpus/doctor.js");
    // The originals as they are (the subject here is the vectors).
    const originals = { originals: ws.internals.context.originals, documents: ws.internals.context.documents, ingestion: ws.internals.ingestionRepo };
    const report = await runDoctor({ chunks, vectors: async () => store, owner, ...originals }, { repair: true });
    assert.deepEqual([report.consistent, report.findings, report.repaired], [true, [], []], JSON.stringify(report.findings));
    assert.ok(report.inFlight >= 1);
    store.inventory = inventory;
    assert.equal((await chunks.state(doc.id, "recursive"))?.generation, "gen_next", "the new generation stays current");
    const answer = await ws.app.ask({ documentId: doc.id, strategy: "recursive", question: "How much does a member share cost?" });
    assert.equal(answer.retrievedChunks[0]?.text, "A member share costs 100 euros.");
    assert.equal((await runDoctor({ chunks, vectors: async () => store, owner, ...originals })).consistent, true);
  } finally {
    await ws.cleanup();
  }
});

test("chunkeval doctor finds missing and orphan vectors, exits 1, and --repair leaves a consistent store", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-doctor-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const up = await runCli(["upload", HANDBOOK_PATH, "--json"], env);
    const id = JSON.parse(up.stdout).id as string;
    assert.equal((await runCli(["process", id, "--strategies", "recursive,fixed_size", "--json"], env)).code, 0);
    const clean = await runCli(["doctor"], env);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /checked 2 processed strategies, \d+ committed chunks, \d+ vectors, 1 stored originals\nconsistent/);

    // Break it behind chunkeval's back: fixed_size loses its vectors, and an orphan appears.
    const ws = await createWorkspace({ data_dir: join(dir, "data") });
    const store = await ws.internals.context.vectors();
    const fixed = (await ws.internals.context.chunks.state(id, "fixed_size"))!;
    await store.deleteGeneration(fixed.vectorSpace, fixed);
    await store.add(fixed.vectorSpace, [
      { documentId: id, strategy: "recursive", generation: "gen_orphan", chunkId: "chk_orphan", text: "x", vector: vector() },
    ]);
    await ws.app.close();

    const broken = await runCli(["doctor", "--json"], env);
    assert.equal(broken.code, 1);
    const report = JSON.parse(broken.stdout);
    assert.equal(report.consistent, false);
    assert.deepEqual(report.findings.map((f: any) => [f.kind, f.strategy]).sort(), [
      ["missing_vectors", "fixed_size"],
      ["orphan_vectors", "recursive"],
    ]);

    const repaired = await runCli(["doctor", "--repair"], env);
    assert.equal(repaired.code, 0, repaired.stdout);
    assert.match(repaired.stdout, /strategy fixed_size: marked for re-processing/);
    assert.match(repaired.stdout, /removed the vectors of 1 abandoned generation/);
    assert.match(repaired.stdout, /\nconsistent\n$/);
    const ask = await runCli(["ask", id, "What number should I call?", "--strategy", "fixed_size"], env);
    assert.match(ask.stderr, /has not been processed with strategy fixed_size/);
    assert.equal((await runCli(["ask", id, "What number should I call?", "--strategy", "recursive"], env)).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two `process` runs at once on one data directory never fail with 'database is locked'", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-twoproc-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const id = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], env)).stdout).id as string;
    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      const runs = await Promise.all([
        runCliProcess(["process", id, "--strategies", "recursive,fixed_size", "--json"], env),
        runCliProcess(["process", id, "--strategies", "fixed_size,recursive", "--json"], env),
      ]);
      for (const r of runs) {
        assert.equal(r.code, 0, `round ${round}: ${r.stderr} ${r.stdout}`);
        assert.deepEqual(JSON.parse(r.stdout).strategies_failed, [], `round ${round}`);
        assert.doesNotMatch(r.stderr, /locked/);
      }
    }
    const doctor = await runCli(["doctor"], env);
    assert.equal(doctor.code, 0, doctor.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("asking a processed strategy whose table is there but whose generation's vectors are gone is an error, not an empty answer", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive", "fixed_size"]);
    // Another data directory's cleanup (a shared store) or a hand edit removed them, table kept.
    const state = (await ws.internals.context.chunks.state(doc.id, "recursive"))!;
    await (await ws.internals.context.vectors()).deleteGeneration(state.vectorSpace, state);
    await assertDenseAskFindsVectorsMissing(ws, doc.id);
    const other = await ws.app.ask({ documentId: doc.id, strategy: "fixed_size", question: "How much does a member share cost?" });
    assert.ok(other.retrievedChunks.length > 0, "the other strategy in the same table still answers");
  } finally {
    await ws.cleanup();
  }
});

test("a search of a generation another process replaced meanwhile finds nothing without claiming the vectors are lost", async () => {
  const { retrieve } = await import("../../src/retrieval/retrieve.js");
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const { chunks } = ws.internals.context;
    const before = (await chunks.state(doc.id, "recursive"))!;
    // What a benchmark holding `before` meets when a CLI `process` commits a new generation and deletes the old vectors.
    await ws.app.process(doc.id, ["recursive"]);
    assert.notEqual((await chunks.state(doc.id, "recursive"))!.generation, before.generation, "a new generation was committed");
    const deps = { vectors: await ws.internals.context.vectors(), chunks, embedder: await ws.internals.context.embedder() };
    const stale = await retrieve(deps, before, "How much does a member share cost?", 3, undefined, "dense");
    assert.deepEqual(stale.chunks, []);
    const current = await retrieve(deps, (await chunks.state(doc.id, "recursive"))!, "How much does a member share cost?", 3, undefined, "dense");
    assert.ok(current.chunks.length > 0);
  } finally {
    await ws.cleanup();
  }
});

test("asking a processed strategy whose vectors the store cannot find is an error, not an empty answer", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    await ws.app.close();
    // The table is gone behind chunkeval's back (or an object store lists no tables).
    rmSync(join(ws.dir, "data", "lancedb", "evaluation"), { recursive: true, force: true });
    await ws.reopen();
    await assertDenseAskFindsVectorsMissing(ws, doc.id);
  } finally {
    await ws.cleanup();
  }
});
