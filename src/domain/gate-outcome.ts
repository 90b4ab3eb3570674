/**
 * The gates' result in one line, first in every report of a gated run: "the gate failed",
 * "1 of 2 gates failed", "all 3 gates passed"; null when no gate was set.
 */
export function gatesHeadline(outcomes: GateOutcome[]): string | null {
  if (outcomes.length === 0) return null;
  const failed = outcomes.filter((o) => !o.passed).length;
  if (outcomes.length === 1) return failed > 0 ? "the gate failed" : "the gate passed";
  return failed > 0 ? `${failed} of ${outcomes.length} gates failed` : `all ${outcomes.length} gates passed`;
}

/** One gate checked on one strategy, as the console, JUnit XML and the Markdown summary show it. */
export interface GateOutcome {
  /** The gate as asked for: `--fail-on-regression composite_score`, `--fail-under hit_rate=0.5`. */
  gate: string;
  strategy: string;
  passed: boolean;
  /** The figures in one line: what was measured against what. */
  detail: string;
  /** Why the comparison is not like for like (another embedder, fewer questions paired …). */
  notes: string[];
}
