import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ChunkevalError, ChunkLimitError, ConcurrencyLimitError, describeError, IndexFailedError, IngestionTimeoutError, UnknownDomainError } from "../errors.js";
import { hashBytes } from "../domain/hash.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { StoredDocument } from "../domain/types.js";
import { parseDocument } from "../parsers/parser.js";
import type { IngestionRepo } from "../stores/sqlite/ingestion-repo.js";
import type { TenantsRepo } from "../stores/sqlite/tenants-repo.js";
import type { PointsStore } from "../stores/vectors/points.js";
import type { ServiceContext } from "./context.js";

export interface IngestionLimits {
  maxConcurrency: number;
  timeoutSeconds: number;
  maxChunks: number;
  /** Dense embedding: texts per batch and batches in flight at once. */
  embedBatchSize: number;
  embedConcurrency: number;
}

export interface IngestionResult {
  fileId: string;
  ingestionJobId: string;
  domain: string;
  filename: string;
  version: number;
  chunksIndexed: number;
  pointsCreated: number;
  pointsSoftDeleted: number;
}

/** Runs `fn` over batches with at most `limit` in flight, keeping the results in order. */
async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * File ingestion of the /v1 surface. The domain check runs in the first transaction, before any
 * object, job row or point is written; after it every outcome ends in a terminal job row, and a
 * failed ingestion removes the points it wrote, so nothing half-indexed stays searchable.
 */
export class IngestionService {
  private active = 0;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly tenants: TenantsRepo,
    private readonly repo: IngestionRepo,
    private readonly points: PointsStore,
    private readonly limits: IngestionLimits,
    private readonly objectsDir: string,
  ) {}

  async ingest(tenantId: string, domain: string, filename: string, bytes: Buffer): Promise<IngestionResult> {
    const jobId = newId("ing");
    this.repo.transaction(() => {
      const record = this.tenants.domain(tenantId, domain);
      if (!record || record.status !== "active") throw new UnknownDomainError(`no active domain "${domain}" for this tenant; create or enable it first`);
      this.repo.insertJob({ id: jobId, tenantId, domain, filename, createdAt: nowTimestamp() });
    });
    if (this.active >= this.limits.maxConcurrency) {
      const error = new ConcurrencyLimitError(`more than INGESTION_MAX_CONCURRENCY (${this.limits.maxConcurrency}) ingestions at once; retry later`);
      this.repo.finishJob(jobId, { status: "failed", errorCode: error.code, error: error.message }, nowTimestamp());
      throw error;
    }
    this.active++;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort("timeout");
        reject(new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${this.limits.timeoutSeconds})`));
      }, this.limits.timeoutSeconds * 1000);
    });
    const work = this.run(jobId, tenantId, domain, filename, bytes, controller.signal);
    try {
      const result = await Promise.race([work, timeout]);
      this.repo.finishJob(jobId, { status: "completed", sourceFileId: result.fileId, chunksIndexed: result.chunksIndexed, pointsCreated: result.pointsCreated, pointsSoftDeleted: result.pointsSoftDeleted }, nowTimestamp());
      return result;
    } catch (error) {
      // The work may still be running after a timeout: wait for it before cleaning up after it.
      await work.catch(() => undefined);
      await this.points.deleteByJob(jobId).catch(() => undefined);
      const known = error instanceof ChunkevalError ? error : new IndexFailedError(describeError(error));
      this.repo.finishJob(jobId, { status: "failed", errorCode: known.code, error: known.message }, nowTimestamp());
      throw known;
    } finally {
      clearTimeout(timer);
      this.active--;
    }
  }

  private async run(jobId: string, tenantId: string, domain: string, filename: string, bytes: Buffer, signal: AbortSignal): Promise<IngestionResult> {
    const parsed = await parseDocument(bytes, filename);
    const document: StoredDocument = { id: jobId, filename, paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: nowTimestamp(), ...parsed };
    const embedder = await this.ctx.embedder();
    const name = this.ctx.config.ingestion.strategy;
    const strategy = await this.ctx.strategies.get(name).create(this.ctx.config.strategyOptions[name]);
    const drafts = (await strategy.chunk({ document, embed: (t, s) => embedder.embed(t, s), signal })).filter((d) => d.role === "chunk");
    if (drafts.length > this.limits.maxChunks) throw new ChunkLimitError(`the document yields ${drafts.length} chunks, more than the ceiling of ${this.limits.maxChunks}`);
    const batches: string[][] = [];
    for (let i = 0; i < drafts.length; i += this.limits.embedBatchSize) batches.push(drafts.slice(i, i + this.limits.embedBatchSize).map((d) => d.text));
    const vectors = (await mapBounded(batches, this.limits.embedConcurrency, (batch) => embedder.embed(batch, signal))).flat();
    if (signal.aborted) throw new IngestionTimeoutError("ingestion timed out");

    const fileId = newId("file");
    const version = this.repo.latestVersion(tenantId, domain, filename) + 1;
    await mkdir(this.objectsDir, { recursive: true });
    const objectPath = join(this.objectsDir, `${fileId}.${parsed.format}`);
    await writeFile(objectPath, bytes);
    this.repo.insertSourceFile({ id: fileId, tenantId, domain, filename, version, contentHash: hashBytes(bytes), objectPath, createdAt: nowTimestamp() });
    try {
      await this.points.add(
        drafts.map((d, i) => ({
          pointId: `${fileId}_${i}`, tenantId, domain, sourceFileId: fileId, filename, version, chunkIndex: i,
          text: d.text, start: d.start, end: d.end, deleted: false, ingestionJobId: jobId, vector: vectors[i]!,
        })),
      );
    } catch (error) {
      this.repo.deleteSourceFile(fileId);
      await rm(objectPath, { force: true });
      throw new IndexFailedError(`writing chunks to the vector store failed: ${describeError(error)}`, { cause: error });
    }
    if (signal.aborted) {
      this.repo.deleteSourceFile(fileId);
      await rm(objectPath, { force: true });
      throw new IngestionTimeoutError("ingestion timed out");
    }
    const softDeleted = await this.points.softDeleteOlderVersions(tenantId, domain, filename, version);
    return { fileId, ingestionJobId: jobId, domain, filename, version, chunksIndexed: drafts.length, pointsCreated: drafts.length, pointsSoftDeleted: softDeleted };
  }
}
