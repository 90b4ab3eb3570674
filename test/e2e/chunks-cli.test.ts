import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH, handbookBytes } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { createWorkspace } from "../helpers/workspace.js";

const QUESTIONS = new URL("../../questions/harbor-light-handbook.json", import.meta.url).pathname;

/** The handbook's extracted text, as chunkeval reads it (a user's pipeline would have its own). */
async function handbookText(): Promise<string> {
  const ws = await createWorkspace();
  try {
    const { id } = await ws.app.upload({ filename: "harbor-light-handbook.docx", bytes: handbookBytes() });
    return (await ws.app.getDocument(id)).text;
  } finally {
    await ws.cleanup();
  }
}

/** Groups of `per` paragraphs: odd chunks with their offsets, even ones as text only. */
function paragraphGroups(text: string, per: number): string[] {
  const paragraphs: Array<{ start: number; end: number }> = [];
  const re = /[^\n]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) paragraphs.push({ start: m.index, end: m.index + m[0].length });
  const lines: string[] = [];
  for (let i = 0; i < paragraphs.length; i += per) {
    const start = paragraphs[i]!.start;
    const end = paragraphs[Math.min(i + per, paragraphs.length) - 1]!.end;
    const chunk = { document: "harbor-light-handbook.docx", text: text.slice(start, end) };
    lines.push(JSON.stringify(lines.length % 2 === 1 ? { ...chunk, start, end } : chunk));
  }
  return lines;
}

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-chunks-"));
  const questions = JSON.parse(readFileSync(QUESTIONS, "utf8")).slice(0, 6);
  writeFileSync(join(dir, "questions.json"), JSON.stringify(questions));
  return {
    dir,
    questions: join(dir, "questions.json"),
    env: { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test("bench --chunks puts a pipeline's own chunks beside recursive in one verdict; an edited file is processed again", async () => {
  const ws = workspace();
  try {
    const text = await handbookText();
    const file = join(ws.dir, "mine.jsonl");
    writeFileSync(file, paragraphGroups(text, 3).join("\n") + "\n");
    const bench = (strategies: string) =>
      runCli(["bench", HANDBOOK_PATH, "--questions", ws.questions, "--strategies", strategies, "--chunks", `mine=${file}`, "--json"], ws.env);
    const first = await bench("recursive");
    assert.equal(first.code, 0, first.stderr);
    const e = JSON.parse(first.stdout);
    assert.deepEqual(e.strategies_used, ["recursive", "mine"]);
    for (const s of ["recursive", "mine"]) assert.equal(typeof e.aggregate_metrics[s].avg_recall, "number", s);
    assert.match(e.verdict, /recursive|mine/);
    const chunkCount = async () =>
      JSON.parse((await runCli(["documents", "--json"], ws.env)).stdout).items.find((d: any) => d.filename === "harbor-light-handbook.docx").chunk_counts.mine;
    assert.equal(await chunkCount(), paragraphGroups(text, 3).length);

    // Search variants of the import are allowed, and the scorecard names it.
    const variants = await runCli(
      ["bench", HANDBOOK_PATH, "--questions", ws.questions, "-s", "recursive,mine@top_k=3", "--chunks", `mine=${file}`, "--dry-run"],
      ws.env,
    );
    assert.equal(variants.code, 0, variants.stderr);
    assert.match(variants.stdout, /│ mine@top_k=3 /);

    writeFileSync(file, paragraphGroups(text, 6).join("\n") + "\n");
    const edited = await bench("recursive");
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(await chunkCount(), paragraphGroups(text, 6).length, "the edited file's chunks are used");
  } finally {
    ws.cleanup();
  }
});

test("bad --chunks input exits 2 naming the file and the line, and stores nothing", async () => {
  const ws = workspace();
  try {
    const text = await handbookText();
    const good = paragraphGroups(text, 4);
    const file = join(ws.dir, "bad.jsonl");
    const bench = (spec: string, strategies = "recursive") =>
      runCli(["bench", HANDBOOK_PATH, "--questions", ws.questions, "-s", strategies, "--chunks", spec, "--dry-run"], ws.env);
    // [what is wrong, the file, the error, the import's name, --strategies]
    const cases: Array<[string, string, RegExp, string?, string?]> = [
      ["a line that is not JSON", [good[0], "{ oops", ...good.slice(1)].join("\n"), /chunks file .*bad\.jsonl, line 2: not valid JSON/],
      [
        "an unknown document",
        [good[0], JSON.stringify({ document: "other.docx", text: "x" })].join("\n"),
        /bad\.jsonl, line 2: no document "other\.docx" in the benchmark \(documents: harbor-light-handbook\.docx\)/,
      ],
      [
        "a text not in the document",
        [...good, JSON.stringify({ text: "Harbor Light sells ice cream on the pier every Sunday afternoon in summer." })].join("\n"),
        new RegExp(`bad\\.jsonl, line ${good.length + 1}: the text is not in harbor-light-handbook\\.docx: "Harbor Light sells ice cream`),
      ],
      [
        "offsets that do not match",
        [JSON.stringify({ text: "Harbor Light Energy Cooperative", start: 10, end: 41 }), ...good].join("\n"),
        /bad\.jsonl, line 1: the text of harbor-light-handbook\.docx at 10-41 is ".*", not the chunk's "Harbor Light Energy Cooperative"/,
      ],
      ["an empty file", "", /chunks file .*bad\.jsonl: no chunks/],
      ["a built-in's name", good.join("\n"), /bad\.jsonl: the name "recursive" is taken by another strategy; choose another/, "recursive"],
      [
        "a chunking parameter on the import",
        good.join("\n"),
        /strategy variant "mine@chunk_size=64": unknown parameter "chunk_size"/,
        "mine",
        "mine@chunk_size=64",
      ],
    ];
    for (const [label, content, message, name, strategies] of cases) {
      writeFileSync(file, content);
      const run = await bench(`${name ?? "mine"}=${file}`, strategies ?? "recursive");
      assert.equal(run.code, 2, `${label}: ${run.stderr}`);
      assert.match(run.stderr, message, label);
    }
    const noFile = await bench(`mine=${join(ws.dir, "nowhere.jsonl")}`);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /chunks file .*nowhere\.jsonl: cannot read it \(ENOENT\)/);
    const noName = await bench(file);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /--chunks takes name=FILE\.jsonl/);

    const experiments = JSON.parse((await runCli(["experiments", "--json"], ws.env)).stdout);
    assert.equal(experiments.total, 0, "no experiment stored");
    const documents = JSON.parse((await runCli(["documents", "--json"], ws.env)).stdout).items;
    for (const d of documents) assert.deepEqual(d.chunk_counts, {}, "nothing processed");
  } finally {
    ws.cleanup();
  }
});
