import { NotFoundError } from "../../errors.js";
import { reciprocalRankFusion } from "../../retrieval/fusion.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";
import type { ServiceContext } from "../context.js";
import type { IngestionRepo } from "../../domain/ports/ingestion.js";

/** How many candidates each list gathers per wanted result before fusion. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 20;

/**
 * Hybrid search over a tenant's live points: dense candidates (the query embedded with the /v1
 * embedder) and BM25 candidates, fused by reciprocal rank (retrieval/fusion.ts, the one fusion).
 */
export async function searchPoints(ctx: ServiceContext, points: PointsStore, tenantId: string, query: { text: string; domain?: string; topK: number }) {
  const [vector] = await (await ctx.embedder()).embed([query.text]);
  const candidates = Math.max(MIN_CANDIDATES, query.topK * CANDIDATES_PER_RESULT);
  const [dense, sparse] = await Promise.all([
    points.denseSearch(tenantId, vector!, query.domain, candidates),
    points.keywordSearch(tenantId, query.text, query.domain, candidates),
  ]);
  const byId = new Map([...dense, ...sparse].map((p) => [p.pointId, p]));
  const fused = reciprocalRankFusion([dense, sparse].map((list) => list.map((p) => ({ chunkId: p.pointId, score: p.score }))));
  return fused.slice(0, query.topK).map((hit) => ({ ...byId.get(hit.chunkId)!, score: hit.score }));
}

/** A point's id: its version's source-file id and its chunk index, so a page of ids can be worked out without reading the points. */
export function pointIdOf(sourceFileId: string, chunkIndex: number): string {
  return `${sourceFileId}_${chunkIndex}`;
}

/**
 * A page of a tenant's live points in file name, version and chunk order: which points it
 * holds comes from SQLite (the published versions and their point counts, one query), and only
 * those points are read from the vector store (one lookup by id).
 */
export async function listPoints(
  repo: IngestionRepo,
  points: PointsStore,
  tenantId: string,
  filter: { domain?: string; sourceFileId?: string },
  page: { offset: number; limit: number },
) {
  const { slices, total } = await repo.livePointPage(tenantId, filter, page.offset, page.limit);
  const ids = slices.flatMap((s) => Array.from({ length: s.to - s.from }, (_, i) => pointIdOf(s.fileId, s.from + i)));
  const found = new Map((await points.getMany(tenantId, ids)).map((p) => [p.pointId, p]));
  // A point hidden since the page was worked out (a newer version published meanwhile) is left out.
  return { items: ids.flatMap((id) => (found.get(id)?.deleted === false ? [found.get(id)!] : [])), total };
}

/** One live point of a tenant, or 404. */
export async function requirePoint(points: PointsStore, tenantId: string, pointId: string) {
  const point = await points.get(tenantId, pointId);
  if (!point || point.deleted) throw new NotFoundError("point not found");
  return point;
}
