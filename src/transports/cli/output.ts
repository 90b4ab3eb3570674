import { toWire } from "../serialize.js";
import { outputWidth, renderTable, wrapProse } from "./layout.js";
import { cliIo } from "./io.js";
import { ExitCode } from "../../errors.js";

/** Prints a value as the spec's snake_case JSON on stdout (the only output of --json). */
export function printJson(value: unknown): void {
  cliIo().stdout.write(JSON.stringify(toWire(value), null, 2) + "\n");
}

/** A line of prose on stdout, wrapped at spaces to the terminal's width (docs/cli.md "Commands"). */
export function printLine(text = ""): void {
  cliIo().stdout.write(wrapProse(text, outputWidth()) + "\n");
}

/**
 * A note, warning or error on stderr, wrapped like printLine at the terminal's width. In a log
 * (stderr not a terminal) it wraps only when COLUMNS is set: a message on one line is what
 * people search CI logs for.
 */
export function printNote(text: string): void {
  if (cliIo().notes === "json") return printJsonEvent({ event: "note", message: text.trim() });
  const wraps = cliIo().stderr.isTTY || cliIo().env.COLUMNS !== undefined;
  cliIo().stderr.write((wraps ? wrapProse(text, outputWidth(cliIo().stderr)) : text) + "\n");
}

/** One event of `--progress json` on stderr: an object on one line, keys in snake_case. */
export function printJsonEvent(event: Record<string, unknown>): void {
  cliIo().stderr.write(JSON.stringify(event) + "\n");
}

/** A plain table on stdout, no wider than the terminal; colour-free so it reads the same in CI logs. */
export function printTable(head: string[], rows: Array<Array<string | number>>): void {
  cliIo().stdout.write(
    renderTable(
      head,
      rows.map((row) => row.map(String)),
      outputWidth(),
    ) + "\n",
  );
}

export function shorten(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/**
 * Writes a file a flag named (a report, the JUnit XML, a summary, a baseline). A write that fails
 * once the work is done (a device that refuses it, a full disk: what no check up front can see)
 * is said in one line with the reason and `afterwards` (how to get the file again), and the run
 * ends with exit 1; the rest of its output still comes. Returns whether the file was written.
 */
export async function writeOutputFile(flag: string, path: string, write: () => Promise<void>, afterwards = ""): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    printNote(`chunkeval: error: cannot write ${flag} ${path} (${reason})${afterwards}`);
    cliIo().exitCode = ExitCode.failed;
    return false;
  }
}
