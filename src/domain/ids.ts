import { randomBytes } from "node:crypto";

/** Opaque identifiers with a readable prefix (`doc_…`, `qry_…`), ARCHITECTURE convention 10. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString("hex")}`;
}

/** ISO 8601 timestamp without a zone offset, as SPEC §2 requires (UTC, millisecond precision). */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "");
}
