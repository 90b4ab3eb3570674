import type { AtKMetric } from "./metric.js";
import { spanScoresAtK } from "../question-evaluation.js";

/** MRR@k: at the cut k = top_k it is each question's `reciprocalRank`, so its mean is `mrr`. */
export const mrrAtK: AtKMetric = {
  label: "MRR@k",
  scale: "0-1",
  direction: "higher",
  field: "mrr",
  perQuestionField: "reciprocalRank",
  atCuts: (q, cuts) => cuts.map((k) => spanScoresAtK(q, k).reciprocalRank),
  definition: "1/rank of the first of the top k covering at least half a reference, 0 when none does",
};
