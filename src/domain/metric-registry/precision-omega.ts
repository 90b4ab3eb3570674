import type { Metric } from "./metric.js";

export const precisionOmega: Metric = {
  key: "avg_precision_omega",
  label: "precision Ω",
  scale: "0-1",
  direction: "higher",
  field: "avgPrecisionOmega",
  perQuestion: "precisionOmega",
  needsReferences: true,
  definition:
    "precision if exactly the chunks touching the references were retrieved: how tightly the chunker carves the excerpts, independent of retrieval (Chroma)",
};
