/**
 * Code is camelCase, the wire is snake_case (ARCHITECTURE convention 8): this is the one place
 * the CLI's --json output and the HTTP responses are converted. Keys that are data (strategy
 * names, already snake_case) pass through unchanged.
 */
export function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase()), toWire(v)]));
  }
  return value;
}
