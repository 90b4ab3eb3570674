import type { Metric } from "./metric.js";
import { spanScores } from "../question-evaluation.js";

export const hitRate: Metric = {
  key: "hit_rate",
  label: "hit rate",
  scale: "0-1",
  direction: "higher",
  field: "hitRate",
  perQuestion: { field: "hit", stage: "retrieval", compute: (q) => spanScores(q).hit },
  format: "percent",
  reportColumn: "hit rate",
  needsReferences: true,
  scorecardDigits: 3,
  definition: "share of questions where some retrieved chunk covers at least half of a reference excerpt",
};
