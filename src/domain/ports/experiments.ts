import type { ExperimentRecord, QuestionResult } from "../experiment.js";

/** A line of the experiments list: what was benchmarked (the document's or collection's name; null once deleted). */
export interface ExperimentSummary {
  id: string;
  documentId: string;
  documentName: string | null;
  strategiesUsed: string[];
  createdAt: string;
}

/** Benchmark experiments and their per-question results. */
export interface ExperimentsRepo {
  /** The experiment and its results, atomically. */
  insert(e: ExperimentRecord, results: Record<string, QuestionResult[]>): Promise<void>;
  get(id: string): Promise<ExperimentRecord | null>;
  results(id: string): Promise<Record<string, QuestionResult[]>>;
  /** Newest first. */
  list(offset: number, limit: number): Promise<{ items: ExperimentSummary[]; total: number }>;
}
