import type { AtKMetric } from "./metric.js";
import { spanScoresAtK } from "../question-evaluation.js";

/** Recall@k: at the cut k = top_k it is each question's `recall`, so its mean is `avg_recall`. */
export const recallAtK: AtKMetric = {
  label: "Recall@k",
  scale: "0-1",
  direction: "higher",
  field: "recall",
  perQuestionField: "recall",
  atCuts: (q, cuts) => cuts.map((k) => spanScoresAtK(q, k).recall),
  definition: "the share of reference text the top k cover (Chroma's recall)",
};
