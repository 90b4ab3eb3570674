import type { Chunk } from "../../domain/types.js";
import type { RetrievalMode } from "../../strategies/strategy.js";
import type { Db } from "./database.js";

/** Which generation of a strategy's chunks is current, and how it was made. */
export interface StrategyState {
  documentId: string;
  strategy: string;
  generation: string;
  options: Record<string, number>;
  embedder: string;
  vectorTable: string;
  retrieval: RetrievalMode;
  chunkCount: number;
  processedAt: string;
}

interface ChunkRow {
  id: string;
  position: number;
  role: "chunk" | "parent";
  parent_id: string | null;
  text: string;
  context: string | null;
  start_offset: number;
  end_offset: number;
  token_count: number;
}

function toChunk(row: ChunkRow): Chunk {
  return {
    id: row.id,
    position: row.position,
    role: row.role,
    parentId: row.parent_id,
    text: row.text,
    context: row.context,
    start: row.start_offset,
    end: row.end_offset,
    tokenCount: row.token_count,
  };
}

/** Rows of `chunks` and `document_strategies`; see ../README.md for the write order. */
export class ChunksRepo {
  constructor(private readonly db: Db) {}

  state(documentId: string, strategy: string): StrategyState | null {
    const row = this.db
      .prepare(`SELECT * FROM document_strategies WHERE document_id = ? AND strategy = ?`)
      .get(documentId, strategy) as Record<string, unknown> | undefined;
    if (!row) return null;
    return {
      documentId: row.document_id as string,
      strategy: row.strategy as string,
      generation: row.generation as string,
      options: JSON.parse(row.options_json as string) as Record<string, number>,
      embedder: row.embedder as string,
      vectorTable: row.vector_table as string,
      retrieval: row.retrieval as RetrievalMode,
      chunkCount: row.chunk_count as number,
      processedAt: row.processed_at as string,
    };
  }

  /** Every (document, strategy, generation) that is current: what the vector sweep keeps. */
  currentGenerations(): Array<{ documentId: string; strategy: string; generation: string; vectorTable: string }> {
    return (
      this.db.prepare(`SELECT document_id, strategy, generation, vector_table FROM document_strategies`).all() as Array<
        Record<string, string>
      >
    ).map((r) => ({ documentId: r.document_id!, strategy: r.strategy!, generation: r.generation!, vectorTable: r.vector_table! }));
  }

  /**
   * Makes `chunks` the current generation of (document, strategy) in one transaction and
   * removes the rows of the generation it replaces. Returns the replaced generation, if any.
   */
  commitGeneration(state: StrategyState, chunks: Chunk[]): string | null {
    const insert = this.db.prepare(
      `INSERT INTO chunks (id, document_id, strategy, generation, position, role, parent_id, text, context, start_offset, end_offset, token_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      const previous = this.state(state.documentId, state.strategy)?.generation ?? null;
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
        .run(state.documentId, state.strategy, state.generation, JSON.stringify(state.options), state.embedder, state.vectorTable, state.retrieval, state.chunkCount, state.processedAt);
      if (previous && previous !== state.generation) {
        this.db.prepare(`DELETE FROM chunks WHERE document_id = ? AND strategy = ? AND generation = ?`).run(state.documentId, state.strategy, previous);
      }
      return previous;
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
    ).map(toChunk);
  }

  byIds(ids: string[]): Map<string, Chunk> {
    const out = new Map<string, Chunk>();
    const get = this.db.prepare(`SELECT * FROM chunks WHERE id = ?`);
    for (const id of new Set(ids)) {
      const row = get.get(id) as ChunkRow | undefined;
      if (row) out.set(id, toChunk(row));
    }
    return out;
  }
}
