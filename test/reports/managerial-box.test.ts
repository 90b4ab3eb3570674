import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { questionLeak } from "../../src/evaluators/question-set.js";
import { renderHtmlReport } from "../../src/reports/render.js";
import { consoleScorecard } from "../../src/reports/console-scorecard.js";
import type { ExperimentRecord, QuestionResult } from "../../src/domain/experiment.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";

/** The managerial report's box (the answer at a glance) and what follows it, as text and markup. */
function managerial(experiment: ExperimentRecord, results: Record<string, QuestionResult[]>) {
  const html = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment, results }, "managerial");
  const box = html.match(/<section class="callout">([\s\S]*?)<\/section>/)![1]!;
  const text = (markup: string) =>
    markup
      .replace(/<svg[\s\S]*?<\/svg>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ")
      .trim();
  const paragraphs = [...box.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => text(m[1]!));
  const why = html.slice(html.indexOf("<h2>Why</h2>"), html.indexOf("<h2>Scorecard</h2>"));
  return { html, box, paragraphs, marked: (box.match(/class="bar best"/g) ?? []).length, whyText: text(why), boxText: text(box) };
}

test("the managerial box: the answer first, a line of confidence, at most three notes, one picture with the answer marked; the rest under Why", async () => {
  const ws = await createWorkspace();
  try {
    // Questions that copy little of their excerpts' wording: a set that copies most is a smoke test, not a verdict.
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).filter(
      (q) =>
        (questionLeak(
          q.question,
          q.references.map((r) => r.text),
        ) ?? 1) < 0.5,
    );
    const bench = (strategies: string[], count: number) =>
      ws.app.bench({
        document: { filename: "handbook.docx", bytes: handbookBytes() },
        questions: questions.slice(0, count),
        questionsSource: "h.json",
        strategies,
        topK: 3,
      });
    // Six questions cannot separate two strategies (at least ten are needed): no clear winner.
    const tied = await ws.app.getExperiment((await bench(["recursive", "fixed_size", "structure"], 6)).experimentId);
    const tiedResults = await ws.app.experimentResults(tied.experimentId);
    assert.equal(tied.verdictStatus, "no_clear_winner");
    // The terminal's scorecard says the same first, and never calls the highest composite "best" here.
    const blocks = consoleScorecard(tied, BUILT_IN_METRICS);
    assert.deepEqual(blocks[0], { line: tied.headline });
    const scorecard = blocks.find((b) => "head" in b)!;
    assert.ok("head" in scorecard && scorecard.head[0] === "strategy");
    assert.deepEqual(
      scorecard.rows.map((row) => row[0]!.replace(/ \*$/, "")),
      tied.strategiesUsed,
    );
    const lines = blocks.flatMap((b) => ("line" in b ? [b.line] : []));
    assert.ok(lines.includes(`verdict: ${tied.verdict}`), lines.join("\n"));
    assert.ok(
      lines.some((l) => l.startsWith(`highest composite: ${tied.bestStrategy} (*)`)),
      lines.join("\n"),
    );
    assert.ok(!lines.some((l) => l.startsWith("best strategy:")), "no clear winner: nothing is called best");
    assert.equal(lines.at(-1), `experiment: ${tied.experimentId}`);
    const noWinner = managerial(tied, tiedResults);
    assert.equal(noWinner.paragraphs[0], tied.headline, "the verdict's sentence comes first");
    assert.match(noWinner.paragraphs[0]!, /^No clear winner among .*: 6 questions cannot separate \S+ from (the others|\S+) at 95 %/);
    const nearest = tied.inseparableFromBest.length > 1 ? `, nor can ${tied.inseparableFromBest.length - 1} other` : "";
    assert.match(
      noWinner.paragraphs[1]!,
      new RegExp(
        `^Highest composite score: \\S+, \\d+\\.\\d\\d of 10 \\(95 % interval .*\\); ` +
          `(${tied.inseparableFromBest.join("|")}), -?\\d+\\.\\d\\d lower .*cannot be separated from it${nearest}`,
      ),
    );
    // The technical report opens with the answer too, above the metrics it stands on.
    const technical = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: tied, results: tiedResults }, "technical");
    const opening = technical.indexOf("<h2>Verdict and confidence</h2>");
    assert.ok(opening >= 0 && opening < technical.indexOf("<h2>Metrics per strategy</h2>"), "the verdict before the metrics");
    assert.ok(technical.slice(opening).startsWith(`<h2>Verdict and confidence</h2>\n<p><strong>${tied.headline}</strong></p>`));
    // A runner-up the questions separate from the highest, and one further down they cannot: the line names the one they cannot.
    const [first, second] = tied.strategiesUsed.filter((s) => s !== tied.bestStrategy);
    const mixed = {
      ...tied,
      inseparableFromBest: [second!],
      comparisons: [
        {
          strategy: first!,
          metric: "composite_score" as const,
          difference: 0.06,
          confidenceInterval: [0.03, 0.1] as [number, number],
          pValue: 0.001,
          significant: true,
          questions: 30,
        },
        {
          strategy: second!,
          metric: "composite_score" as const,
          difference: 0.09,
          confidenceInterval: [-0.02, 0.2] as [number, number],
          pValue: 0.2,
          significant: false,
          questions: 30,
        },
      ],
    };
    const mixedReport = managerial(mixed, tiedResults);
    assert.match(
      mixedReport.paragraphs[1]!,
      new RegExp(`; ${second}, 0\\.09 lower \\(interval of the difference -0\\.02 to 0\\.20\\), cannot be separated from it\\.$`),
    );
    // Under Why, the runner-up's significant lead is not left standing as if it settled the answer.
    assert.ok(
      mixedReport.whyText.includes(
        `The runner-up, ${first}, scored 0.06 lower (95 % interval of the difference 0.03 to 0.10): a significant lead over it, ` +
          `but not over ${second}, which the questions cannot separate from ${tied.bestStrategy}: hence no clear winner.`,
      ),
      mixedReport.whyText,
    );
    // An interval's end that rounds to nothing has no sign.
    const nearZero = { ...mixed, comparisons: [{ ...mixed.comparisons[1]!, confidenceInterval: [-0.001, 0.2] as [number, number] }] };
    assert.match(managerial(nearZero, tiedResults).paragraphs[1]!, /interval of the difference 0\.00 to 0\.20/);
    assert.ok(noWinner.paragraphs.length <= 2 + 3, `at most three notes in the box: ${JSON.stringify(noWinner.paragraphs)}`);
    assert.match(noWinner.box, /<svg[^>]*>[\s\S]*Composite score per strategy/, "one picture in the box");
    assert.equal(noWinner.marked, 1 + tied.inseparableFromBest.length, "the strategies that cannot be separated are marked");
    assert.doesNotMatch(`${noWinner.boxText} ${noWinner.whyText}`, /\bbest\b/i, "nothing is called best when there is no clear winner");
    assert.ok(noWinner.whyText.includes(tied.verdict), "the verdict's detail is under Why");
    for (const note of tied.verdictNotes.filter((n) => !noWinner.paragraphs.includes(n))) assert.ok(noWinner.whyText.includes(note), `${note} under Why`);

    // More notes than the box holds: three stay (chunk warnings first), the others are under Why, none in both.
    const crowded = { ...tied, details: { ...tied.details, chunkWarnings: ["warning one"] }, verdictNotes: ["note A", "note B", "note C"] };
    const full = managerial(crowded, tiedResults);
    assert.deepEqual(full.paragraphs.slice(2), ["Warning: warning one", "note A", "note B"]);
    assert.ok(full.whyText.includes("note C") && !full.boxText.includes("note C"), "the fourth note is under Why only");
    for (const note of ["warning one", "note A", "note B"]) assert.ok(!full.whyText.includes(note), `${note} is not repeated under Why`);

    // A clear winner (as a significant lead would record it): only it is marked.
    const clear = {
      ...tied,
      verdictStatus: "recommendation" as const,
      headline: `Use ${tied.bestStrategy}: it scores significantly higher.`,
      inseparableFromBest: [],
    };
    const recommended = managerial(clear, tiedResults);
    assert.equal(recommended.paragraphs[0], clear.headline);
    assert.equal(recommended.marked, 1);

    // A single strategy: no winner is marked anywhere.
    const alone = await ws.app.getExperiment((await bench(["recursive"], 6)).experimentId);
    const single = managerial(alone, await ws.app.experimentResults(alone.experimentId));
    assert.match(single.paragraphs[0]!, /^No recommendation: recursive was the only strategy benchmarked\./);
    assert.equal(single.marked, 0);
    assert.doesNotMatch(single.boxText, /\bwins?\b|\bbest\b/i);
  } finally {
    await ws.cleanup();
  }
});
