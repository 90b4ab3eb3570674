import Table from "cli-table3";
import { toWire } from "../serialize.js";

/** Prints a value as the spec's snake_case JSON on stdout (the only output of --json). */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(toWire(value), null, 2) + "\n");
}

export function printLine(text = ""): void {
  process.stdout.write(text + "\n");
}

/** A plain table on stdout; colour-free so it reads the same in CI logs. */
export function printTable(head: string[], rows: Array<Array<string | number>>): void {
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) table.push(row.map(String));
  printLine(table.toString());
}

export function formatNumber(n: number, digits = 3): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

export function shorten(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}
