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
