/**
 * The repositories' behaviour, the same on every adapter (METADATA_STORES): what services rely
 * on, including what must hold across processes sharing one store, each test with two handles on
 * it (versions allocated once, a deadline and a commit racing, the same bytes stored once, an
 * abandoned generation claimed once).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk } from "../../src/domain/types.js";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import type { NewDocument } from "../../src/domain/ports/documents.js";
import type { StrategyState } from "../../src/domain/ports/chunks.js";
import { ConflictError } from "../../src/errors.js";
import { currentOwner } from "../../src/stores/owner.js";
import { METADATA_STORES, type OpenedStore } from "../helpers/metadata-stores.js";

function newDocument(id: string, overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    id,
    filename: `${id}.md`,
    format: "markdown",
    title: id,
    paragraphCount: 1,
    text: "One paragraph.",
    blocks: [{ kind: "paragraph", level: 0, text: "One paragraph." }],
    filePath: `/files/${id}`,
    contentHash: `hash-${id}`,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  } as NewDocument;
}

function chunk(id: string, position: number): Chunk {
  return { id, position, text: `chunk ${position}`, start: position * 10, end: position * 10 + 9, tokenCount: 3, parentId: null, context: null, role: "chunk" };
}

function state(documentId: string, generation: string, chunkCount: number): StrategyState {
  return {
    documentId,
    strategy: "recursive",
    generation,
    options: { chunk_size: 256 },
    embedder: "hash",
    vectorSpace: "vectors_hash",
    retrieval: "dense",
    chunkCount,
    processedAt: "2026-01-01T00:00:00.000Z",
  };
}

for (const { name, open } of METADATA_STORES) {
  describe(`metadata repositories on ${name}`, () => {
    let opened: OpenedStore;
    let store: MetadataStore;
    let other: MetadataStore;
    before(async () => {
      opened = await open();
      store = opened.store;
      other = await opened.another();
    });
    after(() => opened.cleanup());

    test("documents: lists are newest first with ties in insertion order, chunk counts in strategy order", async () => {
      for (const id of ["doc_b", "doc_a", "doc_c"]) await store.documents.insert(newDocument(id, { createdAt: "2026-02-01T00:00:00.000Z" }));
      await store.documents.insert(newDocument("doc_old", { createdAt: "2026-01-15T00:00:00.000Z" }));
      const page = await store.documents.list(0, 3);
      assert.deepEqual(
        page.items.map((d) => d.id),
        ["doc_c", "doc_a", "doc_b"],
      );
      assert.ok(page.total >= 4);
      const stored = await store.documents.get("doc_a");
      assert.equal(stored?.text, "One paragraph.");
      assert.deepEqual(
        stored?.blocks.map((b) => [b.kind, b.text]),
        [["paragraph", "One paragraph."]],
      );
      for (const strategy of ["zeta", "alpha", "Beta"]) {
        const generation = `gen_${strategy}`;
        await store.chunks.beginGeneration({ documentId: "doc_a", strategy, generation, vectorSpace: "v" }, currentOwner());
        await store.chunks.commitGeneration({ ...state("doc_a", generation, 1), strategy }, [chunk(`c_${strategy}`, 0)]);
      }
      assert.deepEqual(Object.keys((await store.documents.record("doc_a"))!.chunkCounts), ["Beta", "alpha", "zeta"]);
      assert.equal(await store.documents.deleteIfUnused("doc_a"), false, "a processed document is in use");
      assert.equal(await store.documents.deleteIfUnused("doc_b"), true);
      assert.equal(await store.documents.exists("doc_b"), false);
    });

    test("documents: the same bytes uploaded through two processes at once are stored once", async () => {
      const uploads = Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : store).documents.insertUnlessStored(newDocument(`doc_same_${i}`, { contentHash: "same-bytes", filename: "same.md" }), true),
      );
      const found = await Promise.all(uploads);
      const inserted = found.filter((id) => id === null).length;
      assert.equal(inserted, 1, `found: ${found.join(", ")}`);
      assert.equal((await store.documents.idsNamed("same.md")).length, 1);
    });

    test("chunks: a commit replaces the previous generation; a reclaimed generation or a deleted document is refused, changing nothing", async () => {
      const owner = currentOwner();
      await store.documents.insert(newDocument("doc_gen"));
      await store.chunks.beginGeneration({ documentId: "doc_gen", strategy: "recursive", generation: "g1", vectorSpace: "v" }, owner);
      assert.equal(await store.chunks.commitGeneration(state("doc_gen", "g1", 2), [chunk("g1_0", 0), chunk("g1_1", 1)]), null);
      await store.chunks.beginGeneration({ documentId: "doc_gen", strategy: "recursive", generation: "g2", vectorSpace: "v" }, owner);
      const replaced = await store.chunks.commitGeneration(state("doc_gen", "g2", 1), [chunk("g2_0", 0)]);
      assert.equal(replaced?.generation, "g1");
      assert.deepEqual(
        (await store.chunks.current("doc_gen", "recursive")).map((c) => c.id),
        ["g2_0"],
      );
      assert.equal((await store.chunks.byIds(["g1_0", "g2_0"])).size, 1, "the replaced generation's chunks are gone");

      // Cleanup in another process judged g3 abandoned (older than the bound) and claimed it.
      await store.chunks.beginGeneration({ documentId: "doc_gen", strategy: "recursive", generation: "g3", vectorSpace: "v" }, owner, 1000);
      const claimed = await other.chunks.claimAbandoned(currentOwner(), 60_000, 1000 + 60_001);
      assert.deepEqual(
        claimed.map((p) => p.generation),
        ["g3"],
      );
      await assert.rejects(store.chunks.commitGeneration(state("doc_gen", "g3", 1), [chunk("g3_0", 0)]), ConflictError);
      assert.equal((await store.chunks.state("doc_gen", "recursive"))?.generation, "g2");

      await store.chunks.beginGeneration({ documentId: "doc_gen", strategy: "recursive", generation: "g4", vectorSpace: "v" }, owner);
      assert.equal(await store.documents.delete("doc_gen"), true);
      await assert.rejects(store.chunks.commitGeneration(state("doc_gen", "g4", 1), [chunk("g4_0", 0)]), ConflictError);
      assert.deepEqual((await store.chunks.pendingGenerations()).filter((p) => p.generation === "g4").length, 1, "the refused commit left its pending row");
      await store.chunks.dropPending("g4");
    });

    test("chunks: two cleanups at once claim each abandoned generation once", async () => {
      const gone = { instance: "ins_gone", pid: 1, host: "elsewhere" };
      for (let i = 0; i < 6; i += 1)
        await store.chunks.beginGeneration({ documentId: "doc_any", strategy: "recursive", generation: `old_${i}`, vectorSpace: "v" }, gone, 0);
      const [a, b] = await Promise.all([store.chunks.claimAbandoned(currentOwner(), 1000, 10_000), other.chunks.claimAbandoned(currentOwner(), 1000, 10_000)]);
      const all = [...a, ...b].map((p) => p.generation).sort();
      assert.deepEqual(all, ["old_0", "old_1", "old_2", "old_3", "old_4", "old_5"]);
    });

    test("/v1 versions: concurrent uploads of one name through two replicas get 1..N, never twice", async () => {
      await store.tenants.createTenant({ id: "ten_v", name: "versions", createdAt: "2026-01-01T00:00:00.000Z" });
      const n = 16;
      const versions = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const through = i % 2 ? other : store;
          const job = { id: `ing_${i}`, tenantId: "ten_v", domain: "docs", filename: "a.pdf", createdAt: "2026-01-01T00:00:00.000Z" };
          await through.ingestion.insertJob(job, currentOwner());
          return through.ingestion.allocateSourceFile(
            { id: `sf_${i}`, tenantId: "ten_v", domain: "docs", filename: "a.pdf", contentHash: `h${i}`, objectPath: `o${i}`, createdAt: job.createdAt },
            job.id,
          );
        }),
      );
      assert.deepEqual(
        [...versions].sort((x, y) => x - y),
        Array.from({ length: n }, (_, i) => i + 1),
      );
      assert.equal(await store.ingestion.countSourceFiles("ten_v"), n);
      assert.equal(await store.ingestion.liveVersion("ten_v", "docs", "a.pdf"), 0, "nothing committed yet");
      assert.equal(await store.ingestion.commitSourceFile("sf_3", "ing_3", 5), true);
      const version3 = versions[3]!;
      assert.equal(await store.ingestion.liveVersion("ten_v", "docs", "a.pdf"), version3);
    });

    test("/v1 deadline and commit racing: exactly one wins, on every trial", async () => {
      await store.tenants.createTenant({ id: "ten_r", name: "race", createdAt: "2026-01-01T00:00:00.000Z" });
      for (let trial = 0; trial < 12; trial += 1) {
        const jobId = `race_${trial}`;
        const fileId = `race_file_${trial}`;
        await store.ingestion.insertJob(
          { id: jobId, tenantId: "ten_r", domain: "d", filename: `f${trial}`, createdAt: "2026-01-01T00:00:00.000Z" },
          currentOwner(),
        );
        await store.ingestion.allocateSourceFile(
          { id: fileId, tenantId: "ten_r", domain: "d", filename: `f${trial}`, contentHash: "h", objectPath: "o", createdAt: "2026-01-01T00:00:00.000Z" },
          jobId,
        );
        const commit = () => store.ingestion.commitSourceFile(fileId, jobId, 3);
        const deadline = () => other.ingestion.failJobUnlessCommitted(jobId, { errorCode: "timeout", error: "deadline passed" }, "2026-01-01T00:01:00.000Z");
        const [committed, failed] = trial % 2 ? await Promise.all([commit(), deadline()]) : (await Promise.all([deadline(), commit()])).reverse();
        assert.equal(Number(committed) + Number(failed), 1, `trial ${trial}: committed ${committed}, failed ${failed}`);
        const job = await store.ingestion.job("ten_r", jobId);
        assert.equal(job?.status, failed ? "failed" : "running");
        assert.equal(await store.ingestion.liveVersion("ten_r", "d", `f${trial}`), committed ? 1 : 0);
      }
    });

    test("/v1: jobs end once, flags are kept, live points are paged by file name and version", async () => {
      await store.tenants.createTenant({ id: "ten_p", name: "points", createdAt: "2026-01-01T00:00:00.000Z" });
      const files = [
        ["b.md", 4],
        ["a.md", 3],
        ["a.md", 2],
      ] as const;
      for (const [i, [filename, points]] of files.entries()) {
        const jobId = `pj_${i}`;
        await store.ingestion.insertJob({ id: jobId, tenantId: "ten_p", domain: "d", filename, createdAt: `2026-01-01T00:00:0${i}.000Z` }, currentOwner());
        const version = await store.ingestion.allocateSourceFile(
          { id: `pf_${i}`, tenantId: "ten_p", domain: "d", filename, contentHash: "h", objectPath: "o", createdAt: "2026-01-01T00:00:00.000Z" },
          jobId,
        );
        assert.equal(await store.ingestion.commitSourceFile(`pf_${i}`, jobId, points), true);
        await store.ingestion.markPublished("ten_p", "d", filename, version);
        assert.equal(
          await store.ingestion.completeJob(jobId, { chunksIndexed: points, pointsCreated: points, pointsSoftDeleted: 0 }, "2026-01-01T00:01:00.000Z"),
          true,
        );
      }
      assert.equal(
        await store.ingestion.failJob("pj_0", { errorCode: "x", error: "late" }, "2026-01-01T00:02:00.000Z"),
        false,
        "a completed job stays completed",
      );
      // Live: a.md's newest version (2 points, pf_2), then b.md (4 points): 6 in all.
      const page = await store.ingestion.livePointPage("ten_p", {}, 1, 3);
      assert.equal(page.total, 6);
      assert.deepEqual(page.slices, [
        { fileId: "pf_2", from: 1, to: 2 },
        { fileId: "pf_0", from: 0, to: 2 },
      ]);
      assert.deepEqual(
        (await store.ingestion.jobs("ten_p")).map((j) => j.id),
        ["pj_2", "pj_1", "pj_0"],
      );
      await store.ingestion.markPointsLeft("pj_1");
      await store.ingestion.markPublishPending("pj_2");
      assert.deepEqual(await store.ingestion.jobsWithPointsLeft(), [{ id: "pj_1", tenantId: "ten_p" }]);
      assert.deepEqual(await store.ingestion.jobsWithPublishPending(), [{ id: "pj_2", tenantId: "ten_p", domain: "d", filename: "a.md" }]);
      await store.ingestion.clearPointsLeft("pj_1");
      await store.ingestion.clearPublishPending("pj_2");
      assert.deepEqual(await store.ingestion.jobsWithPointsLeft(), []);
    });

    test("collections: members added through two processes at once keep distinct places; a name held by another is a conflict", async () => {
      const ids = Array.from({ length: 6 }, (_, i) => `col_doc_${i}`);
      for (const id of ids) await store.documents.insert(newDocument(id));
      const first = await store.collections.ensure("col_1", "handbooks", "2026-01-01T00:00:00.000Z");
      const again = await other.collections.ensure("col_2", "handbooks", "2026-01-01T00:00:00.000Z");
      assert.deepEqual(
        [first, again],
        [
          { id: "col_1", created: true },
          { id: "col_1", created: false },
        ],
      );
      await Promise.all([
        store.collections.addDocuments(
          "col_1",
          ids.slice(0, 3).map((id) => ({ id, filename: `${id}.md` })),
        ),
        other.collections.addDocuments(
          "col_1",
          ids.slice(3).map((id) => ({ id, filename: `${id}.md` })),
        ),
      ]);
      const found = await store.collections.find("handbooks");
      assert.equal(found?.documents.length, 6);
      assert.deepEqual(new Set(found?.documents.map((d) => d.id)), new Set(ids));
      await assert.rejects(store.collections.addDocuments("col_1", [{ id: "doc_old", filename: "col_doc_0.md" }]), ConflictError);
      assert.equal((await store.collections.find("col_1"))?.documents.length, 6, "nothing added by the refused call");
    });

    test("documents: what reading one warned of is kept with it, read back by the document and by a collection holding it", async () => {
      const warned = ["page 4 of w.pdf is glyph codes or control characters, not text: left out of the document (run OCR first for it)"];
      await store.documents.insert(newDocument("doc_warned", { warnings: warned }));
      await store.documents.insert(newDocument("doc_plain", { warnings: [] }));
      assert.deepEqual((await other.documents.get("doc_warned"))?.warnings, warned);
      assert.equal((await other.documents.get("doc_plain"))?.warnings, undefined, "no warning: none kept");
      await store.collections.ensure("col_warned", "warned", "2026-01-01T00:00:00.000Z");
      await store.collections.addDocuments("col_warned", [
        { id: "doc_plain", filename: "plain.md" },
        { id: "doc_warned", filename: "w.pdf" },
      ]);
      assert.deepEqual((await other.collections.find("warned"))?.documents, [
        { id: "doc_plain", filename: "plain.md" },
        { id: "doc_warned", filename: "w.pdf", warnings: warned },
      ]);
    });

    test("jobs: a terminal status is final; abandoned jobs of a silent owner are failed, a live owner's are not", async () => {
      const me = currentOwner();
      const silent = { instance: "ins_silent", pid: 1, host: "elsewhere" };
      await store.jobs.insert({ jobId: "job_mine", jobType: "bench", params: { a: 1 }, createdAt: "2026-01-01T00:00:00.000Z" }, me, 1000);
      await store.jobs.insert({ jobId: "job_silent", jobType: "bench", params: {}, createdAt: "2026-01-01T00:00:01.000Z" }, silent, 1000);
      await store.jobs.heartbeat(me, 4000);
      await store.jobs.markRunning("job_mine", "2026-01-01T00:00:02.000Z");
      assert.equal(await other.jobs.failAbandoned(currentOwner(), 5000, "its server is gone", "2026-01-01T00:01:00.000Z", 7000), 1);
      assert.equal((await store.jobs.get("job_silent"))?.status, "failed");
      assert.equal((await store.jobs.get("job_mine"))?.status, "running", "a live owner with a recent heartbeat keeps its job");
      assert.equal(await store.jobs.complete("job_mine", { ok: true }, "2026-01-01T00:02:00.000Z"), true);
      assert.equal(await store.jobs.fail("job_mine", "late", "2026-01-01T00:03:00.000Z"), false);
      assert.deepEqual((await store.jobs.get("job_mine"))?.result, { ok: true });
      const list = await store.jobs.list({ status: "failed" }, 0, 10);
      assert.deepEqual(
        list.items.map((j) => j.jobId),
        ["job_silent"],
      );
    });

    test("transaction: commits when the function resolves, rolls everything back when it throws", async () => {
      await store.transaction(async (tx) => {
        await tx.documents.insert(newDocument("doc_tx_ok"));
        await tx.queries.insert({
          queryId: "q_tx",
          documentId: "doc_tx_ok",
          strategy: "recursive",
          question: "?",
          answer: "!",
          retrievedChunks: [],
          latencyBreakdown: { retrieval: 1, generation: 2, total: 3 },
          tokenUsage: { prompt: 1, completion: 1 },
          generator: "extractive",
          createdAt: "2026-01-01T00:00:00.000Z",
        } as never);
      });
      assert.equal(await other.documents.exists("doc_tx_ok"), true);
      assert.equal((await other.queries.get("q_tx"))?.answer, "!");
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.documents.insert(newDocument("doc_tx_no"));
          await tx.tenants.createTenant({ id: "ten_tx", name: "tx", createdAt: "2026-01-01T00:00:00.000Z" });
          throw new Error("changed my mind");
        }),
        /changed my mind/,
      );
      assert.equal(await store.documents.exists("doc_tx_no"), false);
      assert.equal(await store.tenants.tenantByName("tx"), null);
    });

    test("tenants: keys, domains paged by name, a domain inserted twice is refused", async () => {
      await store.tenants.createTenant({ id: "ten_t", name: "acme", createdAt: "2026-01-01T00:00:00.000Z" });
      await store.tenants.createKey({
        id: "key_1",
        tenantId: "ten_t",
        salt: "s",
        hash: "h",
        scopes: ["read"],
        createdAt: "2026-01-01T00:00:00.000Z",
        revokedAt: null,
      });
      assert.equal(await store.tenants.revokeKey("key_1", "2026-01-02T00:00:00.000Z"), true);
      assert.equal(await store.tenants.revokeKey("key_1", "2026-01-03T00:00:00.000Z"), false);
      assert.equal((await store.tenants.key("key_1"))?.revokedAt, "2026-01-02T00:00:00.000Z");
      const domain = (name: string) => ({
        tenantId: "ten_t",
        domain: name,
        displayName: name,
        status: "active" as const,
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      });
      for (const name of ["beta", "Alpha", "alpha"]) assert.equal(await store.tenants.insertDomain(domain(name)), true);
      assert.equal(await other.tenants.insertDomain(domain("beta")), false);
      const page = await store.tenants.listDomains("ten_t", 0, 2);
      assert.deepEqual(
        page.items.map((d) => d.domain),
        ["Alpha", "alpha"],
      );
      assert.equal(page.total, 3);
      const updated = await store.tenants.updateDomain("ten_t", "beta", { status: "disabled" }, "2026-01-05T00:00:00.000Z");
      assert.deepEqual([updated?.displayName, updated?.status, updated?.updatedAt], ["beta", "disabled", "2026-01-05T00:00:00.000Z"]);
      assert.equal(await store.tenants.updateDomain("ten_t", "missing", { status: "disabled" }, "2026-01-05T00:00:00.000Z"), null);
    });

    test("caches: vectors and completions read back exactly, by cache key", async () => {
      const owner = { key: "hash@1", name: "hash" };
      const vector = new Float32Array([0.25, -1.5, 3.125]);
      await store.embeddingCache.putMany(owner, [["t1", vector]]);
      const got = await other.embeddingCache.getMany(owner, ["t1", "t2"]);
      assert.deepEqual([...got.keys()], ["t1"]);
      assert.deepEqual([...got.get("t1")!], [...vector]);
      assert.equal((await store.embeddingCache.getMany({ key: "hash@2", name: "hash" }, ["t1"])).size, 0);
      await store.completionCache.put({ key: "m@1", name: "m" }, "p1", { completion: "yes", promptTokens: 4, completionTokens: 1 });
      assert.deepEqual(await other.completionCache.get({ key: "m@1", name: "m" }, "p1"), { completion: "yes", promptTokens: 4, completionTokens: 1 });
    });

    test("a value with a NUL character: a lookup by it finds nothing, stored text reads back at the same length", async () => {
      assert.equal(await store.jobs.get("job_\u0000\n\u202e"), null);
      assert.equal(await store.documents.exists("doc_\u0000"), false);
      await store.documents.insert(newDocument("doc_nul", { text: "a\u0000b" }));
      assert.equal((await store.documents.get("doc_nul"))?.text.length, 3);
    });

    test("the store's id is made once and read the same by every process", async () => {
      const id = await store.dataDirectoryId();
      assert.match(id, /^dd_/);
      assert.equal(await other.dataDirectoryId(), id);
    });
  });
}
