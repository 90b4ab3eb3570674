import { createHash } from "node:crypto";

/** SHA-256 hex digest: cache keys and content identity. */
export function hashBytes(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
