import type { Metric } from "./metric.js";
import { spanScores } from "../question-evaluation.js";

export const precision: Metric = {
  key: "avg_precision",
  label: "precision",
  scale: "0-1",
  direction: "higher",
  field: "avgPrecision",
  perQuestion: { field: "precision", stage: "retrieval", compute: (q) => spanScores(q).precision },
  format: "percent",
  sweepColumn: 2,
  needsReferences: true,
  definition: "share of the retrieved chunks' characters that are reference text (Chroma)",
};
