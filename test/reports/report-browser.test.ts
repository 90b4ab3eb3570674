import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderHtmlReport, type ReportView } from "../../src/reports/render.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { launchChromium } from "../helpers/browser.js";

const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));

test("both report views of a real experiment render in Chromium: charts drawn, no network, no console error, printable", async () => {
  const ws = await createWorkspace();
  const browser = await launchChromium();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 6);
    const experiment = await ws.app.bench({ document: { filename: "handbook.docx", bytes: handbookBytes() }, questions, questionsSource: "harbor-light-handbook.json", strategies: "all", topK: 3 });
    const results = ws.app.experimentResults(experiment.experimentId);
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const view of ["managerial", "technical"] as ReportView[]) {
      const file = join(ARTIFACTS, `report-${view}.html`);
      writeFileSync(file, renderHtmlReport({ experiment, results }, view));
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      const consoleErrors: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
      page.on("pageerror", (e) => consoleErrors.push(e.message));
      await page.goto("file://" + file, { waitUntil: "load" });
      const charts = await page.$$eval("svg.chart", (svgs) => svgs.map((s) => ({ marks: s.querySelectorAll("rect, circle").length, width: s.getBoundingClientRect().width })));
      assert.ok(charts.length >= (view === "managerial" ? 3 : 10), `${view}: ${charts.length} charts`);
      assert.ok(charts.every((c) => c.marks > 0 && c.width > 100), `${view}: every chart draws marks`);
      assert.match(await page.textContent("body") ?? "", new RegExp(experiment.bestStrategy));
      assert.deepEqual(requests.filter((u) => !u.startsWith("file://")), [], `${view}: no network request`);
      assert.deepEqual(consoleErrors, [], `${view}: no console error`);
      await page.screenshot({ path: join(ARTIFACTS, `report-${view}.png`), fullPage: view === "managerial" });
      // Printed (print stylesheet applied): the PDF has pages and the charts survive.
      await page.emulateMedia({ media: "print" });
      assert.ok(await page.$$eval("svg.chart", (svgs) => svgs.every((s) => s.getBoundingClientRect().width > 100)), `${view}: charts visible in print`);
      const pdf = await page.pdf({ path: join(ARTIFACTS, `report-${view}.pdf`), format: "A4" });
      assert.ok(pdf.length > 10_000, `${view}: printed to PDF`);
      await page.close();
    }
  } finally {
    await browser.close();
    await ws.cleanup();
  }
});
