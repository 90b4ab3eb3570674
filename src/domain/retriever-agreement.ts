import { type ScoringOptions } from "./aggregate.js";
import { listWords as list } from "./list-words.js";
import type { AggregateMetrics, QuestionResult } from "./experiment.js";
import { groupWinner } from "./group-winner.js";
import { bestStrategy } from "./scoring.js";
import { CONFIDENCE_LEVEL } from "./statistics.js";
import { EMBEDDER_PARAMETER, SEARCH_MODES, withoutParameter, type SearchMode } from "./variant-key.js";

/**
 * A way a run compared the same chunking more than once (`--retrievers`, `--embedders`): the
 * variant parameter it sets, and how the verdict's sentence names it.
 */
export interface RunAxis {
  /** The variant parameter: `retrieval` or `embedder`. */
  parameter: string;
  /** "retrievers", "embedders". */
  plural: string;
  /** How a value is named in a sentence: "under dense", "with hash". */
  preposition: string;
}

export const RETRIEVER_AXIS: RunAxis = { parameter: "retrieval", plural: "retrievers", preposition: "under" };
export const EMBEDDER_AXIS: RunAxis = { parameter: EMBEDDER_PARAMETER, plural: "embedders", preposition: "with" };

/** The variant's key without its search mode: the same chunks, whichever way they are searched. */
export function chunksKey(variant: string): string {
  return withoutParameter(variant, RETRIEVER_AXIS.parameter);
}

/** One value of an axis (a retriever, an embedder) and its outcome among the variants run with it. */
export interface AxisOutcome {
  value: string;
  /** The variants run with this value. */
  variants: string[];
  /** The highest composite among them (bestStrategy's order), named without the axis's parameter. */
  highest: string;
  /** `highest`, when its lead over every other variant of this value is significant (the pooled verdict's rule); else null. */
  winner: string | null;
}

/**
 * Each value's winner when a run compared the same strategies with several values of an axis: only
 * values that ran at least two variants can name one. Null when fewer than two did, so there is
 * nothing to compare. `valueOf` gives each variant's value (undefined: not on this axis); values are
 * taken in `order`.
 */
export async function outcomesAcross(
  axis: RunAxis,
  order: readonly string[],
  results: Record<string, QuestionResult[]>,
  aggregates: Record<string, AggregateMetrics>,
  valueOf: (variant: string) => string | undefined,
  scoring: ScoringOptions,
  afterTurn?: () => void,
): Promise<AxisOutcome[] | null> {
  const outcomes: AxisOutcome[] = [];
  for (const value of order) {
    const variants = Object.keys(aggregates).filter((v) => valueOf(v) === value);
    if (variants.length < 2) continue;
    const highest = bestStrategy(Object.fromEntries(variants.map((v) => [v, aggregates[v]!])));
    const winner = await groupWinner(Object.fromEntries(variants.map((v) => [v, results[v] ?? []])), highest, scoring, afterTurn);
    outcomes.push({
      value,
      variants,
      highest: withoutParameter(highest, axis.parameter),
      winner: winner && withoutParameter(winner, axis.parameter),
    });
  }
  return outcomes.length >= 2 ? outcomes : null;
}

/** Each retriever's outcome when a run searched the same strategies in several ways (`--retrievers`). */
export function outcomesByRetriever(
  results: Record<string, QuestionResult[]>,
  aggregates: Record<string, AggregateMetrics>,
  search: Record<string, { retrieval: SearchMode }>,
  scoring: ScoringOptions,
  afterTurn?: () => void,
): Promise<AxisOutcome[] | null> {
  return outcomesAcross(RETRIEVER_AXIS, SEARCH_MODES, results, aggregates, (v) => search[v]?.retrieval, scoring, afterTurn);
}

/**
 * Whether the chunking verdict holds across an axis's values, in one sentence: "structure wins under
 * each of dense, keyword and hybrid", or "structure wins under keyword and hybrid; under dense,
 * semantic_parent_child", naming where no lead is significant.
 */
export function agreementNote(axis: RunAxis, outcomes: AxisOutcome[]): string {
  const level = `${Math.round(CONFIDENCE_LEVEL * 100)} %`;
  const { plural, preposition: by } = axis;
  const valuesOf = (chosen: AxisOutcome[]) => list(chosen.map((o) => o.value));
  const winners = [...new Set(outcomes.map((o) => o.winner))];
  if (winners.length === 1 && winners[0] !== null) {
    return `The chunking verdict holds across ${plural}: ${winners[0]} wins ${by} each of ${valuesOf(outcomes)} (each lead significant at ${level}).`;
  }
  if (winners.length === 1) {
    // No value separates a winner: say who scored highest where, and that it decides nothing.
    const highest = [...new Set(outcomes.map((o) => o.highest))].map((h) => `${h} ${by} ${valuesOf(outcomes.filter((o) => o.highest === h))}`);
    return `Across ${plural} no lead is significant at ${level} ${by} any of them: the highest composite was ${highest.join("; ")}.`;
  }
  const parts: string[] = [];
  for (const winner of winners.filter((w): w is string => w !== null)) {
    parts.push(`${winner} wins ${by} ${valuesOf(outcomes.filter((o) => o.winner === winner))}`);
  }
  const undecided = outcomes.filter((o) => o.winner === null);
  const undecidedWords = undecided.map((o) => `${by} ${o.value}, no lead is significant at ${level} (${o.highest} scored highest)`);
  const sameHighest = new Set(outcomes.map((o) => o.highest)).size === 1;
  const singular = plural.replace(/s$/, "");
  const verdict = sameHighest
    ? `${outcomes[0]!.highest} scores highest ${by} every ${singular}, but its lead is not significant ${by} all of them`
    : `the chunking verdict depends on the ${singular}`;
  return `Across ${plural} ${verdict}: ${[...parts, ...undecidedWords].join("; ")}.`;
}

/** agreementNote across retrievers. */
export function retrieverAgreementNote(outcomes: AxisOutcome[]): string {
  return agreementNote(RETRIEVER_AXIS, outcomes);
}
