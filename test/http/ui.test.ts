// Issue 40, items 1 to 4 (in part): `chunkeval ui` and /ui/ in a real Chromium, talking to a real server
// through the documented HTTP API only; nothing is loaded from anywhere but the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { handbookBytes } from "../helpers/documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startLongRunning, stop } from "../helpers/long-running.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

/** A page that fails the test on a console error or on any request that does not go to `server`. */
async function openUi(browser: Awaited<ReturnType<typeof launchChromium>>, server: string) {
  const page = await browser.newPage();
  const problems: string[] = [];
  // The browser logs an API's refusal (401 before the key, 404 for a strategy not processed yet) as
  // a failed load: those are answers the page handles. Any other console error, and any of the
  // page's own files not served, is a problem.
  const apiRefusal = (m: { text(): string; location(): { url: string } }) =>
    /status of 4\d\d/.test(m.text()) && !new URL(m.location().url || server).pathname.startsWith("/ui");
  page.on("console", (m) => m.type() === "error" && !apiRefusal(m) && problems.push(`console: ${m.text()}`));
  page.on("response", (r) => new URL(r.url()).pathname.startsWith("/ui/") && r.status() !== 200 && problems.push(`${r.url()}: ${r.status()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => !r.url().startsWith(server) && problems.push(`request elsewhere: ${r.url()}`));
  await page.goto(`${server}/ui`);
  return { page, problems };
}

/** The page on a document, the handbook's first `count` questions imported from a file (as a person imports them). */
async function openWithQuestions(browser: Awaited<ReturnType<typeof launchChromium>>, server: string, documentId: string, dir: string, count: number) {
  const file = join(dir, "handbook.json");
  writeFileSync(file, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, count)));
  const opened = await openUi(browser, server);
  await opened.page.click(`#documents button[data-id="${documentId}"]`);
  await opened.page.waitForSelector('.column[data-strategy=""] .text');
  await opened.page.setInputFiles("#questions-import", file);
  await opened.page
    .locator("#question-list li")
    .nth(count - 1)
    .waitFor();
  return opened;
}

/** A full-page screenshot kept with the test artifacts (.ci/run keeps the folder), for a person to look at each step. */
async function screenshot(page: Page, name: string) {
  const folder = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/** The positions of the chunks a column draws over the text, from the spans' data. */
const drawnChunks = (page: Page, strategy: string) =>
  page.$$eval(`.column[data-strategy="${strategy}"] .text span[data-chunks]`, (spans) => [
    ...new Set(spans.flatMap((s) => s.getAttribute("data-chunks")!.split(" ").map(Number))),
  ]);

const chunksOf = async (t: TestServer, id: string, strategy: string) =>
  (await t.request("GET", `/documents/${id}/chunks?strategy=${encodeURIComponent(strategy)}`)).body.chunks as Array<{
    position: number;
    start: number;
    end: number;
    token_count: number;
  }>;

test("the UI lists documents, shows a document's structure and several strategies' chunks side by side, and processes one", async () => {
  const t = await startTestServer();
  const browser = await launchChromium();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    assert.equal((await t.request("POST", `/documents/${doc.id}/process`, { strategies: ["recursive"] })).status, 200);
    const { page, problems } = await openUi(browser, t.url);
    assert.equal(new URL(page.url()).pathname, "/ui/", "/ui redirects to the page");

    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.waitForSelector("#document:not([hidden])");
    assert.equal(await page.textContent("#doc-title"), "handbook.docx");
    // The extracted text comes first, whole, its headings marked.
    const stored = (await t.request("GET", `/documents/${doc.id}`)).body;
    assert.equal(await page.$eval('.column[data-strategy=""] .text', (e) => e.textContent), stored.text);
    assert.equal(
      await page.locator('.column[data-strategy=""] .text .heading').first().textContent(),
      stored.blocks.find((b: { kind: string }) => b.kind === "heading").text,
    );
    const headings = (await t.request("GET", `/documents/${doc.id}`)).body.blocks.filter((b: { kind: string }) => b.kind === "heading");
    assert.ok(headings.length > 0);
    assert.match((await page.textContent("#doc-facts"))!, new RegExp(`${headings.length} headings`));
    assert.equal(await page.locator("#headings li").count(), headings.length, "the structure lists every heading");

    // Two strategies side by side: the processed one drawn chunk by chunk, as the API lists them.
    await page.fill("#strategy", "recursive");
    await page.click("#add-strategy button");
    await page.waitForSelector('.column[data-strategy="recursive"] .text');
    const recursive = await chunksOf(t, doc.id, "recursive");
    assert.deepEqual(
      (await drawnChunks(page, "recursive")).sort((a, b) => a - b),
      recursive.map((c) => c.position),
    );
    const firstTitle = await page.getAttribute('.column[data-strategy="recursive"] .text span[data-chunks]', "title");
    const first = recursive[0]!;
    assert.ok(firstTitle!.includes(`chunk 1 of ${recursive.length}: ${first.token_count} tokens, characters ${first.start}-${first.end}`), firstTitle!);
    assert.equal(await page.locator('.column[data-strategy="recursive"] svg.histogram rect').count(), 10);
    assert.match((await page.textContent('.column[data-strategy="recursive"] .facts'))!, new RegExp(`^${recursive.length} chunks, `));
    // Drawn in runs the browser lays out only in view, each ending at a line's end (no line split between two).
    const runs = (await page.evaluate(`[...document.querySelectorAll('.column[data-strategy="recursive"] .text .run')]
      .map((b) => [b.textContent.endsWith("\\n"), getComputedStyle(b).contentVisibility])`)) as Array<[boolean, string]>;
    assert.ok(runs.length >= 2, `${runs.length} runs`);
    assert.ok(
      runs.slice(0, -1).every(([atLineEnd, visibility]) => atLineEnd && visibility === "auto"),
      JSON.stringify(runs),
    );
    // The text drawn is the document's text, whole and in order.
    const drawn = await page.$eval('.column[data-strategy="recursive"] .text', (e) => e.textContent);
    assert.equal(drawn, (await t.request("GET", `/documents/${doc.id}`)).body.text);

    // One not processed yet: processed from the page, in the background, then drawn.
    await page.fill("#strategy", "fixed_size@chunk_size=128");
    await page.click("#add-strategy button");
    const column = '.column[data-strategy="fixed_size@chunk_size=128"]';
    await page.waitForSelector(`${column} header button:text("Process it")`);
    await page.click(`${column} header button:text("Process it")`);
    await page.waitForSelector(`${column} .text`, { timeout: 60_000 });
    const fixed = await chunksOf(t, doc.id, "fixed_size@chunk_size=128");
    assert.ok(fixed.length > 0);
    assert.equal((await drawnChunks(page, "fixed_size@chunk_size=128")).length, fixed.length);
    assert.equal(await page.locator(".column").count(), 3, "the extracted text and two strategies side by side");
    await screenshot(page, "ui-chunks");

    // The columns scroll together by the text: scrolled in one, each other column shows at its top the span holding the same character.
    await page.$eval('.column[data-strategy=""] .text', (e) => e.scrollTo(0, 900));
    await page.waitForTimeout(300);
    const tops = (await page.evaluate(`[...document.querySelectorAll("#columns .text")].map((box) => {
      const top = box.getBoundingClientRect().top;
      const span = [...box.querySelectorAll("span[data-start]")].find((s) => s.getBoundingClientRect().bottom > top + 1);
      return [Number(span.getAttribute("data-start")), span.textContent.length];
    })`)) as Array<[number, number]>;
    assert.equal(tops.length, 3);
    const [at] = tops[0]!;
    assert.ok(at > 0, "the text column scrolled");
    for (const [start, length] of tops.slice(1)) assert.ok(start <= at && at < start + length, `${JSON.stringify(tops)}`);
    const jobs = (await t.request("GET", "/jobs")).body.items as Array<{
      job_type: string;
      status: string;
      result?: { strategies_completed: Array<{ strategy: string }> };
    }>;
    assert.ok(
      jobs.some(
        (j) => j.job_type === "process" && j.status === "completed" && j.result!.strategies_completed.some((s) => s.strategy === "fixed_size@chunk_size=128"),
      ),
      "processed by a background job",
    );

    // A variant the server refuses says why, in its column.
    await page.fill("#strategy", "recursive@chunk_size=banana");
    await page.click("#add-strategy button");
    await page.waitForSelector('.column[data-strategy="recursive@chunk_size=banana"] .error');

    // Uploading from the page stores the file and opens it.
    const dir = mkdtempSync(join(tmpdir(), "chunkeval-ui-"));
    const notes = join(dir, "notes.md");
    writeFileSync(notes, "# Keeper's notes\n\nThe lamp was trimmed at dusk and the log was signed by the keeper on duty.\n");
    await page.setInputFiles("#files", notes);
    await page.waitForSelector('#doc-title:text-is("notes.md")');
    const listed = (await t.request("GET", "/documents")).body.items as Array<{ filename: string }>;
    assert.ok(listed.some((d) => d.filename === "notes.md"));

    // Into a collection, made when new: two files uploaded into it, one the server refuses reported.
    const log = join(dir, "log.md");
    writeFileSync(log, "# Log\n\nThe harbour light was lit at dusk on every day of the winter by the keeper on duty.\n");
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "");
    await page.fill("#collection", "keepers");
    await page.setInputFiles("#files", [notes, log, empty]);

    await page.locator("#status", { hasText: "Uploaded 2 of 3 files into the collection keepers" }).waitFor();
    assert.match((await page.textContent("#status"))!, /Refused: empty\.txt: /);
    const collection = (await t.request("GET", "/collections/keepers")).body;
    assert.deepEqual(collection.documents.map((d: { filename: string }) => d.filename).sort(), ["log.md", "notes.md"]);

    // Dropped on the upload area: stored and opened as a chosen file is (a dropped folder is read through its entries the same way).
    await page.fill("#collection", "");
    const dropped = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      const text = "# Tide table\\n\\nHigh water at the harbour mouth comes forty minutes after the pier.\\n";
      transfer.items.add(new File([text], "tides.md", { type: "text/markdown" }));
      return transfer;
    })()`);
    await page.dispatchEvent("#upload", "dragover", { dataTransfer: dropped });
    await page.dispatchEvent("#upload", "drop", { dataTransfer: dropped });
    await page.waitForSelector('#doc-title:text-is("tides.md")');
    const tides = ((await t.request("GET", "/documents")).body.items as Array<{ id: string; filename: string }>).find((d) => d.filename === "tides.md")!;
    assert.match((await t.request("GET", `/documents/${tides.id}`)).body.text, /forty minutes after the pier/);

    // Deleted from the page, once confirmed: gone from the list and from the server.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("#doc-delete");
    await page.locator("#status", { hasText: "Deleted tides.md." }).waitFor();
    assert.equal(await page.locator("#documents button", { hasText: "tides.md" }).count(), 0);
    assert.equal((await t.request("GET", `/documents/${tides.id}`)).status, 404);
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.waitForSelector("#document:not([hidden])");

    // At a phone's width (390 px) nothing runs off the page's side: the columns scroll within their row.
    await page.setViewportSize({ width: 390, height: 844 });
    // What runs off the side when something does: elements past the edge with no scrolling box around them.
    const overflowing = await page.evaluate(`[...document.querySelectorAll("body *")]
      .filter((e) => {
        if (e.getBoundingClientRect().right <= 391) return false;
        for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return false;
        return true;
      })
      .map((e) => e.tagName + ": " + e.textContent.slice(0, 40))`);
    assert.ok(((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 390, `the page scrolls sideways: ${JSON.stringify(overflowing)}`);
    await screenshot(page, "ui-390px");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test("questions by selection: a passage selected becomes a reference with its offsets; validated, exported, imported, generated, kept", async () => {
  const t = await startTestServer();
  const browser = await launchChromium();
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ui-questions-"));
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    const text: string = (await t.request("GET", `/documents/${doc.id}`)).body.text;
    const sentence = "Board elections are held every March at the annual general meeting.";
    const start = text.indexOf(sentence);
    assert.ok(start > 0);
    const { page, problems } = await openUi(browser, t.url);
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.waitForSelector('.column[data-strategy=""] .text');

    // The person selects the sentence (and the space after it) in the extracted text, as a mouse would.
    // (A string, run in the page: this file is type-checked without the DOM's types.)
    await page.evaluate(`(() => {
      const wanted = ${JSON.stringify(sentence)};
      const box = document.querySelector('.column[data-strategy=""] .text');
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent.indexOf(wanted);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, Math.min(node.textContent.length, at + wanted.length + 1));
        document.getSelection().removeAllRanges();
        document.getSelection().addRange(range);
        document.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
        return;
      }
      throw new Error("the sentence is not in one text node");
    })()`);
    await page.waitForSelector("#question-form:not([hidden])");
    assert.equal(await page.textContent("#question-offsets"), `characters ${start}-${start + sentence.length}`, "trimmed of the space");
    assert.equal(await page.textContent("#question-reference"), sentence);
    await page.fill("#question-text", "When does the cooperative choose its directors?");
    await page.fill("#question-answer", "Every March.");
    await page.click('#question-form button[type="submit"]');
    assert.equal(await page.locator("#question-list li").count(), 1);

    // By keyboard: a selection extended with Shift and the arrow keys is offered when Shift is let go.
    await page.evaluate(`(() => {
      const box = document.querySelector('.column[data-strategy=""] .text');
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent.indexOf(${JSON.stringify(sentence)});
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 5);
        document.getSelection().removeAllRanges();
        document.getSelection().addRange(range);
        return;
      }
    })()`);
    assert.equal(await page.isVisible("#question-form"), false);
    await page.keyboard.down("Shift");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.keyboard.up("Shift");
    await page.waitForSelector("#question-form:not([hidden])");
    assert.equal(await page.textContent("#question-offsets"), `characters ${start}-${start + 8}`);
    await page.click("#question-cancel");

    await page.click("#questions-check");
    await page.waitForSelector("#questions-report .ok");
    assert.match((await page.textContent("#questions-report"))!, /1 questions, 1 references: 1 found as written/);

    await screenshot(page, "ui-questions");
    // Exported as the questions file bench reads: the reference with its offsets in the document.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#questions-export")]);
    assert.equal(download.suggestedFilename(), "handbook.questions.json");
    const exported = join(dir, "handbook.questions.json");
    await download.saveAs(exported);
    const file = JSON.parse(readFileSync(exported, "utf8"));
    assert.deepEqual(file, [
      {
        question: "When does the cooperative choose its directors?",
        expected_answer: "Every March.",
        references: [{ text: sentence, start, end: start + sentence.length }],
      },
    ]);
    const bench = await t.request("POST", "/benchmarks", { document_id: doc.id, questions: file, strategies: ["fixed_size"], dry_run: true });
    assert.equal(bench.status, 201, bench.text);

    // Imported: a reference the document does not hold is a problem, with the closest passage to paste.
    const wrong = join(dir, "wrong.jsonl");
    writeFileSync(
      wrong,
      [
        { question: "Who counts the votes?", references: [{ text: "Board elections are held every April at the yearly meeting." }] },
        // A reference as a file gives it: no offsets, its white space not the document's.
        { question: "When are elections held?", references: [{ text: "Board elections  are held\nevery March" }] },
      ]
        .map((q) => JSON.stringify(q) + "\n")
        .join(""),
    );
    await page.setInputFiles("#questions-import", wrong);
    await page.locator("#question-list li").nth(2).waitFor();
    // Shown without offsets: found in the text up to white space; one the text does not hold is said.
    await page.click('#question-list li[data-item="3"] button:has-text("Show")');
    assert.equal((await page.locator('.column[data-strategy=""] .text .reference').allTextContents()).join(""), "Board elections are held every March");
    await page.click('#question-list li[data-item="2"] button:has-text("Show")');
    await page.locator("#status.error", { hasText: "not in the text as written" }).waitFor();
    await page.click('#question-list li[data-item="3"] button.delete');
    await page.click("#questions-check");
    await page.waitForSelector('#questions-report .problem[data-kind="reference_not_found"]');
    assert.match(
      (await page.textContent('#questions-report [data-kind="reference_not_found"]'))!,
      /Item 2 .*Closest passage .*Board elections are held every March/,
    );
    await page.click('#question-list li[data-item="2"] button.delete');
    assert.equal(await page.locator("#question-list li").count(), 1);

    // Generated by the template beside it: the set is then a smoke test, and the check says so.
    await page.fill("#generate-count", "3");
    await page.click("#questions-generate");
    await page.locator("#question-list li").nth(3).waitFor();
    await page.click("#questions-check");
    await page.waitForSelector('#questions-report [data-kind="smoke_test"]');

    // Shown in the text; kept over a reload.
    await page.click('#question-list li[data-item="1"] button:has-text("Show")');
    const marked = (await page.locator('.column[data-strategy=""] .text .reference').allTextContents()).join("");
    assert.equal(marked, sentence, "the reference marked to the character");
    await page.reload();
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.locator("#question-list li").nth(3).waitFor();
    assert.equal(await page.locator("#question-list li").count(), 4);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test("a benchmark from the page: run in the background, its verdict and scorecard as the API says, each question's retrieval in the text; cancel", async () => {
  // A chat model that takes its time, so the run shows progress and can be cancelled midway.
  const stub = await startOpenAiStub({ reply: () => "The answer is in the handbook.", delayMs: 250 });
  const t = await startTestServer({ generator: "openai:chat" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  const browser = await launchChromium();
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ui-run-"));
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    const { page, problems } = await openWithQuestions(browser, t.url, doc.id, dir, 6);
    await page.fill("#run-strategies", "recursive, fixed_size");
    await page.click('#run-form button[type="submit"]');
    await page.waitForSelector("#run-progress:not([hidden])");
    await page.waitForSelector("#run-result h4", { timeout: 60_000 });

    // The verdict and scorecard are the experiment's, as GET /benchmarks/{id} gives them.
    const [summary] = (await t.request("GET", "/experiments")).body.items;
    const experiment = (await t.request("GET", `/benchmarks/${summary.id}`)).body;
    assert.equal(await page.textContent("#run-result h4"), experiment.headline);
    assert.equal(await page.locator(".scorecard tr[data-strategy]").count(), 2);
    // "best" only where the verdict recommends it; otherwise the strategy scored highest, no more.
    const label = experiment.verdict_status === "recommendation" ? "(best)" : "(scored highest)";
    assert.ok((await page.textContent(`.scorecard tr[data-strategy="${experiment.best_strategy}"]`))!.includes(label), experiment.verdict_status);
    const recall = experiment.aggregate_metrics.recursive.avg_recall as number;
    assert.match((await page.textContent('.scorecard tr[data-strategy="recursive"]'))!, new RegExp(recall.toFixed(3).replace(".", "\\.")));
    const href = await page.getAttribute("#run-result a", "href");
    assert.equal((await fetch(new URL(href!, t.url))).status, 200, "the managerial report opens");

    // A question's drill-down: each strategy's retrieved chunks with rank, score and hit or miss as the results say.
    const report = (await t.request("GET", `/benchmarks/${summary.id}/report?format=json`)).body;
    const question = report.results.recursive[0];
    await page.click("#run-result .drill button.question");
    for (const strategy of ["recursive", "fixed_size"]) {
      const retrieved = report.results[strategy][0].retrieved as Array<{ start: number; end: number; score: number }>;
      const items = page.locator(`.drill-detail [data-strategy="${strategy}"] li`);
      assert.equal(await items.count(), retrieved.length);
      for (const [rank, chunk] of retrieved.entries()) {
        const hit = question.references.some((r: { start: number; end: number }) => chunk.start < r.end && r.start < chunk.end);
        const text = (await items.nth(rank).textContent())!;
        assert.ok(text.startsWith(`#${rank + 1} score ${chunk.score.toFixed(3)}, characters ${chunk.start}-${chunk.end}: ${hit ? "hit" : "miss"}`), text);
      }
    }
    await page.click('.drill-detail [data-strategy="recursive"] button');
    const marked = (await page.locator('.column[data-strategy=""] .text .reference').allTextContents()).join("");
    assert.equal(marked, question.references[0].text, "the reference marked to the character");
    // Every retrieved chunk marked where it lies, and nothing else.
    const text: string = (await t.request("GET", `/documents/${doc.id}`)).body.text;
    const spans = await page.$$eval('.column[data-strategy=""] .text span[data-start]', (all) =>
      all.map((s) => ({ start: Number(s.getAttribute("data-start")), length: s.textContent!.length, retrieved: s.classList.contains("retrieved") })),
    );
    const inChunks = (at: number) => (question.retrieved as Array<{ start: number; end: number }>).some((c) => c.start <= at && at < c.end);
    for (const s of spans) assert.equal(s.retrieved, inChunks(s.start), `the span at ${s.start}`);
    assert.equal(
      spans.reduce((n, s) => n + s.length, 0),
      text.length,
    );
    assert.equal(await page.locator("#experiments li button[data-experiment]").count(), 1, "the run is listed with the document's experiments");
    await screenshot(page, "ui-benchmark-drill-down");
    // The README's picture: the verdict, the scorecard and the first question's retrieval, as the window shows them.
    await page.evaluate("document.querySelector('#run').scrollIntoView()");
    await page.screenshot({ path: fileURLToPath(new URL("../../test-artifacts/ui-benchmark.png", import.meta.url)) });

    // The last question's reference lies further down the text: shown, it comes into view inside its column's box.
    const lastQuestion = page.locator("#run-result .drill > li").nth(5);
    await lastQuestion.locator("button.question").click();
    await lastQuestion.locator('.drill-detail [data-strategy="recursive"] button').click();
    const whereShown = `(() => {
      const reference = document.querySelector('.column[data-strategy=""] .text .reference');
      const box = reference.closest(".text").getBoundingClientRect();
      const at = reference.getBoundingClientRect();
      const inBox = at.top >= box.top && at.bottom <= box.bottom;
      return { inBox, inWindow: at.top >= 0 && at.bottom <= innerHeight, top: at.top, box: [box.top, box.bottom] };
    })()`;
    let shown = (await page.evaluate(whereShown)) as { inBox: boolean; inWindow: boolean };
    for (let waited = 0; waited < 30 && !(shown.inBox && shown.inWindow); waited++) {
      await page.waitForTimeout(100);
      shown = (await page.evaluate(whereShown)) as { inBox: boolean; inWindow: boolean };
    }
    assert.ok(shown.inBox && shown.inWindow, `the reference is out of view: ${JSON.stringify(shown)}`);

    // A second run (recursive alone, top 2) beside the first: compared question by question.
    await page.fill("#run-strategies", "recursive");
    await page.fill("#run-top-k", "2");
    await page.click("#past summary");
    await page.click('#run-form button[type="submit"]');
    await page.locator("#experiments li button[data-experiment]").nth(1).waitFor({ timeout: 60_000 });
    const boxes = page.locator('#experiments input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.click("#compare");
    await page.waitForSelector("#run-result .comparison");
    const newest = (await t.request("GET", "/experiments")).body.items[0];
    const second = (await t.request("GET", `/benchmarks/${newest.id}/report?format=json`)).body;
    const rows = page.locator("#run-result .comparison tr[data-question]");
    assert.equal(await rows.count(), 6);
    type Result = { retrieved: Array<{ start: number; end: number }>; references: Array<{ start: number; end: number }>; metrics: { recall: number } };
    const said = (exp: { results: Record<string, Result[]> }) => {
      const r = exp.results.recursive![0]!;
      const rank = r.retrieved.findIndex((c) => r.references.some((ref) => c.start < ref.end && ref.start < c.end));
      return `recursive: ${rank === -1 ? "miss" : `hit at ${rank + 1}`}, recall ${r.metrics.recall.toFixed(3)}`;
    };
    // Ticked newest first, as the list shows them: the second run, then the first.
    assert.deepEqual(await rows.first().locator('div[data-strategy="recursive"]').allTextContents(), [said(second), said(report)]);
    assert.equal(await rows.first().locator('div[data-strategy="fixed_size"]').count(), 1, "fixed_size only in the first run");

    // Cancelled midway: the job stops and the page says why.
    await page.fill("#run-strategies", "recursive, fixed_size");
    await page.fill("#run-top-k", "");
    await page.click('#run-form button[type="submit"]');
    await page.locator("#run-line", { hasText: "running" }).waitFor({ timeout: 30_000 });
    await page.click("#run-cancel");
    await page.locator("#run-result .problem", { hasText: "cancelled: stopped at a client's request" }).waitFor({ timeout: 30_000 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
    await stub.close();
  }
});

test("a benchmark over a collection from the page: every question searches both documents, chunks of the other one named", async () => {
  const t = await startTestServer();
  const browser = await launchChromium();
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ui-collection-"));
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    // A second document worded like the handbook, so that its chunks compete for the questions.
    const notes = (
      await t.upload("notes.md", Buffer.from("# Notes\n\nMembers vote at the annual meeting; the board meets monthly about billing and outages.\n"))
    ).body;
    assert.equal((await t.request("POST", "/collections", { name: "shelf", document_ids: [doc.id, notes.id] })).status, 201);
    const { page, problems } = await openWithQuestions(browser, t.url, doc.id, dir, 4);
    // A question of a set written for the collection: its reference names the other document, and keeps it.
    const other = join(dir, "other.json");
    writeFileSync(
      other,
      JSON.stringify([{ question: "How often does the board meet?", references: [{ document: "notes.md", text: "the board meets monthly" }] }]),
    );
    await page.setInputFiles("#questions-import", other);
    await page.locator("#question-list li").nth(4).waitFor();
    assert.deepEqual(await page.locator("#run-scope option").allTextContents(), ["this document (handbook.docx)", "the collection shelf (2 documents)"]);
    await page.selectOption("#run-scope", { label: "the collection shelf (2 documents)" });
    // Validated as the run will search: over the collection, the references found in the handbook.
    await page.click("#questions-check");
    await page.locator("#questions-report", { hasText: "5 questions" }).waitFor();
    assert.doesNotMatch((await page.textContent("#questions-report"))!, /not found/);
    await page.fill("#run-strategies", "recursive");
    await page.fill("#run-top-k", "8");
    await page.click('#run-form button[type="submit"]');
    await page.waitForSelector("#run-result h4", { timeout: 60_000 });

    const [summary] = (await t.request("GET", "/experiments")).body.items;
    const report = (await t.request("GET", `/benchmarks/${summary.id}/report?format=json`)).body;
    assert.deepEqual(report.collection.documents.map((d: { filename: string }) => d.filename).sort(), ["handbook.docx", "notes.md"]);
    assert.equal(await page.textContent("#run-result h4"), report.headline);
    // Each retrieved chunk's line names its document when it is not the one shown.
    const results = report.results.recursive as Array<{ retrieved: Array<{ document_id: string }> }>;
    const fromNotes = results.flatMap((r) => r.retrieved).filter((c) => c.document_id === notes.id).length;
    assert.ok(fromNotes > 0, "the other document's chunks were searched and retrieved");
    for (const [i, result] of results.entries()) {
      const item = page.locator("#run-result .drill > li").nth(i);
      await item.locator("button.question").click();
      const lines = await item.locator('.drill-detail [data-strategy="recursive"] li').allTextContents();
      assert.deepEqual(
        lines.map((line) => line.includes(" in notes.md:")),
        result.retrieved.map((c) => c.document_id === notes.id),
        lines.join("\n"),
      );
    }
    await page.click("#past summary");
    assert.match((await page.textContent(`#experiments button[data-experiment="${summary.id}"]`))!, /the collection shelf/);
    await screenshot(page, "ui-benchmark-collection");

    // A sweep, on the document alone (the question about notes.md taken out first: the handbook cannot answer it).
    await page.click('#question-list li[data-item="5"] button.delete');
    await page.selectOption("#run-scope", "");
    await page.fill("#run-strategies", "");
    await page.fill("#run-sweep", "fixed_size:chunk_size=64,128");
    await page.click('#run-form button[type="submit"]');
    await page.locator(`#experiments button[data-experiment]`).nth(1).waitFor({ timeout: 60_000 });
    const [swept] = (await t.request("GET", "/experiments")).body.items;
    assert.deepEqual(swept.strategies_used, ["fixed_size@chunk_size=64", "fixed_size@chunk_size=128"]);
    assert.equal(swept.document_id, doc.id);
    assert.deepEqual(
      await page.locator(".scorecard tr[data-strategy]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-strategy"))),
      swept.strategies_used,
    );
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test("with CHUNKEVAL_API_KEY set, the UI asks for the key once and sends it", async () => {
  const t = await startTestServer({}, { CHUNKEVAL_API_KEY: "s3cret" });
  const browser = await launchChromium();
  try {
    const headers = { authorization: "Bearer s3cret" };
    const doc = (await t.upload("handbook.docx", handbookBytes(), headers)).body;
    assert.equal((await t.request("GET", "/ui/")).status, 200, "the page itself needs no key");
    assert.equal((await t.request("GET", "/documents")).status, 401, "the API still does");
    const { page, problems } = await openUi(browser, t.url);
    await page.waitForSelector("#key-dialog[open]");
    await page.fill("#key", "s3cret");
    await page.click("#key-form button");
    await page.waitForSelector(`#documents button[data-id="${doc.id}"]`);
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.waitForSelector("#document:not([hidden])");
    // Asked once: the page opened again in the same session goes straight to the documents.
    await page.reload();
    await page.waitForSelector(`#documents button[data-id="${doc.id}"]`);
    assert.equal(await page.isVisible("#key-dialog[open]"), false, "asked once");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test("by keyboard: a document opened with Enter, every control reached by Tab with a visible focus ring and a name a screen reader reads", async () => {
  const t = await startTestServer();
  const browser = await launchChromium();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    assert.equal((await t.request("POST", `/documents/${doc.id}/process`, { strategies: ["recursive"] })).status, 200);
    const { page, problems } = await openUi(browser, t.url);
    await page.waitForSelector(`#documents button[data-id="${doc.id}"]`);
    // Tab from the top of the page to the document's button, and Enter opens it.
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = (await page.evaluate("document.activeElement.getAttribute('data-id')")) === doc.id;
    }
    assert.ok(reached, "the document's button is reached by Tab");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#document:not([hidden])");
    // A strategy's column, by keyboard too: typed into the field, Enter.
    await page.focus("#strategy");
    await page.keyboard.type("recursive");
    await page.keyboard.press("Enter");
    await page.waitForSelector('.column[data-strategy="recursive"] .text');

    // Every control shown, walked by Tab: each is reached, shows a focus ring and has a name.
    const controls = `[...document.querySelectorAll("button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex='-1'])")]
      .filter((e) => !e.disabled && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")`;
    const describe = `(e) => e.id ? "#" + e.id : e.tagName.toLowerCase() + ":" + (e.getAttribute("aria-label") ?? e.textContent.trim()).slice(0, 30)`;
    const shown = (await page.evaluate(`${controls}.map(${describe})`)) as string[];
    assert.ok(shown.length > 15, JSON.stringify(shown));
    await page.focus("body");
    const focused = new Map<string, { id: string; ring: boolean; name: string }>();
    for (let i = 0; i < shown.length + 40; i++) {
      await page.keyboard.press("Tab");
      const at = (await page.evaluate(`(() => {
        const e = document.activeElement;
        const style = getComputedStyle(e);
        const label = e.labels?.[0]?.textContent ?? "";
        const name = (e.getAttribute("aria-label") ?? e.getAttribute("title") ?? "") + label + (e.tagName === "INPUT" ? "" : e.textContent);
        return { id: (${describe})(e), ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1, name: name.trim() };
      })()`)) as { id: string; ring: boolean; name: string };
      focused.set(at.id, at);
    }
    assert.deepEqual(
      shown.filter((id) => !focused.has(id)),
      [],
      "every control shown is reached by Tab",
    );
    const withoutRing = [...focused.values()].filter((f) => shown.includes(f.id) && !f.ring).map((f) => f.id);
    assert.deepEqual(withoutRing, [], "each shows where the keyboard is");
    const nameless = [...focused.values()].filter((f) => shown.includes(f.id) && f.name === "").map((f) => f.id);
    assert.deepEqual(nameless, [], "each has a name a screen reader reads");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test("a server error is said to the person in words, not a blank page: an embedding provider that fails, then the server gone", async () => {
  // A stand-in for a paid embedding API that answers without the embeddings: processing fails on the server.
  const stub = await startOpenAiStub({ rawBody: "{}" });
  const t = await startTestServer({ embedder: "openai:text-embedding-3-small" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  const browser = await launchChromium();
  let closed = false;
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body;
    const { page, problems } = await openUi(browser, t.url);
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.waitForSelector("#document:not([hidden])");
    await page.fill("#strategy", "recursive");
    await page.click("#add-strategy button");
    const column = '.column[data-strategy="recursive"]';
    await page.click(`${column} header button:text("Process it")`);
    const said = page.locator(`${column} header p.error`);
    await said.waitFor({ timeout: 60_000 });
    // The job ran to its end and says the strategy failed (a job that drew "not processed yet" again said nothing).
    const jobs = (await t.request("GET", "/jobs")).body.items as Array<{ result: { strategies_failed: Array<{ strategy: string; error: string }> } }>;
    const failed = jobs[0]!.result.strategies_failed[0]!;
    assert.equal(failed.strategy, "recursive", JSON.stringify(jobs));
    assert.equal(await said.textContent(), `recursive: ${failed.error}`, "the server's own words");
    assert.match(failed.error, /returned no embeddings/);
    assert.ok((await page.textContent('.column[data-strategy=""] .text'))!.length > 100, "the document stays on the page");
    assert.equal(await page.isEnabled(`${column} header button.process`), true, "it can be tried again");
    await screenshot(page, "ui-server-error");
    assert.deepEqual(problems, []);

    // The server stops: the next call says so, and how to go on.
    await t.close();
    closed = true;
    await page.click(`#documents button[data-id="${doc.id}"]`);
    await page.locator("#status.error", { hasText: "The chunkeval server did not answer" }).waitFor();
    assert.ok((await page.textContent('.column[data-strategy=""] .text'))!.length > 100, "what was shown stays");
    await screenshot(page, "ui-server-gone");
  } finally {
    await browser.close();
    if (!closed) await t.close();
    await stub.close();
  }
});

test("chunkeval ui prints its URL, serves the page from the package with a strict content policy, and stops on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ui-cli-"));
  const ui = await startLongRunning(["ui"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" }, /chunkeval UI on (\S+)/);
  try {
    const url = ui.match[1]!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/ui\/$/);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /^text\/html/);
    assert.match(page.headers.get("content-security-policy")!, /default-src 'self'/);
    const html = await page.text();
    assert.doesNotMatch(html, /https?:\/\//, "nothing from the network");
    for (const file of ["ui.js", "ui.css"]) assert.equal((await fetch(new URL(file, url))).status, 200, file);
    assert.equal((await fetch(new URL("../openapi.json", url))).status, 200, "the API beside it");
  } finally {
    await stop(ui.child);
  }
  assert.equal(ui.child.exitCode, 0);
  // Started again on the same data directory: the same address, so the question sets the browser keeps for it are there.
  const again = await startLongRunning(["ui"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" }, /chunkeval UI on (\S+)/);
  // Its port taken by that one, a third start takes another free port rather than failing.
  const third = await startLongRunning(["ui"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" }, /chunkeval UI on (\S+)/);
  try {
    assert.equal(again.match[1], ui.match[1]);
    assert.notEqual(third.match[1], ui.match[1]);
    assert.match(third.stderr(), new RegExp(`port ${new URL(ui.match[1]!).port}, this data directory's last, is taken`));
    assert.equal(readFileSync(join(dir, "data", "ui-port"), "utf8").trim(), new URL(ui.match[1]!).port, "the last port stays on record");
    assert.equal((await fetch(third.match[1]!)).status, 200);
  } finally {
    await stop(again.child);
    await stop(third.child);
  }
});
