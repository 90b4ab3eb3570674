import { NotFoundError } from "../errors.js";
import type { PointsStore } from "../stores/vectors/points.js";
import type { ServiceContext } from "./context.js";

/** Hybrid search (dense + BM25) over a tenant's live points: the query is embedded with the /v1 embedder. */
export async function searchPoints(ctx: ServiceContext, points: PointsStore, tenantId: string, query: { text: string; domain?: string; topK: number }) {
  const [vector] = await (await ctx.embedder()).embed([query.text]);
  return points.search(tenantId, vector!, query.text, query.domain, query.topK);
}

/** One live point of a tenant, or 404. */
export async function requirePoint(points: PointsStore, tenantId: string, pointId: string) {
  const point = await points.get(tenantId, pointId);
  if (!point || point.deleted) throw new NotFoundError("point not found");
  return point;
}
