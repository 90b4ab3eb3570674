import type { Metric } from "./metric.js";
import { retrievalEfficiency as efficiencyOnLogScale } from "../metrics.js";
import { spanScores } from "../question-evaluation.js";

export const retrievalEfficiency: Metric = {
  key: "avg_retrieval_efficiency",
  label: "efficiency",
  scale: "0-1",
  direction: "higher",
  field: "avgRetrievalEfficiency",
  perQuestion: {
    field: "retrievalEfficiency",
    stage: "retrieval",
    compute: (q) => efficiencyOnLogScale(spanScores(q).iou, q.references, q.corpusLength),
  },
  reportColumn: "effi\u00ADciency",
  needsReferences: true,
  scorecardDigits: 3,
  composite: { weight: "retrieval_efficiency", defaultWeight: 0.1, factor: 10, order: 6 },
  definition:
    "IoU on a log scale from retrieving the whole document (0) to retrieving exactly the reference text (1): " +
    "each halving of the extra text retrieved counts the same",
};
