import type { ExperimentRecord } from "../domain/experiment.js";
import { gatesHeadline, type GateOutcome } from "../domain/gate-outcome.js";

export interface JunitInput {
  experiment: ExperimentRecord;
  outcomes: GateOutcome[];
}

/** Characters XML 1.0 cannot hold at all (most C0 controls): dropped. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text safe in an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;");
}

interface TestCase {
  classname: string;
  name: string;
  failure: { message: string; body: string } | null;
  output: string[];
}

function testCaseXml(c: TestCase): string {
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="0"`;
  const failure = c.failure ? `      <failure message="${escapeXml(c.failure.message)}" type="GateFailed">${escapeXml(c.failure.body)}</failure>\n` : "";
  const output = c.output.length > 0 ? `      <system-out>${escapeXml(c.output.join("\n"))}</system-out>\n` : "";
  return failure || output ? `${open}>\n${failure}${output}    </testcase>` : `${open}/>`;
}

/**
 * JUnit XML for the test tab of CI systems: a test case per gate checked first, with the figures
 * in the failure message, then one per strategy (it fails when every one of its questions failed).
 * The experiment id, the gates' result, the headline and the tags are the suite's properties.
 */
export function renderJunit(input: JunitInput): string {
  const e = input.experiment;
  // The gates first (a gated run's result is theirs), then a test case per strategy.
  const cases: TestCase[] = [
    ...input.outcomes.map((o) => ({
      classname: `chunkeval.${o.strategy}`,
      name: o.gate,
      failure: o.passed ? null : { message: o.detail, body: [o.detail, ...o.notes].join("\n") },
      output: o.passed ? [o.detail, ...o.notes] : [],
    })),
    ...e.strategiesUsed.map((s) => {
      const m = e.aggregateMetrics[s]!;
      const composite = m.compositeScore;
      const figures = `${s}: composite ${composite === null ? "n/a" : composite.toFixed(2)}, ${m.failedQuestions} of ${m.totalQuestions} questions failed`;
      const allFailed = m.totalQuestions > 0 && m.failedQuestions === m.totalQuestions;
      return {
        classname: `chunkeval.${s}`,
        name: "benchmark",
        failure: allFailed ? { message: figures, body: figures } : null,
        output: allFailed ? [] : [figures],
      };
    }),
  ];
  const failures = cases.filter((c) => c.failure).length;
  const seconds = e.totalLatencySeconds.toFixed(3);
  const properties = [
    ["experiment", e.experimentId],
    // The gates' result, then the answer; best_strategy only where the headline recommends it, the highest composite always.
    ["gates", gatesHeadline(input.outcomes) ?? undefined],
    ["headline", e.headline],
    ["verdict_status", e.verdictStatus],
    ["best_strategy", e.verdictStatus === "recommendation" ? e.bestStrategy : undefined],
    ["highest_composite", e.strategiesUsed.length > 1 ? e.bestStrategy : undefined],
    ["verdict", e.verdict],
    ...Object.entries(e.tags).map(([k, v]) => [`tag.${k}`, v]),
    // An experiment from before the headline was recorded has none to carry.
  ].filter((property): property is [string, string] => property[1] !== undefined);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="chunkeval" tests="${cases.length}" failures="${failures}" errors="0" time="${seconds}">`,
    `  <testsuite name="chunkeval bench ${escapeXml(e.experimentId)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" ` +
      `timestamp="${escapeXml(e.createdAt)}" time="${seconds}">`,
    `    <properties>`,
    ...properties.map(([name, value]) => `      <property name="${escapeXml(name!)}" value="${escapeXml(value!)}"/>`),
    `    </properties>`,
    ...cases.map(testCaseXml),
    `  </testsuite>`,
    `</testsuites>`,
    ``,
  ].join("\n");
}
