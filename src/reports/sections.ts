// The sections of an experiment's report, declared once: each renderer (the HTML report's two views,
// the Markdown report, the terminal's scorecard, the CI summary) shows the sections declared for it,
// in this order. A renderer has one part per section it shows: a template
// `templates/sections/<id>.njk` (HTML) or `<id>.md.njk` (Markdown), or an entry of its own map
// (console-scorecard.ts, ci-summary.ts) whose keys the type checker holds to this list.

/** Every renderer of an experiment. */
export const RENDERERS = ["managerial", "technical", "markdown", "console", "ci-summary"] as const;
export type Renderer = (typeof RENDERERS)[number];

const ALL = RENDERERS;
const HTML = ["managerial", "technical"] as const;

/** The sections, in the order every renderer shows those it shows. */
export const REPORT_SECTIONS = [
  { id: "gates", holds: "each gate the run checked, passed or failed, with its figures", in: [...HTML, "markdown", "ci-summary"] },
  { id: "verdict", holds: "the headline, the verdict with its confidence, the notes and warnings that qualify it", in: ALL },
  {
    id: "scorecard",
    holds: "every strategy's metrics with the composite's interval, changes against a baseline, and why a metric is n/a",
    in: ALL,
  },
  { id: "axes", holds: "strategy × retriever and strategy × embedder: whether the verdict holds under each", in: [...HTML, "markdown", "console"] },
  { id: "per-document", holds: "a collection's results per document: which strategy wins where", in: [...HTML, "markdown", "console"] },
  { id: "sweep", holds: "each swept strategy's variants against the parameters that vary", in: [...HTML, "markdown"] },
  { id: "trade-offs", holds: "quality against cost and latency, and the trade-offs in words", in: ["managerial"] },
  { id: "every-metric", holds: "every metric of every strategy with its 95 % interval", in: ["technical"] },
  { id: "ranking", holds: "Recall@k, MRR@k and nDCG@k at k = 1, 3, 5, 10, and tokens retrieved", in: ["technical", "markdown"] },
  { id: "negative-controls", holds: "questions the documents cannot answer: abstentions and context relevance", in: ["technical", "markdown", "console"] },
  { id: "contributions", holds: "what each metric contributed to each composite", in: ["technical"] },
  { id: "definitions", holds: "each metric's scale, direction and definition, with a chart per quality metric", in: ["technical"] },
  { id: "latency", holds: "seconds per question by stage, with intervals, and the time shared by every strategy", in: ["technical"] },
  { id: "cost", holds: "what the run cost, and the same tokens on the reference model", in: [...HTML, "console"] },
  { id: "chunks", holds: "chunk counts and sizes, indexing time and cost, and chunk health", in: ["technical"] },
  { id: "questions", holds: "each question with its answer, scores and retrieved chunks per strategy", in: ["technical"] },
  { id: "chunk-map", holds: "where each strategy cut the document, and what each question retrieved", in: ["technical"] },
  { id: "run", holds: "what was benchmarked and where the experiment is stored", in: ["managerial", "console", "ci-summary"] },
  { id: "reports", holds: "links to the reports written beside the summary", in: ["ci-summary"] },
] as const satisfies ReadonlyArray<{ id: string; holds: string; in: readonly Renderer[] }>;

type Section = (typeof REPORT_SECTIONS)[number];

/** The ids of the sections `renderer` shows. */
export type SectionOf<R extends Renderer> = Section extends infer S
  ? S extends { id: infer Id; in: readonly (infer In)[] }
    ? R extends In
      ? Id
      : never
    : never
  : never;

/** The sections `renderer` shows, in order. */
export function sectionsOf<R extends Renderer>(renderer: R): Array<SectionOf<R>> {
  return REPORT_SECTIONS.filter((s) => (s.in as readonly Renderer[]).includes(renderer)).map((s) => s.id as SectionOf<R>);
}
