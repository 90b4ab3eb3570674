import type { QueryRecord } from "../types.js";

/** Questions asked and their answers. */
export interface QueriesRepo {
  insert(q: QueryRecord): Promise<void>;
  get(id: string): Promise<QueryRecord | null>;
}
