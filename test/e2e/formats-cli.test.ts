import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliProcess } from "../helpers/cli.js";
import { buildPdf, layoutParagraphs } from "../helpers/pdf.js";

/** Three pages of a small rule book: enough sentences for template questions. */
function rulesPdf(): Buffer {
  const page = (topic: string) =>
    layoutParagraphs([
      { lines: [`${topic} Rules`], size: 18 },
      { lines: [`The ${topic.toLowerCase()} keeper opens the gate at seven in the morning and`, "closes it at nine in the evening."] },
      { lines: [`Visitors to the ${topic.toLowerCase()} must sign the log book before they enter,`, "and children under twelve need an adult with them."] },
      { lines: [`The ${topic.toLowerCase()} fee is four euros, paid in cash at the gate.`] },
    ]);
  return buildPdf([page("Harbor"), page("Beacon"), page("Ferry")]);
}

test("every format through the CLI: upload stores files/<id>.<format> and prints nothing on stderr; bench and questions take any document path", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-formats-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const files: Record<string, Buffer> = {
      "rules.pdf": rulesPdf(),
      "notes.md": Buffer.from("# Ferry notes\n\nThe ferry leaves at **noon** from [pier 4](https://example.com).\n\n- tickets\n  - bikes\n"),
      "page.htm": Buffer.from("<!doctype html><html><head><script>alert(1)</script></head><body><h1>Pier</h1><p>The pier closes at nine.</p></body></html>"),
      "plain.txt": Buffer.from("The harbor office opens at eight.\n\nIt closes at five.\n"),
    };
    const formats: string[] = [];
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(join(dir, name), bytes);
      const r = await runCliProcess(["upload", join(dir, name), "--json"], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "", `${name}: nothing on stderr (pdfjs must not print)`);
      const doc = JSON.parse(r.stdout);
      assert.equal(doc.filename, name);
      formats.push(
        readdirSync(join(dir, "data", "files"))
          .find((f) => f.startsWith(doc.id))!
          .split(".")[1]!,
      );
    }
    assert.deepEqual(formats, ["pdf", "md", "html", "txt"]);

    const out = join(dir, "rules.questions.json");
    const generated = await runCliProcess(["questions", "generate", join(dir, "rules.pdf"), "--count", "3", "--out", out], env);
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(JSON.parse(readFileSync(out, "utf8")).questions.length, 3);
    const bench = await runCliProcess(["bench", join(dir, "rules.pdf"), "--questions", out, "-s", "fixed_size", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);
    assert.equal(JSON.parse(bench.stdout).questions_count, 3);
    const report = join(dir, "report.html");
    const plainQuestions = join(dir, "notes.questions.json");
    writeFileSync(plainQuestions, JSON.stringify({ questions: [{ question: "When does the ferry leave?" }] }));
    const md = await runCliProcess(
      ["bench", join(dir, "notes.md"), "--questions", plainQuestions, "-s", "recursive", "--out", report, "--view", "technical"],
      env,
    );
    assert.equal(md.code, 0, md.stderr);
    assert.match(readFileSync(report, "utf8"), /The ferry leaves at noon from pier 4\./);
    // The same bytes are not uploaded twice: bench reused the stored Markdown document.
    assert.equal(JSON.parse((await runCliProcess(["documents", "--json"], env)).stdout).total, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
