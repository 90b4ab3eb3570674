import type { StoreUpkeep } from "./vector-store.js";

/** A stored point of the /v1 surface: one chunk of a source file with its dense vector and server-owned fields. */
export interface Point {
  pointId: string;
  tenantId: string;
  domain: string;
  sourceFileId: string;
  filename: string;
  /** Server-owned: the source file's version that wrote the point. */
  version: number;
  chunkIndex: number;
  text: string;
  start: number;
  end: number;
  deleted: boolean;
  ingestionJobId: string;
  vector: Float32Array;
}

export type PublicPoint = Omit<Point, "vector" | "ingestionJobId">;
export type ScoredPoint = PublicPoint & { score: number };

export interface PointFilter {
  domain?: string;
  sourceFileId?: string;
}

export interface PointsStoreOptions extends StoreUpkeep {
  /** Past this many points the store may search by an approximate (ANN) index instead of scanning. */
  vectorIndexMinRows: number;
}

/**
 * The /v1 points collection (port). Every read is scoped to one tenant and sees live points
 * only; points are written hidden and made live by `setLiveVersion`.
 */
export interface PointsStore {
  /** Creates the collection for vectors of `dimension` if it does not exist yet. */
  ensureCollection(dimension: number): Promise<void>;
  /** Ready when the store answers and the collection exists (SPEC §4 rule 4). */
  readiness(): Promise<{ ready: boolean; reason?: string; unreachable?: boolean }>;
  add(points: Point[]): Promise<void>;
  /**
   * Makes `version` the one live version of a file name: its points visible, every other
   * version's points hidden. Returns how many points it hid. Idempotent.
   */
  setLiveVersion(tenantId: string, domain: string, filename: string, version: number): Promise<number>;
  /** Removes every point an ingestion job of the tenant wrote. */
  deleteByJob(tenantId: string, jobId: string): Promise<void>;
  /** Points of one version of a file, live or hidden. */
  countOfVersion(tenantId: string, sourceFileId: string): Promise<number>;
  /** The tenant's points with these ids, in any order (pages of GET /v1/points are worked out in SQL). */
  getMany(tenantId: string, pointIds: string[]): Promise<PublicPoint[]>;
  get(tenantId: string, pointId: string): Promise<PublicPoint | null>;
  /** Dense candidates among a tenant's live points, best first, cosine similarity as score. */
  denseSearch(tenantId: string, vector: Float32Array, domain: string | undefined, limit: number): Promise<ScoredPoint[]>;
  /** BM25 candidates among a tenant's live points for a question as the user wrote it. */
  keywordSearch(tenantId: string, text: string, domain: string | undefined, limit: number): Promise<ScoredPoint[]>;
  /** Runs pending upkeep now and waits for it (benchmarks, tests). */
  maintain(): Promise<void>;
  close(): Promise<void>;
}
