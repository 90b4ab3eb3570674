#!/usr/bin/env node
// `npm run example:corpus`: benchmark all built-in strategies on the bundled example corpus
// (examples/corpus/: a PDF, a Markdown file, an HTML page, a text file and a .docx, searched
// together as one collection) with questions/corpus.json, on the default offline stack, and write
// both HTML report views. Uses ./.chunkeval unless CHUNKEVAL_DATA_DIR says otherwise.
import { benchIntoReports, root } from "./example-run.mjs";

const started = Date.now();
benchIntoReports(
  [root("examples/corpus"), "--collection", "example-corpus", "--questions", root("questions/corpus.json"), "--strategies", "all"],
  "chunkeval-corpus-report",
);
console.log(`benchmarked the example corpus in ${((Date.now() - started) / 1000).toFixed(1)} s`);
