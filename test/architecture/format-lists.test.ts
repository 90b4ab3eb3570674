// Issue 37 item 4: every list of formats shown to a person (help, messages, the API's descriptions)
// is derived from the parser registry (parsers/registry.ts SUPPORTED_FORMATS_TEXT), so a new format
// is one file and one line there; none is written by hand elsewhere in src/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SUPPORTED_FORMATS_TEXT } from "../../src/parsers/registry.js";
import { buildProgram } from "../../src/transports/cli/program.js";
import { typeScriptFiles } from "../helpers/source-files.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Lines naming three or more formats in a row by extension or by name: a hand-written list. */
function handWrittenLists(text: string): string[] {
  const format = String.raw`(\.docx|\.doc|\.pdf|\.html?|\.md|\.markdown|\.txt|Word|PDF|Markdown|HTML|plain text)`;
  const list = new RegExp(`${format}(,\\s*|\\s+or\\s+|\\s*/\\s*)${format}(,\\s*|\\s+or\\s+|\\s*/\\s*)${format}`);
  return text.split("\n").filter((line) => list.test(line));
}

test("no format list is written by hand in src/: each is SUPPORTED_FORMATS_TEXT from the registry", () => {
  const found = typeScriptFiles(SRC)
    .filter((path) => !path.startsWith(join(SRC, "parsers")))
    .flatMap((path) => handWrittenLists(readFileSync(path, "utf8")).map((line) => `${relative(SRC, path)}: ${line.trim()}`));
  assert.deepEqual(found, []);
  // The check finds one.
  assert.equal(handWrittenLists('  .description("upload a document (.docx, .doc, .pdf, .md, .txt or .html)")').length, 1);
  assert.equal(handWrittenLists("for your documents (Word, PDF, Markdown, HTML, plain text).").length, 1);
});

test("the help's format lists are the registry's", () => {
  assert.equal(SUPPORTED_FORMATS_TEXT, ".docx, .doc, .pdf, .html, .md or .txt");
  const program = buildProgram();
  assert.ok(program.description().includes(SUPPORTED_FORMATS_TEXT), program.description());
  const upload = program.commands.find((c) => c.name() === "upload")!;
  assert.ok(upload.description().includes(SUPPORTED_FORMATS_TEXT), upload.description());
});
