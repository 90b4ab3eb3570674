import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderHtmlReport, type ReportView } from "../../src/reports/render.js";
import { scatterChart } from "../../src/reports/charts.js";
import { chunkMapSource } from "../../src/services/benchmarking/chunk-map-source.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { questionLeak } from "../../src/evaluators/question-set.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { launchChromium } from "../helpers/browser.js";

const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));

test("both report views of a real experiment render in Chromium: charts drawn, no network, no console error, printable", async () => {
  const ws = await createWorkspace();
  const browser = await launchChromium();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 6);
    const experiment = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "harbor-light-handbook.json",
      strategies: "all",
      topK: 3,
    });
    const results = await ws.app.experimentResults(experiment.experimentId);
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const view of ["managerial", "technical"] as ReportView[]) {
      const file = join(ARTIFACTS, `report-${view}.html`);
      writeFileSync(
        file,
        renderHtmlReport(
          { metrics: BUILT_IN_METRICS, experiment, results, chunkMap: await chunkMapSource(ws.internals.context, experiment.experimentId) },
          view,
        ),
      );
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      const consoleErrors: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
      page.on("pageerror", (e) => consoleErrors.push(e.message));
      await page.goto("file://" + file, { waitUntil: "load" });
      const charts = await page.$$eval("svg.chart", (svgs) =>
        svgs.map((s) => ({ marks: s.querySelectorAll("rect, circle").length, width: s.getBoundingClientRect().width })),
      );
      assert.ok(charts.length >= (view === "managerial" ? 3 : 10), `${view}: ${charts.length} charts`);
      assert.ok(
        charts.every((c) => c.marks > 0 && c.width > 100),
        `${view}: every chart draws marks`,
      );
      assert.match((await page.textContent("body")) ?? "", new RegExp(experiment.bestStrategy));
      assert.deepEqual(
        requests.filter((u) => !u.startsWith("file://")),
        [],
        `${view}: no network request`,
      );
      assert.deepEqual(consoleErrors, [], `${view}: no console error`);
      // Point labels of the scatter charts never overlap one another.
      const overlapping = await page.$$eval("svg.chart", (svgs) =>
        svgs.flatMap((svg) => {
          const boxes = [...svg.querySelectorAll("text.point-label")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
          return boxes.flatMap((a, i) =>
            boxes
              .slice(i + 1)
              .filter((b) => a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom)
              .map((b) => `${a.text} / ${b.text}`),
          );
        }),
      );
      assert.deepEqual(overlapping, [], `${view}: overlapping chart labels`);
      if (view === "technical") {
        // The chunk map: one per strategy, references underlined, parents drawn; a question's link outlines what it retrieved.
        assert.equal(await page.locator(".cm").count(), experiment.strategiesUsed.length);
        assert.ok((await page.locator(".cm .ref").count()) > 0);
        assert.ok((await page.locator(".cm sup.parent").count()) > 0, "semantic_parent_child shows its parents");
        assert.ok((await page.locator(".cm .ov").count()) > 0, "overlapping chunks are visible");
        const outlined = () =>
          page.$$eval(
            ".cm .q1",
            (els) =>
              els.filter(
                (e) => (globalThis as unknown as { getComputedStyle(el: unknown): { outlineStyle: string } }).getComputedStyle(e).outlineStyle === "solid",
              ).length,
          );
        assert.equal(await outlined(), 0);
        await page.locator("details").first().locator("a.cm-mark").click();
        assert.ok((await outlined()) > 0, "the chunks question 1 retrieved are outlined");
        assert.ok(await page.locator(".cm-status .s1").isVisible());
      }
      await page.screenshot({ path: join(ARTIFACTS, `report-${view}.png`), fullPage: view === "managerial" });
      // Printed (print stylesheet applied): the PDF has pages and the charts survive.
      await page.emulateMedia({ media: "print" });
      assert.ok(await page.$$eval("svg.chart", (svgs) => svgs.every((s) => s.getBoundingClientRect().width > 100)), `${view}: charts visible in print`);
      const pdf = await page.pdf({ path: join(ARTIFACTS, `report-${view}.pdf`), format: "A4" });
      assert.ok(pdf.length > 10_000, `${view}: printed to PDF`);
      await page.close();
    }

    // Crowded points (equal and nearly equal values) still get labels that do not overlap.
    const crowded = scatterChart(
      "crowded",
      ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child"].map((label, i) => ({
        label,
        x: i < 3 ? 0.001 : 0.0011,
        y: i < 2 ? 7 : 7 + i * 0.01,
      })),
      { x: "cost", y: "score", xBounds: { min: 0 }, yBounds: { min: 0, max: 10 } },
    );
    const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
    await page.setContent(`<html><body style="font: 15px system-ui"><style>.label { font-size: 11px; }</style>${crowded}</body></html>`);
    const boxes = await page.$$eval("text.point-label", (ts) =>
      ts.map((t) => t.getBoundingClientRect()).map((b) => ({ l: b.left, r: b.right, t: b.top, b: b.bottom })),
    );
    assert.equal(boxes.length, 5);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        assert.ok(!(a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b), `labels ${i} and ${j} overlap`);
      }
    await page.close();
  } finally {
    await browser.close();
    await ws.cleanup();
  }
});

test("the managerial box of a clear winner, of no clear winner and of a single strategy fits the first screen, its answer first", async () => {
  const ws = await createWorkspace();
  const browser = await launchChromium();
  try {
    const questions = await loadQuestionsFile("questions/harbor-light-handbook.json");
    // Eight that copy little of their excerpts' wording (a set that copies most is a smoke test, not a verdict).
    const fewQuestions = questions
      .filter(
        (q) =>
          (questionLeak(
            q.question,
            q.references.map((r) => r.text),
          ) ?? 1) < 0.5,
      )
      .slice(0, 8);
    const bench = (strategies: string[], asked: typeof questions) =>
      ws.app.bench({
        document: { filename: "handbook.docx", bytes: handbookBytes() },
        questions: asked,
        questionsSource: "harbor-light-handbook.json",
        strategies,
        topK: 3,
      });
    const cases = [
      // Chunks of a few words against whole sections, over every question: a lead the questions can tell.
      { name: "clear-winner", experiment: await bench(["recursive", "fixed_size@chunk_size=16:chunk_overlap=0"], questions), status: "recommendation" },
      { name: "no-clear-winner", experiment: await bench(["recursive", "fixed_size", "structure"], fewQuestions), status: "no_clear_winner" },
      { name: "single-strategy", experiment: await bench(["recursive"], fewQuestions), status: "single_strategy" },
    ];
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const { name, experiment, status } of cases) {
      assert.equal(experiment.verdictStatus, status, `${name}: ${experiment.headline}`);
      const file = join(ARTIFACTS, `report-managerial-${name}.html`);
      writeFileSync(
        file,
        renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment, results: await ws.app.experimentResults(experiment.experimentId) }, "managerial"),
      );
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto("file://" + file, { waitUntil: "load" });
      const box = page.locator("section.callout");
      assert.equal((await box.locator("p").first().textContent())?.trim(), experiment.headline, `${name}: the answer comes first`);
      const bounds = (await box.boundingBox())!;
      assert.ok(bounds.y + bounds.height <= 800, `${name}: the box ends at ${Math.round(bounds.y + bounds.height)} px, inside the first 800`);
      assert.equal(await box.locator("svg.chart").count(), 1, `${name}: one picture in the box`);
      await page.screenshot({ path: join(ARTIFACTS, `report-managerial-${name}.png`) });
      await page.close();
    }
  } finally {
    await browser.close();
    await ws.cleanup();
  }
});
