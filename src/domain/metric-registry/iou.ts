import type { Metric } from "./metric.js";

export const iou: Metric = {
  key: "avg_iou",
  label: "IoU",
  scale: "0-1",
  direction: "higher",
  field: "avgIou",
  perQuestion: "iou",
  needsReferences: true,
  scorecardDigits: 3,
  definition: "reference characters retrieved over retrieved plus missed reference characters (Chroma)",
};
