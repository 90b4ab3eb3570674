import { type ScoringOptions } from "./aggregate.js";
import { listWords as list } from "./list-words.js";
import type { AggregateMetrics, QuestionResult } from "./experiment.js";
import { groupWinner } from "./group-winner.js";
import { bestStrategy } from "./scoring.js";
import { CONFIDENCE_LEVEL } from "./statistics.js";
import { formatVariantKey, parseVariantKey, SEARCH_MODES, type SearchMode } from "./variant-key.js";

/** The variant's key without its search mode: the same chunks, whichever way they are searched. */
export function chunksKey(variant: string): string {
  const { strategy, parameters } = parseVariantKey(variant);
  return formatVariantKey(
    strategy,
    parameters.filter(([name]) => name !== "retrieval"),
  );
}

/** One retriever's outcome among the variants searched by it. */
export interface RetrieverOutcome {
  retrieval: SearchMode;
  /** The variants searched this way. */
  variants: string[];
  /** The highest composite among them (bestStrategy's order), as its chunks (chunksKey). */
  highest: string;
  /** `highest`, when its lead over every other variant of this retriever is significant (the pooled verdict's rule); else null. */
  winner: string | null;
}

/**
 * Each retriever's winner when a run searched the same strategies in several ways (`--retrievers`):
 * only retrievers that searched at least two variants can name one. Null when fewer than two
 * retrievers did, so there is nothing to compare.
 */
export async function outcomesByRetriever(
  results: Record<string, QuestionResult[]>,
  aggregates: Record<string, AggregateMetrics>,
  search: Record<string, { retrieval: SearchMode }>,
  scoring: ScoringOptions,
  afterTurn?: () => void,
): Promise<RetrieverOutcome[] | null> {
  const outcomes: RetrieverOutcome[] = [];
  for (const retrieval of SEARCH_MODES) {
    const variants = Object.keys(aggregates).filter((v) => search[v]?.retrieval === retrieval);
    if (variants.length < 2) continue;
    const highest = bestStrategy(Object.fromEntries(variants.map((v) => [v, aggregates[v]!])));
    const winner = await groupWinner(Object.fromEntries(variants.map((v) => [v, results[v] ?? []])), highest, scoring, afterTurn);
    outcomes.push({ retrieval, variants, highest: chunksKey(highest), winner: winner && chunksKey(winner) });
  }
  return outcomes.length >= 2 ? outcomes : null;
}

/**
 * Whether the chunking verdict holds across retrievers, in one sentence: "structure wins under every
 * retriever (dense, keyword and hybrid)", or "structure wins under keyword and hybrid; under dense,
 * semantic_parent_child", naming where no lead is significant.
 */
export function retrieverAgreementNote(outcomes: RetrieverOutcome[]): string {
  const level = `${Math.round(CONFIDENCE_LEVEL * 100)} %`;
  const modes = outcomes.map((o) => o.retrieval);
  const winners = [...new Set(outcomes.map((o) => o.winner))];
  if (winners.length === 1 && winners[0] !== null) {
    return `The chunking verdict holds across retrievers: ${winners[0]} wins under each of ${list(modes)} (each lead significant at ${level}).`;
  }
  if (winners.length === 1) {
    // No retriever separates a winner: say who scored highest where, and that it decides nothing.
    const highest = [...new Set(outcomes.map((o) => o.highest))].map(
      (h) => `${h} under ${list(outcomes.filter((o) => o.highest === h).map((o) => o.retrieval))}`,
    );
    return `Across retrievers no lead is significant at ${level} under any of them: the highest composite was ${highest.join("; ")}.`;
  }
  const parts: string[] = [];
  for (const winner of winners.filter((w): w is string => w !== null)) {
    parts.push(`${winner} wins under ${list(outcomes.filter((o) => o.winner === winner).map((o) => o.retrieval))}`);
  }
  const undecided = outcomes.filter((o) => o.winner === null);
  const undecidedWords = undecided.map((o) => `under ${o.retrieval}, no lead is significant at ${level} (${o.highest} scored highest)`);
  const sameHighest = new Set(outcomes.map((o) => o.highest)).size === 1;
  const verdict = sameHighest
    ? `${outcomes[0]!.highest} scores highest under every retriever, but its lead is not significant under all of them`
    : "the chunking verdict depends on the retriever";
  return `Across retrievers ${verdict}: ${[...parts, ...undecidedWords].join("; ")}.`;
}
