import type { GateOutcome } from "../../domain/gate-outcome.js";
import { ValidationError } from "../../errors.js";
import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import { pageSpans, type PageSpan } from "../../domain/pages.js";
import { REPORT_VIEWS, renderHtmlReport, renderMarkdownReport, type ReportInput, type ReportView } from "../../reports/render.js";
import { chunkMapSource } from "./chunk-map-source.js";
import type { ServiceContext } from "../context.js";
import { compareRun, storedBaseline } from "./ci-gates.js";
import { experimentResults, experimentView, getExperiment } from "./experiments.js";

export const REPORT_FORMATS = ["html", "md", "json"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportOptions {
  format?: ReportFormat;
  view?: ReportView;
  /** An earlier experiment to show every metric's change against. */
  baselineId?: string;
  /** Or a baseline already loaded (a baseline file): its name and the changes against it. */
  baseline?: ReportInput["baseline"];
  /** The gates the run checked (bench with CI options writing its report): shown first in HTML and Markdown. */
  gates?: GateOutcome[];
}

/** The page spans of every document an experiment searched that is still stored (for page labels in the drill-down). */
async function documentPages(ctx: ServiceContext, experiment: ExperimentRecord): Promise<Record<string, PageSpan[]>> {
  const ids = experiment.collection ? experiment.collection.documents.map((d) => d.id) : [experiment.documentId];
  const pages: Record<string, PageSpan[]> = {};
  for (const id of ids) {
    const document = await ctx.documents.get(id);
    if (document) pages[id] = pageSpans(document.blocks);
  }
  return pages;
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  html: "text/html; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** `report EXP --baseline ID`: each metric's change against a stored experiment, its composite rescored when the weights differ. */
async function storedBaselineChanges(ctx: ServiceContext, experiment: ExperimentRecord, results: Record<string, QuestionResult[]>, id: string) {
  const { deltas, notes } = compareRun(ctx.metrics, experiment, results, await storedBaseline(ctx, id)).baseline!;
  return { id, deltas, notes };
}

/**
 * Renders a stored experiment for the CLI's `report` and `bench --out` and for HTTP's report
 * route alike: an HTML page (managerial or technical) or Markdown as text, or for JSON the
 * export object (the experiment with its details and every per-question result), which each
 * transport writes in its wire format.
 */
export async function renderReport(
  ctx: ServiceContext,
  id: string,
  options: ReportOptions = {},
): Promise<{ contentType: string; body: string | Record<string, unknown> }> {
  const format = options.format ?? "html";
  const view = options.view ?? "managerial";
  if (!REPORT_FORMATS.includes(format)) throw new ValidationError(`format must be one of ${REPORT_FORMATS.join(", ")}, got "${format}"`);
  if (!REPORT_VIEWS.includes(view)) throw new ValidationError(`view must be one of ${REPORT_VIEWS.join(", ")}, got "${view}"`);
  const experiment = await getExperiment(ctx, id);
  const results = await experimentResults(ctx, id);
  // Experiments from before the name was recorded: the stored document's, while it is stored.
  const documentName = experiment.collection ? undefined : ((await ctx.documents.record(experiment.documentId))?.filename ?? undefined);
  const baseline = options.baseline ?? (options.baselineId ? await storedBaselineChanges(ctx, experiment, results, options.baselineId) : undefined);
  const body =
    format === "json"
      ? { ...experimentView(experiment, ctx.metrics), details: experiment.details, results, ...(baseline ? { baseline } : {}) }
      : format === "md"
        ? renderMarkdownReport({ experiment, metrics: ctx.metrics, results, baseline, documentName, gates: options.gates ?? experiment.details.gates })
        : renderHtmlReport(
            {
              experiment,
              metrics: ctx.metrics,
              results,
              baseline,
              documentName,
              gates: options.gates ?? experiment.details.gates,
              chunkMap: view === "technical" ? await chunkMapSource(ctx, id) : null,
              documentPages: view === "technical" ? await documentPages(ctx, experiment) : undefined,
            },
            view,
          );
  return { contentType: CONTENT_TYPES[format], body };
}
