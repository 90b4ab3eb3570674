import type { Chunk } from "../../domain/types.js";
import type { ChunksRepo, GenerationRef, PendingGeneration, StrategyState } from "../../domain/ports/chunks.js";
import { ConflictError } from "../../errors.js";
import { ownerGone, type Owner } from "../owner.js";
import type { Executor } from "./executor.js";
import {
  chunkFromRow,
  pendingGenerationFromRow,
  strategyStateFromRow,
  type ChunkRow as StoredChunkRow,
  type PendingGenerationRow,
  type StrategyStateRow,
} from "../rows.js";

type ChunkRow = StoredChunkRow & { document_id: string };

/**
 * Rows of `chunks`, `document_strategies` and `pending_generations`; see ../README.md for the
 * write order. A commit locks its document's row, so commits of one document (and its deletion)
 * take turns, as SQLite's single writer makes them.
 */
export class PostgresChunksRepo implements ChunksRepo {
  constructor(private readonly db: Executor) {}

  async state(documentId: string, strategy: string): Promise<StrategyState | null> {
    const { rows } = await this.db.query<StrategyStateRow>(`SELECT * FROM document_strategies WHERE document_id = $1 AND strategy = $2`, [
      documentId,
      strategy,
    ]);
    return rows[0] ? strategyStateFromRow(rows[0]) : null;
  }

  async currentGenerations(): Promise<GenerationRef[]> {
    const { rows } = await this.db.query<StrategyStateRow>(`SELECT document_id, strategy, generation, vector_table FROM document_strategies`);
    return rows.map((r) => ({ documentId: r.document_id, strategy: r.strategy, generation: r.generation, vectorSpace: r.vector_table }));
  }

  async pendingGenerations(): Promise<PendingGeneration[]> {
    return (await this.db.query<PendingGenerationRow>(`SELECT * FROM pending_generations`)).rows.map(pendingGenerationFromRow);
  }

  async beginGeneration(ref: GenerationRef, owner: Owner, nowMs = Date.now()): Promise<void> {
    await this.db.query(
      `INSERT INTO pending_generations (generation, document_id, strategy, vector_table, owner_instance, owner_pid, owner_host, started_at_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [ref.generation, ref.documentId, ref.strategy, ref.vectorSpace, owner.instance, owner.pid, owner.host, nowMs],
    );
  }

  async dropPending(generation: string): Promise<void> {
    await this.db.query(`DELETE FROM pending_generations WHERE generation = $1`, [generation]);
  }

  /**
   * The rows are locked while judged and deleted before the caller deletes their vectors: a
   * cleanup in another process waits and then finds them gone, and an owner that was merely
   * slow finds its row missing and refuses to commit.
   */
  claimAbandoned(me: Owner, maxAgeMs: number, nowMs = Date.now()): Promise<PendingGeneration[]> {
    return this.db.atomic(async (tx) => {
      const pending = (await tx.query<PendingGenerationRow>(`SELECT * FROM pending_generations FOR UPDATE`)).rows.map(pendingGenerationFromRow);
      const abandoned = pending.filter((p) => p.owner.instance !== me.instance && (ownerGone(p.owner, me) || nowMs - p.startedAtMs > maxAgeMs));
      if (abandoned.length === 0) return [];
      const { rows } = await tx.query<{ generation: string }>(`DELETE FROM pending_generations WHERE generation = ANY($1::text[]) RETURNING generation`, [
        abandoned.map((p) => p.generation),
      ]);
      const claimed = new Set(rows.map((r) => r.generation));
      return abandoned.filter((p) => claimed.has(p.generation));
    });
  }

  commitGeneration(state: StrategyState, chunks: Chunk[]): Promise<StrategyState | null> {
    return this.db.atomic(async (tx) => {
      const claimed = await tx.query(`DELETE FROM pending_generations WHERE generation = $1`, [state.generation]);
      if (claimed.rowCount === 0) throw new ConflictError(`generation ${state.generation} was reclaimed by cleanup before it was committed; process again`);
      if ((await tx.query(`SELECT 1 FROM documents WHERE id = $1 FOR UPDATE`, [state.documentId])).rowCount === 0)
        throw new ConflictError(`document ${state.documentId} was deleted while it was being processed`);
      const previous = await new PostgresChunksRepo(tx).state(state.documentId, state.strategy);
      await tx.query(
        `INSERT INTO chunks (id, document_id, strategy, generation, position, role, parent_id, text, context, start_offset, end_offset, token_count)
         SELECT u.id, $1, $2, $3, u.position, u.role, u.parent_id, u.text, u.context, u.start_offset, u.end_offset, u.token_count
         FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::int[])
           AS u(id, position, role, parent_id, text, context, start_offset, end_offset, token_count)`,
        [
          state.documentId,
          state.strategy,
          state.generation,
          chunks.map((c) => c.id),
          chunks.map((c) => c.position),
          chunks.map((c) => c.role),
          chunks.map((c) => c.parentId),
          chunks.map((c) => c.text),
          chunks.map((c) => c.context),
          chunks.map((c) => c.start),
          chunks.map((c) => c.end),
          chunks.map((c) => c.tokenCount),
        ],
      );
      await tx.query(
        `INSERT INTO document_strategies (document_id, strategy, generation, options_json, embedder, vector_table, retrieval, chunk_count, processed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (document_id, strategy) DO UPDATE SET generation = excluded.generation, options_json = excluded.options_json,
           embedder = excluded.embedder, vector_table = excluded.vector_table, retrieval = excluded.retrieval,
           chunk_count = excluded.chunk_count, processed_at = excluded.processed_at`,
        [
          state.documentId,
          state.strategy,
          state.generation,
          JSON.stringify(state.options),
          state.embedder,
          state.vectorSpace,
          state.retrieval,
          state.chunkCount,
          state.processedAt,
        ],
      );
      if (previous && previous.generation !== state.generation) {
        await tx.query(`DELETE FROM chunks WHERE document_id = $1 AND strategy = $2 AND generation = $3`, [
          state.documentId,
          state.strategy,
          previous.generation,
        ]);
      }
      return previous;
    });
  }

  forgetStrategy(documentId: string, strategy: string): Promise<void> {
    return this.db.atomic(async (tx) => {
      await tx.query(`DELETE FROM chunks WHERE document_id = $1 AND strategy = $2`, [documentId, strategy]);
      await tx.query(`DELETE FROM document_strategies WHERE document_id = $1 AND strategy = $2`, [documentId, strategy]);
    });
  }

  /** One statement, so one snapshot: the generations and their chunk ids as they were at one moment. */
  async committedChunks(): Promise<Array<GenerationRef & { chunkIds: string[] }>> {
    const { rows } = await this.db.query<StrategyStateRow & { chunk_ids: string[] }>(
      `SELECT s.document_id, s.strategy, s.generation, s.vector_table,
         COALESCE(array_agg(c.id ORDER BY c.position) FILTER (WHERE c.id IS NOT NULL), '{}') AS chunk_ids
       FROM document_strategies s LEFT JOIN chunks c
         ON c.document_id = s.document_id AND c.strategy = s.strategy AND c.generation = s.generation AND c.role = 'chunk'
       GROUP BY s.document_id, s.strategy, s.generation, s.vector_table`,
    );
    return rows.map((r) => ({ documentId: r.document_id, strategy: r.strategy, generation: r.generation, vectorSpace: r.vector_table, chunkIds: r.chunk_ids }));
  }

  async current(documentId: string, strategy: string): Promise<Chunk[]> {
    const { rows } = await this.db.query<ChunkRow>(
      `SELECT c.* FROM chunks c JOIN document_strategies s
         ON s.document_id = c.document_id AND s.strategy = c.strategy AND s.generation = c.generation
       WHERE c.document_id = $1 AND c.strategy = $2 ORDER BY c.position`,
      [documentId, strategy],
    );
    return rows.map(chunkFromRow);
  }

  async byIds(ids: string[]): Promise<Map<string, Chunk & { documentId: string }>> {
    const { rows } = await this.db.query<ChunkRow>(`SELECT * FROM chunks WHERE id = ANY($1::text[])`, [[...new Set(ids)]]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out = new Map<string, Chunk & { documentId: string }>();
    // In the order asked, as the SQLite store returns them.
    for (const id of new Set(ids)) {
      const row = byId.get(id);
      if (row) out.set(id, { ...chunkFromRow(row), documentId: row.document_id });
    }
    return out;
  }
}
