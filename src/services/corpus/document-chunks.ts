import { NotFoundError, ValidationError } from "../../errors.js";
import { lastAtOrBefore } from "../../text/sorted.js";
import type { ServiceContext } from "../context.js";
import { requireDocument } from "./documents.js";
import { resolveVariant } from "./variants.js";

/** One stored chunk as listed: where it lies in the extracted text, on which page, its size and text. */
export interface ListedChunk {
  position: number;
  start: number;
  end: number;
  /** The page its first character is on (PDF), else null. */
  page: number | null;
  tokenCount: number;
  /** `parent` rows answer for their children (semantic_parent_child) and are not searched. */
  role: "chunk" | "parent";
  parentId: string | null;
  /** The context line searched with it (contextual_retrieval), else null. */
  context: string | null;
  text: string;
}

/**
 * A processed strategy's (or variant's) current chunks of one document, in order, with their offsets
 * in the extracted text and pages: what the strategy cut, as the benchmark searched it. A strategy not
 * processed for the document is not found (exit 3, 404), naming the command that processes it.
 */
export async function documentChunks(
  ctx: ServiceContext,
  documentId: string,
  strategy: string,
): Promise<{ documentId: string; filename: string; strategy: string; chunks: ListedChunk[] }> {
  const document = await requireDocument(ctx, documentId);
  const indexKey = await storedKey(ctx, document.id, strategy);
  const state = await ctx.chunks.state(document.id, indexKey);
  if (!state) {
    throw new NotFoundError(
      `${document.filename} (${document.id}) has no ${indexKey} chunks: ` + `process it first (chunkeval process ${document.id} --strategies ${indexKey})`,
    );
  }
  const starts = document.blocks.map((b) => b.start);
  const pageAt = (offset: number) => (starts.length === 0 ? null : (document.blocks[lastAtOrBefore(starts, offset)]!.page ?? null));
  const chunks = await ctx.chunks.current(document.id, indexKey);
  return {
    documentId: document.id,
    filename: document.filename,
    strategy: indexKey,
    chunks: chunks.map((c) => ({
      position: c.position,
      start: c.start,
      end: c.end,
      page: pageAt(c.start),
      tokenCount: c.tokenCount,
      role: c.role,
      parentId: c.parentId,
      context: c.context,
      text: c.text,
    })),
  };
}

/**
 * The key a strategy's chunks are stored under: a variant of a strategy the registry knows, or the
 * name of chunks a benchmark imported (`bench --chunks mine=FILE`), which no registry knows outside
 * that run but whose chunks stay stored under it.
 */
async function storedKey(ctx: ServiceContext, documentId: string, strategy: string): Promise<string> {
  try {
    return (await resolveVariant(ctx, strategy, { topK: ctx.config.topK })).indexKey;
  } catch (error) {
    if (error instanceof ValidationError && !strategy.includes("@") && (await ctx.chunks.state(documentId, strategy))) return strategy;
    throw error;
  }
}
