import type { Metric } from "./metric.js";
import { spanScores } from "../question-evaluation.js";

export const iou: Metric = {
  key: "avg_iou",
  label: "IoU",
  scale: "0-1",
  direction: "higher",
  field: "avgIou",
  perQuestion: { field: "iou", stage: "retrieval", compute: (q) => spanScores(q).iou },
  format: "percent",
  reportColumn: "IoU",
  sweepColumn: 3,
  needsReferences: true,
  scorecardDigits: 3,
  definition: "reference characters retrieved over retrieved plus missed reference characters (Chroma)",
};
