/**
 * Chunking throughput on one ~1 MB text (built from the bundled handbook, see below), in the same run:
 * our `recursive` and `fixed_size`, LangChain's RecursiveCharacterTextSplitter measuring length
 * in o200k tokens and its plain character splitter, and the cost of counting the text's tokens
 * once (the floor for any token-exact chunker). Then the time to chunk single unbroken words of
 * 50k to 1M characters. Nothing here touches the network (LangChain's TokenTextSplitter would
 * download its vocabulary, so it is not used).
 *
 *   npm run bench:chunking [-- --runs 3] [-- --words 50000,100000,200000,1000000]
 *
 * LangChain is the comparison only, so it is no dependency of chunkeval's (52 MB with its
 * tokenizer tables): install it for this script with the command it prints when it is missing.
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { clearMergeCache, countTokens } from "gpt-tokenizer";
import { parseDocument } from "../src/parsers/parser.js";
import { createStrategyRegistry } from "../src/strategies/registry.js";
import type { StoredDocument } from "../src/domain/types.js";
import { sentenceSpans } from "../src/text/sentences.js";
import { longWord, random } from "../test/helpers/synthetic-texts.js";

interface Splitter {
  splitText(text: string): Promise<string[]>;
}
type SplitterClass = new (options: { chunkSize: number; chunkOverlap: number; lengthFunction?: (text: string) => number }) => Splitter;
const LANGCHAIN_INSTALL = "npm install --no-save @langchain/core@^1.4.0 @langchain/textsplitters@^1.0.2";
// A name in a variable: the type check passes where LangChain is not installed.
const langchainModule: string = "@langchain/textsplitters";
const { CharacterTextSplitter, RecursiveCharacterTextSplitter } = (await import(langchainModule).catch(() => {
  console.error(`bench:chunking compares with LangChain's splitters, which chunkeval does not install. Install them for this script: ${LANGCHAIN_INSTALL}`);
  process.exit(2);
})) as { CharacterTextSplitter: SplitterClass; RecursiveCharacterTextSplitter: SplitterClass };

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, words: { type: "string", default: "50000,100000,200000,1000000" } } });
const runs = Math.max(1, Number(values.runs));
const SIZE = 256;
const OVERLAP = 32;

const handbook = await parseDocument(readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url)), "harbor-light-handbook.docx");
/**
 * Paragraphs of 1 to 8 of the handbook's sentences drawn at random, a fifth of their words swapped
 * for other handbook words: the handbook's vocabulary and sentence shapes, but no paragraph or
 * sentence repeated, so no chunker gains from memoising whole pieces as it would on a plain
 * repetition of the handbook.
 */
function handbookLikeText(characters: number): string {
  const next = random(7);
  const sentences = sentenceSpans(handbook.text).map((s) => handbook.text.slice(s.start, s.end));
  const words = handbook.text.split(/\s+/).filter(Boolean);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < characters) {
    const paragraph = Array.from({ length: 1 + Math.floor(next() * 8) }, () =>
      sentences[Math.floor(next() * sentences.length)]!.split(" ")
        .map((w) => (next() < 0.2 ? words[Math.floor(next() * words.length)]! : w))
        .join(" "),
    ).join(" ");
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join("\n\n");
}
const text = handbookLikeText(1_000_000);
const megabytes = Buffer.byteLength(text) / 1e6;

const registry = createStrategyRegistry();
const document = (t: string): StoredDocument => ({
  id: "doc_bench",
  filename: "bench.docx",
  title: "bench",
  text: t,
  format: "docx",
  blocks: [],
  paragraphCount: 0,
  chunkCounts: {},
  createdAt: "",
});
async function chunkWith(strategy: string, t: string): Promise<number> {
  const s = await registry.get(strategy).create({ chunk_size: SIZE, chunk_overlap: OVERLAP });
  const drafts = await s.chunk({ document: document(t), embed: async () => [] });
  return Math.max(...drafts.map((d) => d.tokenCount));
}

/**
 * Median wall seconds of `runs` timed calls after one untimed warm-up (JIT). gpt-tokenizer's
 * word cache is emptied before each call, so every contender tokenises the text from cold.
 */
async function time(run: () => unknown): Promise<number> {
  clearMergeCache();
  await run();
  const seconds: number[] = [];
  for (let i = 0; i < runs; i++) {
    clearMergeCache();
    const started = performance.now();
    await run();
    seconds.push((performance.now() - started) / 1000);
  }
  return seconds.sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
}

const tokenLength = new RecursiveCharacterTextSplitter({ chunkSize: SIZE, chunkOverlap: OVERLAP, lengthFunction: (t: string) => countTokens(t) });
// About 4 characters per token in English, so the character splitter cuts comparable chunks.
const characters = new CharacterTextSplitter({ chunkSize: SIZE * 4, chunkOverlap: OVERLAP * 4 });
// LangChain warns on every paragraph longer than a chunk; the tables are what this prints.
console.warn = () => {};

console.log(
  `text: handbook sentences recombined, ${megabytes.toFixed(2)} MB, ${countTokens(text)} o200k tokens; chunk_size ${SIZE}, chunk_overlap ${OVERLAP}; median of ${runs} runs\n`,
);
const count = await time(() => countTokens(text));
const rows: Array<[string, number]> = [
  ["count the tokens once (gpt-tokenizer)", count],
  ["chunkeval recursive", await time(() => chunkWith("recursive", text))],
  ["chunkeval fixed_size", await time(() => chunkWith("fixed_size", text))],
  ["LangChain RecursiveCharacterTextSplitter, o200k length", await time(() => tokenLength.splitText(text))],
  ["LangChain CharacterTextSplitter (characters)", await time(() => characters.splitText(text))],
];
console.log("| what | seconds | MB/s | time / counting once |");
console.log("| --- | ---: | ---: | ---: |");
for (const [what, seconds] of rows) console.log(`| ${what} | ${seconds.toFixed(3)} | ${(megabytes / seconds).toFixed(2)} | ${(seconds / count).toFixed(2)}x |`);

console.log("\nsingle unbroken words (random lower-case letters), one run each:\n");
console.log("| characters | strategy | seconds | chunks' largest token count |");
console.log("| ---: | --- | ---: | ---: |");
for (const length of values.words!.split(",").filter(Boolean).map(Number)) {
  const word = longWord(length, "letters", length);
  for (const strategy of ["recursive", "fixed_size"]) {
    clearMergeCache();
    const started = performance.now();
    const largest = await chunkWith(strategy, word);
    console.log(`| ${length} | ${strategy} | ${((performance.now() - started) / 1000).toFixed(2)} | ${largest} |`);
  }
}
