import { ValidationError } from "../errors.js";
import type { ExperimentRecord } from "../domain/experiment.js";
import { pageSpans, type PageSpan } from "../domain/pages.js";
import { REPORT_VIEWS, renderHtmlReport, renderMarkdownReport, type ReportView } from "../reports/render.js";
import { chunkMapSource } from "./chunk-map-source.js";
import type { ServiceContext } from "./context.js";
import { baselineMetrics, compareWithBaseline, experimentResults, experimentView, getExperiment } from "./experiments.js";

export const REPORT_FORMATS = ["html", "md", "json"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportOptions {
  format?: ReportFormat;
  view?: ReportView;
  /** An earlier experiment to show every metric's change against. */
  baselineId?: string;
  /** Or a baseline already loaded (a baseline file): its name and the changes against it. */
  baseline?: { id: string; deltas: Record<string, Record<string, number | null>> };
}

/** The page spans of every document an experiment searched that is still stored (for page labels in the drill-down). */
function documentPages(ctx: ServiceContext, experiment: ExperimentRecord): Record<string, PageSpan[]> {
  const ids = experiment.collection ? experiment.collection.documents.map((d) => d.id) : [experiment.documentId];
  return Object.fromEntries(
    ids.flatMap((id) => {
      const document = ctx.documents.get(id);
      return document ? [[id, pageSpans(document.blocks)]] : [];
    }),
  );
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
  // Experiments from before the name was recorded: the stored document's, while it is stored.
  const documentName = experiment.collection ? undefined : (ctx.documents.record(experiment.documentId)?.filename ?? undefined);
  const baseline =
    options.baseline ??
    (options.baselineId
      ? { id: options.baselineId, deltas: compareWithBaseline(experiment, baselineMetrics(getExperiment(ctx, options.baselineId))) }
      : undefined);
  const body =
    format === "json"
      ? { ...experimentView(experiment), details: experiment.details, results, ...(baseline ? { baseline } : {}) }
      : format === "md"
        ? renderMarkdownReport({ experiment, results, baseline, documentName })
        : renderHtmlReport(
            {
              experiment,
              results,
              baseline,
              documentName,
              chunkMap: view === "technical" ? chunkMapSource(ctx, id) : null,
              documentPages: view === "technical" ? documentPages(ctx, experiment) : undefined,
            },
            view,
          );
  return { contentType: CONTENT_TYPES[format], body };
}
