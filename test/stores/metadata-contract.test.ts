import { test } from "node:test";
import assert from "node:assert/strict";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { METADATA_STORES } from "../helpers/metadata-stores.js";

/**
 * What every metadata store adapter guarantees, run against each (METADATA_STORES): the
 * invariants services once got from synchronous calls on one shared connection.
 */

const owner = { instance: "ins_contract", pid: process.pid, host: "contract-host" };
const at = "2026-01-01T00:00:00.000Z";
/** Lets every other async chain run a step: what a transaction's awaits allow. */
const yieldTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

async function tenantNames(store: MetadataStore): Promise<string[]> {
  return (await store.tenants.listTenants()).map((t) => t.name).sort();
}

/** A tenant with an active domain and a running ingestion job whose version is allocated, not committed. */
async function allocatedVersion(store: MetadataStore, suffix: string) {
  const tenantId = `ten_${suffix}`;
  await store.tenants.createTenant({ id: tenantId, name: `tenant-${suffix}`, createdAt: at });
  await store.tenants.insertDomain({ tenantId, domain: "d", displayName: "D", status: "active", createdAt: at, updatedAt: at });
  const jobId = `ing_${suffix}`;
  await store.ingestion.insertJob({ id: jobId, tenantId, domain: "d", filename: "f.docx", createdAt: at }, owner);
  const fileId = `file_${suffix}`;
  await store.ingestion.allocateSourceFile({ id: fileId, tenantId, domain: "d", filename: "f.docx", contentHash: "h", objectPath: "/x", createdAt: at }, jobId);
  return { tenantId, jobId, fileId };
}

const timedOut = { errorCode: "ingestion_timeout", error: "deadline" };

for (const { name, open } of METADATA_STORES) {
  test(`${name}: deleting an uncommitted version says whether it deleted it, found it committed, or found it already gone`, async () => {
    const { store, cleanup } = await open();
    try {
      const uncommitted = await allocatedVersion(store, "del1");
      assert.equal(await store.ingestion.deleteSourceFile(uncommitted.fileId), "deleted");
      assert.equal(await store.ingestion.deleteSourceFile(uncommitted.fileId), "gone");
      const committed = await allocatedVersion(store, "del2");
      assert.equal(await store.ingestion.commitSourceFile(committed.fileId, committed.jobId, 3), true);
      assert.equal(await store.ingestion.deleteSourceFile(committed.fileId), "committed");
      assert.equal(await store.ingestion.countSourceFiles(committed.tenantId), 1, "a committed version stays");
    } finally {
      await cleanup();
    }
  });

  test(`${name}: two concurrent transactions and a plain write between them: the throwing one leaves nothing, the others all their rows`, async () => {
    const { store, cleanup } = await open();
    try {
      // The failing transaction opens first and awaits mid-way: a write from another chain issued
      // meanwhile must not land inside it (it would be rolled back with it).
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const failing = store.transaction(async (tx) => {
        await tx.tenants.createTenant({ id: "ten_b1", name: "b1", createdAt: at });
        opened();
        await yieldTurn();
        await tx.tenants.createTenant({ id: "ten_b2", name: "b2", createdAt: at });
        throw new Error("changed my mind");
      });
      await open;
      // Issued while the failing transaction is open, and the second transaction after it.
      const plain = store.tenants.createTenant({ id: "ten_p", name: "plain", createdAt: at });
      const committing = store.transaction(async (tx) => {
        await tx.tenants.createTenant({ id: "ten_a1", name: "a1", createdAt: at });
        await yieldTurn();
        await tx.tenants.createTenant({ id: "ten_a2", name: "a2", createdAt: at });
        return "done";
      });
      const [failed, written, committed] = await Promise.allSettled([failing, plain, committing]);
      assert.equal(failed.status === "rejected" && (failed.reason as Error).message, "changed my mind", "the callback's error is rethrown");
      assert.equal(written.status, "fulfilled");
      assert.deepEqual(committed, { status: "fulfilled", value: "done" });
      assert.deepEqual(await tenantNames(store), ["a1", "a2", "plain"]);
    } finally {
      await cleanup();
    }
  });

  test(`${name}: a transaction spanning two repositories commits or rolls back both`, async () => {
    const { store, cleanup } = await open();
    try {
      await store.tenants.createTenant({ id: "ten_1", name: "acme", createdAt: at });
      const domain = { tenantId: "ten_1", domain: "d", displayName: "D", status: "active" as const, createdAt: at, updatedAt: at };
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.tenants.insertDomain(domain);
          await tx.ingestion.insertJob({ id: "ing_1", tenantId: "ten_1", domain: "d", filename: "f.docx", createdAt: at }, owner);
          throw new Error("refused");
        }),
        /refused/,
      );
      assert.equal(await store.tenants.domain("ten_1", "d"), null);
      assert.equal(await store.ingestion.job("ten_1", "ing_1"), null);
      await store.transaction(async (tx) => {
        await tx.tenants.insertDomain(domain);
        await tx.ingestion.insertJob({ id: "ing_1", tenantId: "ten_1", domain: "d", filename: "f.docx", createdAt: at }, owner);
      });
      assert.equal((await store.tenants.domain("ten_1", "d"))?.status, "active");
      assert.equal((await store.ingestion.job("ten_1", "ing_1"))?.status, "running");
    } finally {
      await cleanup();
    }
  });

  test(`${name}: a version committed before its deadline stays committed; a deadline recorded first refuses the commit`, async () => {
    const { store, cleanup } = await open();
    try {
      const early = await allocatedVersion(store, "early");
      assert.equal(await store.ingestion.commitSourceFile(early.fileId, early.jobId, 3), true);
      assert.equal(await store.ingestion.failJobUnlessCommitted(early.jobId, timedOut, at), false, "the deadline came after the commit");
      assert.equal((await store.ingestion.job(early.tenantId, early.jobId))?.status, "running");
      assert.equal(await store.ingestion.liveVersion(early.tenantId, "d", "f.docx"), 1);

      const late = await allocatedVersion(store, "late");
      assert.equal(await store.ingestion.failJobUnlessCommitted(late.jobId, timedOut, at), true);
      assert.equal(await store.ingestion.commitSourceFile(late.fileId, late.jobId, 3), false, "the deadline came first");
      assert.deepEqual(
        [(await store.ingestion.job(late.tenantId, late.jobId))?.status, await store.ingestion.liveVersion(late.tenantId, "d", "f.docx")],
        ["failed", 0],
      );

      // Before a version is even allocated, the deadline fails the job.
      await store.tenants.createTenant({ id: "ten_none", name: "none", createdAt: at });
      await store.ingestion.insertJob({ id: "ing_none", tenantId: "ten_none", domain: "d", filename: "f.docx", createdAt: at }, owner);
      assert.equal(await store.ingestion.failJobUnlessCommitted("ing_none", timedOut, at), true);
    } finally {
      await cleanup();
    }
  });

  test(`${name}: a commit and a deadline issued at once: exactly one wins, and the rows agree with it`, async () => {
    const { store, cleanup } = await open();
    try {
      for (let i = 0; i < 20; i++) {
        const v = await allocatedVersion(store, `race${i}`);
        // Alternate which is issued first: the outcome must be consistent either way.
        const [committed, deadline] =
          i % 2 === 0
            ? await Promise.all([store.ingestion.commitSourceFile(v.fileId, v.jobId, 1), store.ingestion.failJobUnlessCommitted(v.jobId, timedOut, at)])
            : await Promise.all(
                [store.ingestion.commitSourceFile(v.fileId, v.jobId, 1), store.ingestion.failJobUnlessCommitted(v.jobId, timedOut, at)].reverse(),
              ).then(([d, c]) => [c!, d!]);
        assert.notEqual(committed, deadline, `round ${i}: exactly one of commit and deadline wins`);
        const job = await store.ingestion.job(v.tenantId, v.jobId);
        const live = await store.ingestion.liveVersion(v.tenantId, "d", "f.docx");
        assert.deepEqual([job?.status, live], committed ? ["running", 1] : ["failed", 0], `round ${i}`);
      }
    } finally {
      await cleanup();
    }
  });
}
