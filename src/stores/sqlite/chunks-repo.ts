import type { Chunk } from "../../domain/types.js";
import { ConflictError } from "../../errors.js";
import { ownerGone, type Owner } from "../owner.js";
import type { Db } from "./database.js";
import { chunkFromRow, pendingGenerationFromRow, strategyStateFromRow, type ChunkRow, type PendingGenerationRow, type StrategyStateRow } from "../rows.js";
import type { GenerationRef, PendingGeneration, StrategyState } from "../../domain/ports/chunks.js";
export type { GenerationRef, PendingGeneration, StrategyState };

/**
 * Rows of `chunks`, `document_strategies` and `pending_generations`; see ../README.md for the
 * write order. Writes run in immediate transactions: another process may be writing too, and a
 * read-then-write transaction that has to upgrade its lock fails at once instead of waiting.
 */
export class SqliteChunksRepo {
  constructor(private readonly db: Db) {}

  state(documentId: string, strategy: string): StrategyState | null {
    const row = this.db.prepare(`SELECT * FROM document_strategies WHERE document_id = ? AND strategy = ?`).get(documentId, strategy) as
      StrategyStateRow | undefined;
    return row ? strategyStateFromRow(row) : null;
  }

  /** Every (document, strategy, generation) that is current. */
  currentGenerations(): GenerationRef[] {
    return (this.db.prepare(`SELECT document_id, strategy, generation, vector_table FROM document_strategies`).all() as Array<Record<string, string>>).map(
      (r) => ({ documentId: r.document_id!, strategy: r.strategy!, generation: r.generation!, vectorSpace: r.vector_table! }),
    );
  }

  /** Generations whose vectors are being written by some process, not committed yet. */
  pendingGenerations(): PendingGeneration[] {
    return (this.db.prepare(`SELECT * FROM pending_generations`).all() as PendingGenerationRow[]).map(pendingGenerationFromRow);
  }

  /** Step 1 of the write order: records the generation as pending before any of its vectors is written. */
  beginGeneration(ref: GenerationRef, owner: Owner, nowMs = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO pending_generations (generation, document_id, strategy, vector_table, owner_instance, owner_pid, owner_host, started_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(ref.generation, ref.documentId, ref.strategy, ref.vectorSpace, owner.instance, owner.pid, owner.host, nowMs);
  }

  /** A pending generation that will not be committed: its vectors are removed (or about to be). */
  dropPending(generation: string): void {
    this.db.prepare(`DELETE FROM pending_generations WHERE generation = ?`).run(generation);
  }

  /**
   * Claims the pending generations that are provably abandoned: the owner's process is gone, or
   * the generation is older than `maxAgeMs`. Their rows are deleted here, before the caller
   * deletes their vectors, so an owner that was merely slow finds its row missing and refuses
   * to commit (commitGeneration) instead of committing chunks whose vectors were removed.
   */
  claimAbandoned(me: Owner, maxAgeMs: number, nowMs = Date.now()): PendingGeneration[] {
    return this.db
      .transaction(() => {
        const abandoned = this.pendingGenerations().filter(
          (p) => p.owner.instance !== me.instance && (ownerGone(p.owner, me) || nowMs - p.startedAtMs > maxAgeMs),
        );
        for (const p of abandoned) this.dropPending(p.generation);
        return abandoned;
      })
      .immediate();
  }

  /**
   * Makes `chunks` the current generation of (document, strategy) in one transaction and
   * removes the rows of the generation it replaces. Returns the replaced state, if any (its
   * vectors are the caller's to delete). Fails, changing nothing, when the generation is no longer pending (cleanup judged it
   * abandoned and removed its vectors).
   */
  commitGeneration(state: StrategyState, chunks: Chunk[]): StrategyState | null {
    const insert = this.db.prepare(
      `INSERT INTO chunks (id, document_id, strategy, generation, position, role, parent_id, text, context, start_offset, end_offset, token_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db
      .transaction(() => {
        const claimed = this.db.prepare(`DELETE FROM pending_generations WHERE generation = ?`).run(state.generation).changes;
        if (claimed === 0) throw new ConflictError(`generation ${state.generation} was reclaimed by cleanup before it was committed; process again`);
        if (!this.db.prepare(`SELECT 1 FROM documents WHERE id = ?`).get(state.documentId))
          throw new ConflictError(`document ${state.documentId} was deleted while it was being processed`);
        const previous = this.state(state.documentId, state.strategy);
        for (const c of chunks) {
          insert.run(c.id, state.documentId, state.strategy, state.generation, c.position, c.role, c.parentId, c.text, c.context, c.start, c.end, c.tokenCount);
        }
        this.db
          .prepare(
            `INSERT INTO document_strategies (document_id, strategy, generation, options_json, embedder, vector_table, retrieval, chunk_count, processed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (document_id, strategy) DO UPDATE SET generation = excluded.generation, options_json = excluded.options_json,
             embedder = excluded.embedder, vector_table = excluded.vector_table, retrieval = excluded.retrieval,
             chunk_count = excluded.chunk_count, processed_at = excluded.processed_at`,
          )
          .run(
            state.documentId,
            state.strategy,
            state.generation,
            JSON.stringify(state.options),
            state.embedder,
            state.vectorSpace,
            state.retrieval,
            state.chunkCount,
            state.processedAt,
          );
        if (previous && previous.generation !== state.generation) {
          this.db
            .prepare(`DELETE FROM chunks WHERE document_id = ? AND strategy = ? AND generation = ?`)
            .run(state.documentId, state.strategy, previous.generation);
        }
        return previous;
      })
      .immediate();
  }

  /**
   * Forgets a strategy's committed state (doctor --repair of a strategy whose vectors are
   * missing): it then counts as not processed, and the next process or bench indexes it again.
   */
  forgetStrategy(documentId: string, strategy: string): void {
    this.db
      .transaction(() => {
        this.db.prepare(`DELETE FROM chunks WHERE document_id = ? AND strategy = ?`).run(documentId, strategy);
        this.db.prepare(`DELETE FROM document_strategies WHERE document_id = ? AND strategy = ?`).run(documentId, strategy);
      })
      .immediate();
  }

  /** The searchable chunk ids of every current generation, read in one snapshot (the doctor's view). */
  committedChunks(): Array<GenerationRef & { chunkIds: string[] }> {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT c.id, c.document_id, c.strategy, c.generation, s.vector_table FROM chunks c JOIN document_strategies s
             ON s.document_id = c.document_id AND s.strategy = c.strategy AND s.generation = c.generation
           WHERE c.role = 'chunk'`,
        )
        .all() as Array<Record<string, string>>;
      const byGeneration = new Map<string, GenerationRef & { chunkIds: string[] }>();
      for (const ref of this.currentGenerations()) byGeneration.set(ref.generation, { ...ref, chunkIds: [] });
      for (const r of rows) byGeneration.get(r.generation!)?.chunkIds.push(r.id!);
      return [...byGeneration.values()];
    })();
  }

  /** The current chunks of a strategy, in position order (parents included). */
  current(documentId: string, strategy: string): Chunk[] {
    return (
      this.db
        .prepare(
          `SELECT c.* FROM chunks c JOIN document_strategies s
             ON s.document_id = c.document_id AND s.strategy = c.strategy AND s.generation = c.generation
           WHERE c.document_id = ? AND c.strategy = ? ORDER BY c.position`,
        )
        .all(documentId, strategy) as ChunkRow[]
    ).map(chunkFromRow);
  }

  /** Chunks by id, each with the document it belongs to (a collection's search spans several). */
  byIds(ids: string[]): Map<string, Chunk & { documentId: string }> {
    const out = new Map<string, Chunk & { documentId: string }>();
    const get = this.db.prepare(`SELECT * FROM chunks WHERE id = ?`);
    for (const id of new Set(ids)) {
      const row = get.get(id) as (ChunkRow & { document_id: string }) | undefined;
      if (row) out.set(id, { ...chunkFromRow(row), documentId: row.document_id });
    }
    return out;
  }
}
