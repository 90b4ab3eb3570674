import { ownerGone } from "../stores/owner.js";
import type { ChunksRepo, GenerationRef } from "../domain/ports/chunks.js";
import type { Owner } from "../domain/ports/owner.js";
import type { VectorStore } from "../stores/vectors/vector-store.js";
import { ABANDONED_GENERATION_MS, sweepAbandoned } from "./generations.js";

/** One inconsistency between committed chunks (SQLite) and stored vectors (the vector store). */
export interface DoctorFinding {
  kind: "missing_vectors" | "orphan_vectors" | "abandoned_pending";
  documentId: string;
  strategy: string;
  generation: string;
  vectorSpace: string;
  /** Chunks without a vector, vector rows without a committed chunk, or 0 for a bare pending row. */
  count: number;
  message: string;
}

export interface DoctorReport {
  consistent: boolean;
  checked: { strategies: number; chunks: number; vectors: number };
  /** Generations another live process is writing right now: not a fault. */
  inFlight: number;
  findings: DoctorFinding[];
  /** What --repair did, in words. */
  repaired: string[];
}

export interface DoctorDeps {
  chunks: ChunksRepo;
  /** The vector store as it is, not yet cleaned up by opening it. */
  vectors(): Promise<VectorStore>;
  owner: Owner;
}

const key = (r: { vectorSpace: string; generation: string }) => `${r.vectorSpace}\u0000${r.generation}`;

async function examine(deps: DoctorDeps): Promise<Omit<DoctorReport, "repaired">> {
  const store = await deps.vectors();
  // Which generations were current before the vectors are listed, and after: another process
  // may commit a new generation (its vectors written just after the listing) and delete the one
  // it replaced (its vectors listed just before) meanwhile. A generation whose state changed
  // between the two reads is in flight, not a fault, and never repaired.
  const currentBefore = new Set((await deps.chunks.currentGenerations()).map(key));
  const entries = await store.inventory();
  // Pending before committed, as in cleanup: a generation that commits in between is then committed, not orphaned.
  const pending = new Map((await deps.chunks.pendingGenerations()).map((p) => [key(p), p]));
  const committedNow = await deps.chunks.committedChunks();
  const currentAfter = new Set(committedNow.map(key));
  const changed = (k: string) => currentBefore.has(k) !== currentAfter.has(k);
  const committed = committedNow.filter((g) => !changed(key(g)));
  const stored = new Map<string, { ref: GenerationRef; chunkIds: Set<string> }>();
  for (const e of entries) {
    const k = key(e);
    if (!stored.has(k)) stored.set(k, { ref: e, chunkIds: new Set() });
    stored.get(k)!.chunkIds.add(e.chunkId);
  }
  const findings: DoctorFinding[] = [];
  const at = (g: GenerationRef) => `document ${g.documentId}, strategy ${g.strategy}, generation ${g.generation}`;
  for (const g of committed) {
    const vectors = stored.get(key(g))?.chunkIds ?? new Set<string>();
    stored.delete(key(g));
    const missing = g.chunkIds.filter((id) => !vectors.has(id)).length;
    const chunkIds = new Set(g.chunkIds);
    const stray = [...vectors].filter((id) => !chunkIds.has(id)).length;
    if (missing > 0)
      findings.push({ kind: "missing_vectors", ...g, count: missing, message: `${at(g)}: ${missing} of ${g.chunkIds.length} committed chunks have no vector` });
    if (stray > 0) findings.push({ kind: "orphan_vectors", ...g, count: stray, message: `${at(g)}: ${stray} vectors belong to no committed chunk` });
  }
  let inFlight = 0;
  const now = Date.now();
  const live = (p: { owner: { pid: number; host: string }; startedAtMs: number }) =>
    !ownerGone(p.owner, deps.owner) && now - p.startedAtMs <= ABANDONED_GENERATION_MS;
  for (const { ref, chunkIds } of stored.values()) {
    const p = pending.get(key(ref));
    if ((p && live(p)) || changed(key(ref))) inFlight++;
    else
      findings.push({
        kind: "orphan_vectors",
        ...ref,
        count: chunkIds.size,
        message: `${at(ref)}: ${chunkIds.size} vectors of a generation that is not committed${p ? " (its writer is gone)" : ""}`,
      });
  }
  for (const [k, p] of pending) {
    if (!stored.has(k) && !live(p))
      findings.push({
        kind: "abandoned_pending",
        ...p,
        count: 0,
        message: `${at(p)}: pending since ${new Date(p.startedAtMs).toISOString()}, its writer is gone`,
      });
  }
  return {
    consistent: findings.length === 0,
    checked: { strategies: committed.length, chunks: committed.reduce((n, g) => n + g.chunkIds.length, 0), vectors: entries.length },
    inFlight,
    findings,
  };
}

/**
 * `chunkeval doctor`: checks that every committed chunk has its vector and every vector a
 * committed chunk (generations another live process is writing are in flight, not faults).
 * With `repair`, abandoned generations' vectors are removed and each strategy with missing or
 * stray vectors is forgotten, so the next `process` or `bench` indexes it again; the report
 * then describes the store after the repair.
 */
export async function runDoctor(deps: DoctorDeps, options: { repair?: boolean } = {}): Promise<DoctorReport> {
  const before = await examine(deps);
  if (!options.repair || before.consistent) return { ...before, repaired: [] };
  const store = await deps.vectors();
  const repaired: string[] = [];
  const broken = new Map<string, DoctorFinding>();
  for (const f of before.findings) {
    if ((await deps.chunks.state(f.documentId, f.strategy))?.generation === f.generation) broken.set(`${f.documentId}\u0000${f.strategy}`, f);
  }
  for (const f of broken.values()) {
    await deps.chunks.forgetStrategy(f.documentId, f.strategy);
    await store.deleteGeneration(f.vectorSpace, f);
    repaired.push(
      `document ${f.documentId}, strategy ${f.strategy}: marked for re-processing (run: chunkeval process ${f.documentId} --strategies ${f.strategy})`,
    );
  }
  const removed = await sweepAbandoned(deps.chunks, store, deps.owner);
  if (removed > 0) repaired.push(`removed the vectors of ${removed} abandoned generation(s)`);
  return { ...(await examine(deps)), repaired };
}
