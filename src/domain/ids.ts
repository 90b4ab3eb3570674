import { randomBytes } from "node:crypto";

/** Opaque identifiers with a readable prefix (`doc_…`, `qry_…`), ARCHITECTURE convention 10. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString("hex")}`;
}

/** ISO 8601 timestamp without a zone offset, as SPEC §2 requires (UTC, millisecond precision). */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "");
}

/** The milliseconds since the epoch of a timestamp written by nowTimestamp (UTC without its "Z"). */
export function timestampMs(timestamp: string): number {
  return Date.parse(timestamp.endsWith("Z") ? timestamp : `${timestamp}Z`);
}
