import { ownerGone } from "../../stores/owner.js";
import type { ChunksRepo, GenerationRef } from "../../domain/ports/chunks.js";
import type { Owner } from "../../domain/ports/owner.js";
import type { VectorStore } from "../../stores/vectors/vector-store.js";
import { ABANDONED_GENERATION_MS, sweepAbandoned } from "./generations.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { DocumentsRepo } from "../../domain/ports/documents.js";
import type { IngestionRepo } from "../../domain/ports/ingestion.js";
import { basename } from "node:path";

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

/** An original no document or /v1 version row names: left by a process killed mid-upload (or mid-delete). */
export interface OrphanOriginal {
  location: string;
  ageSeconds: number;
}

/**
 * How old an original with no row must be before doctor calls it an orphan: an upload stores its
 * original before it writes its row (parsing comes between), so a younger one may be in flight.
 */
export const ORPHAN_ORIGINAL_GRACE_MS = 60 * 60 * 1000;

export interface DoctorReport {
  consistent: boolean;
  checked: { strategies: number; chunks: number; vectors: number; originals: number };
  /** Generations another live process is writing right now, and originals younger than the grace period: not a fault. */
  inFlight: number;
  findings: DoctorFinding[];
  /** Originals (files on disk, rows of PostgreSQL's originals table) no row names, older than the grace period. */
  orphanOriginals: OrphanOriginal[];
  /** Set when no stored original matches any row (a moved data directory, another database): then none is judged. */
  originalsMismatch?: string;
  /** What --repair did, in words. */
  repaired: string[];
}

export interface DoctorDeps {
  chunks: ChunksRepo;
  /** The vector store as it is, not yet cleaned up by opening it. */
  vectors(): Promise<VectorStore>;
  owner: Owner;
  originals: OriginalsStore;
  documents: Pick<DocumentsRepo, "allFilePaths">;
  ingestion: Pick<IngestionRepo, "allObjectPaths">;
}

/**
 * What matches a stored original to the row that names it: its file name (`doc_….docx`,
 * `file_….pdf`, unique by their random ids), not the whole location, so that a data directory
 * moved or mounted elsewhere (rows keep absolute paths) still finds its rows.
 */
const originalKey = (location: string) => basename(location);
/** Every location a row names: the documents' uploads and the /v1 versions' files. */
const namedLocations = async (deps: DoctorDeps) => [...(await deps.documents.allFilePaths()), ...(await deps.ingestion.allObjectPaths())];
/** Only files chunkeval names are judged: anything else in those folders is not doctor's to remove. */
const GENERATED_ORIGINAL = /^(doc|file)_[A-Za-z0-9]+(\.[A-Za-z0-9]+)?(\.partial-[0-9a-f]+)?$/;

/** Originals no row names: those older than the grace period are orphans, the others may be an upload in flight. */
async function unnamedOriginals(
  deps: DoctorDeps,
  now: number,
): Promise<{ orphans: OrphanOriginal[]; young: number; checked: number; namedStored: number; rows: number }> {
  // Stored first, rows read after: an upload that writes its row in between is then named.
  const stored = (await deps.originals.list()).filter((o) => GENERATED_ORIGINAL.test(originalKey(o.location)));
  const rows = await namedLocations(deps);
  const named = new Set(rows.map(originalKey));
  const unnamed = stored.filter((o) => !named.has(originalKey(o.location)));
  const orphans = unnamed
    .filter((o) => now - o.storedAtMs > ORPHAN_ORIGINAL_GRACE_MS)
    .map((o) => ({ location: o.location, ageSeconds: Math.round((now - o.storedAtMs) / 1000) }));
  return { orphans, young: unnamed.length - orphans.length, checked: stored.length, namedStored: stored.length - unnamed.length, rows: rows.length };
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
  const originals = await unnamedOriginals(deps, now);
  // Rows name originals but none of those stored matches any: the wrong folder or database, not
  // a store full of orphans; nothing is called an orphan (and so nothing removed).
  const mismatched = originals.rows > 0 && originals.namedStored === 0 && originals.checked > 0;
  return {
    consistent: findings.length === 0 && originals.orphans.length === 0 && !mismatched,
    checked: {
      strategies: committed.length,
      chunks: committed.reduce((n, g) => n + g.chunkIds.length, 0),
      vectors: entries.length,
      originals: originals.checked,
    },
    inFlight: inFlight + originals.young,
    findings,
    orphanOriginals: mismatched ? [] : originals.orphans,
    ...(mismatched
      ? {
          originalsMismatch:
            `none of the ${originals.checked} stored originals is named by the ${originals.rows} rows that name originals: ` +
            "is this the data directory (or database) those rows were written with? Nothing is removed",
        }
      : {}),
  };
}

/**
 * `chunkeval doctor`: checks that every committed chunk has its vector and every vector a
 * committed chunk (generations another live process is writing are in flight, not faults).
 * It also looks for originals no row names (a process killed mid-upload). With `repair`,
 * abandoned generations' vectors are removed, each strategy with missing or stray vectors is
 * forgotten, so the next `process` or `bench` indexes it again, and orphan originals older than
 * the grace period are removed (each checked again first: a row may name it meanwhile); the
 * report then describes the store after the repair.
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
  if (before.orphanOriginals.length > 0) {
    const named = new Set((await namedLocations(deps)).map(originalKey));
    const doomed = before.orphanOriginals.filter((o) => !named.has(originalKey(o.location)));
    for (const o of doomed) await deps.originals.remove(o.location);
    if (doomed.length > 0) repaired.push(`removed ${doomed.length} original(s) no row named: ${doomed.map((o) => o.location).join(", ")}`);
  }
  return { ...(await examine(deps)), repaired };
}
