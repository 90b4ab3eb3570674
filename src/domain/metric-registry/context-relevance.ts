import type { Metric } from "./metric.js";

export const contextRelevance: Metric = {
  key: "avg_context_relevance",
  label: "ctx relevance",
  scale: "0-10",
  direction: "higher",
  field: "avgContextRelevance",
  perQuestion: { field: "contextRelevance", stage: "answer", compute: (q) => q.verdict.contextRelevance },
  needsAnswers: true,
  // Whether the judge has evidence the retriever did not use depends on the strategy's search mode.
  unmeasurableFor: ({ judge, retrieval, retrieverEmbedder }) => judge?.contextRelevanceUnmeasurable(retrieval, retrieverEmbedder) ?? null,
  reportColumn: "context rele\u00ADvance",
  scorecardDigits: 2,
  composite: { weight: "context_relevance", defaultWeight: 0.15, factor: 1, order: 3 },
  definition: "did the retrieved context hold what the question needs: how close its best passage comes to the best passage anywhere in the document",
};
