import { ValidationError } from "../errors.js";
import { REPORT_VIEWS, renderHtmlReport, renderMarkdownReport, type ReportView } from "../reports/render.js";
import { chunkMapSource } from "./chunk-map-source.js";
import type { ServiceContext } from "./context.js";
import { compareWithBaseline, experimentResults, experimentView, getExperiment } from "./experiments.js";

export const REPORT_FORMATS = ["html", "md", "json"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportOptions {
  format?: ReportFormat;
  view?: ReportView;
  /** An earlier experiment to show every metric's change against. */
  baselineId?: string;
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  html: "text/html; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/**
 * Renders a stored experiment for the CLI's `report` and `bench --out` and for HTTP's report
 * route alike: an HTML page (managerial or technical) or Markdown as text, or for JSON the
 * export object (the experiment with its details and every per-question result), which each
 * transport writes in its wire format.
 */
export function renderReport(ctx: ServiceContext, id: string, options: ReportOptions = {}): { contentType: string; body: string | Record<string, unknown> } {
  const format = options.format ?? "html";
  const view = options.view ?? "managerial";
  if (!REPORT_FORMATS.includes(format)) throw new ValidationError(`format must be one of ${REPORT_FORMATS.join(", ")}, got "${format}"`);
  if (!REPORT_VIEWS.includes(view)) throw new ValidationError(`view must be one of ${REPORT_VIEWS.join(", ")}, got "${view}"`);
  const experiment = getExperiment(ctx, id);
  const results = experimentResults(ctx, id);
  const baseline = options.baselineId ? { id: options.baselineId, deltas: compareWithBaseline(experiment, getExperiment(ctx, options.baselineId)) } : undefined;
  const body =
    format === "json"
      ? { ...experimentView(experiment), details: experiment.details, results, ...(baseline ? { baseline } : {}) }
      : format === "md"
        ? renderMarkdownReport({ experiment, results, baseline })
        : renderHtmlReport({ experiment, results, baseline, chunkMap: view === "technical" ? chunkMapSource(ctx, id) : null }, view);
  return { contentType: CONTENT_TYPES[format], body };
}
