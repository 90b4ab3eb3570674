/**
 * chunkeval's PDF text against poppler's `pdftotext` (Debian's poppler-utils), the reference
 * reading order a PDF reader gives (issue 38, item 1). For every PDF named (files, or folders
 * searched for .pdf) it prints, beside pdftotext's text of the same file:
 *
 * - `words`: chunkeval's word count over pdftotext's;
 * - `agree`: the share of pdftotext's words (lower-cased, letters and digits) that chunkeval's
 *   text holds too, counted with multiplicity;
 * - `pairs`: the same over pairs of consecutive words: a word order that differs (columns
 *   interleaved, lines swapped) lowers it where `agree` does not move;
 * - `swaps`: reading-order swaps per 100 passages: pdftotext's text cut into passages of 8 words
 *   that occur once in each text, and counted where a passage comes before the one pdftotext
 *   puts ahead of it;
 * - `split`: words still broken at a line's end in chunkeval's text ("af- ter") that pdftotext
 *   gives whole ("after": poppler joins a line-end hyphenation);
 * - `kept`: hyphens kept where pdftotext joins the two halves (it joins every line-end hyphen):
 *   a compound broken at a line's end that the document or the dictionary says is one
 *   ("third-party"); the run's last line lists some, to be read by eye, since pdftotext is no
 *   judge of these;
 * - `furn`: the blocks marked as page furniture (running headers, footers, page numbers).
 *
 * Then the totals over all files (words summed, passages summed). A file chunkeval refuses is
 * listed with the reason and left out of the totals.
 *
 *   npm run bench:pdf-text -- FILE_OR_DIR... [--limit 40]
 *
 * Where the figures in docs/formats.md came from: see there (the corpus, and the commit before
 * and after).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { parseDocument } from "../src/parsers/parser.js";

const USAGE = "usage: npm run bench:pdf-text -- FILE_OR_DIR... [--limit 40]";
let parsed;
try {
  parsed = parseArgs({ options: { limit: { type: "string", default: "40" }, help: { type: "boolean", short: "h" } }, allowPositionals: true });
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(`${USAGE}\n\nCompares chunkeval's PDF text with pdftotext's on each PDF named (or found under a folder), at most --limit files.`);
  process.exit(0);
}
if (positionals.length === 0) {
  console.error(USAGE);
  process.exit(2);
}

try {
  execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
} catch {
  console.error("pdftotext is not installed: apt-get install -y poppler-utils");
  process.exit(2);
}

function pdfsUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => pdfsUnder(join(path, name)))
    .filter((p) => p.toLowerCase().endsWith(".pdf"));
}

const words = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

function counts<T>(items: T[]): Map<T, number> {
  const out = new Map<T, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}

/** The share of `reference`'s items (with multiplicity) that `ours` holds too. */
function agreement<T>(ours: T[], reference: T[]): number {
  const have = counts(ours);
  let shared = 0;
  for (const [item, n] of counts(reference)) shared += Math.min(n, have.get(item) ?? 0);
  return reference.length === 0 ? 1 : shared / reference.length;
}

const PASSAGE = 8;

/** Passages of PASSAGE words that occur once in each text, in the reference's order, and how many of them are out of order in ours. */
function orderSwaps(ours: string[], reference: string[]): { passages: number; swaps: number } {
  const passages = (list: string[]) => {
    const all = new Map<string, number[]>();
    for (let i = 0; i + PASSAGE <= list.length; i += PASSAGE) {
      const key = list.slice(i, i + PASSAGE).join(" ");
      all.set(key, [...(all.get(key) ?? []), i]);
    }
    return all;
  };
  const inOurs = new Map<string, number[]>();
  for (let i = 0; i + PASSAGE <= ours.length; i++) {
    const key = ours.slice(i, i + PASSAGE).join(" ");
    inOurs.set(key, [...(inOurs.get(key) ?? []), i]);
  }
  const positions: number[] = [];
  for (const [key, at] of passages(reference)) {
    const found = inOurs.get(key);
    if (at.length === 1 && found?.length === 1) positions.push(found[0]!);
  }
  let swaps = 0;
  for (let i = 1; i < positions.length; i++) if (positions[i]! < positions[i - 1]!) swaps++;
  return { passages: positions.length, swaps };
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const files = positionals.flatMap(pdfsUnder).slice(0, Number(values.limit));
const totals = { ours: [] as string[][], reference: [] as string[][], passages: 0, swaps: 0, split: 0, kept: [] as string[], furniture: 0, refused: 0 };
console.log("file | words | agree | pairs | swaps /100 | split | kept | furn | pages");
for (const file of files) {
  const bytes = readFileSync(file);
  const reference = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
  let text: string;
  let furniture = 0;
  let pages = 0;
  try {
    const doc = await parseDocument(bytes, basename(file));
    text = doc.text;
    furniture = doc.blocks.filter((b) => (b.kind as string) === "furniture").length;
    pages = Math.max(0, ...doc.blocks.map((b) => b.page ?? 0));
  } catch (error) {
    totals.refused++;
    console.log(`${basename(file)} | refused: ${(error as Error).message.slice(0, 120)}`);
    continue;
  }
  const [ours, theirs] = [words(text), words(reference)];
  const pairs = (list: string[]) => list.slice(1).map((w, i) => `${list[i]} ${w}`);
  const order = orderSwaps(ours, theirs);
  const whole = new Set(theirs);
  const split = [...text.matchAll(/(\p{L}+)-\s+(\p{Ll}+)/gu)].filter((m) => whole.has(`${m[1]}${m[2]}`.toLowerCase())).length;
  const hyphenated = new Set(reference.match(/\p{L}+-\p{L}+/gu) ?? []);
  const kept = [...text.matchAll(/(\p{L}+)-(\p{L}+)/gu)].filter((m) => !hyphenated.has(m[0]) && whole.has(`${m[1]}${m[2]}`.toLowerCase())).map((m) => m[0]);
  totals.kept.push(...kept);
  totals.ours.push(ours);
  totals.reference.push(theirs);
  totals.passages += order.passages;
  totals.swaps += order.swaps;
  totals.split += split;
  totals.furniture += furniture;
  const swaps = order.passages === 0 ? "n/a" : ((100 * order.swaps) / order.passages).toFixed(1);
  console.log(
    `${basename(file)} | ${ours.length}/${theirs.length} | ${pct(agreement(ours, theirs))} | ${pct(agreement(pairs(ours), pairs(theirs)))} | ` +
      `${swaps} | ${split} | ${kept.length} | ${furniture} | ${pages}`,
  );
}
const allOurs = totals.ours.flat();
const allTheirs = totals.reference.flat();
const pairsOf = (lists: string[][]) => lists.flatMap((list) => list.slice(1).map((w, i) => `${list[i]} ${w}`));
console.log(
  `\ntotal over ${totals.ours.length} files (${totals.refused} refused): words ${allOurs.length}/${allTheirs.length}, ` +
    `agree ${pct(agreement(allOurs, allTheirs))}, pairs ${pct(agreement(pairsOf(totals.ours), pairsOf(totals.reference)))}, ` +
    `swaps ${totals.passages === 0 ? "n/a" : ((100 * totals.swaps) / totals.passages).toFixed(2)} per 100 passages (${totals.swaps} of ${totals.passages}), ` +
    `words left split ${totals.split}, hyphens kept where pdftotext joins ${totals.kept.length}, furniture blocks ${totals.furniture}`,
);
if (totals.kept.length > 0) {
  const sample = [...new Set(totals.kept)];
  console.log(`kept, to read by eye (${sample.length} distinct): ${sample.slice(0, 40).join(", ")}${sample.length > 40 ? ", …" : ""}`);
}
