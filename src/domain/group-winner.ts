import { compareWithBestInTurns, type ScoringOptions } from "./aggregate.js";
import type { DocumentBreakdown, QuestionResult } from "./experiment.js";

/**
 * The strategy a group of questions (a collection's document) can name as its winner: the
 * highest-scoring one, only when its lead over every other strategy is significant over the
 * group's own questions (the pooled verdict's rule: compareWithBest, here in turns). Null when they cannot tell
 * (too few questions, a lead within noise) and when only one strategy was benchmarked.
 */
export async function groupWinner(
  results: Record<string, QuestionResult[]>,
  highest: string,
  options: ScoringOptions,
  afterTurn?: () => void,
): Promise<string | null> {
  const comparisons = await compareWithBestInTurns(results, highest, options, afterTurn);
  return comparisons.length > 0 && comparisons.every((c) => c.significant) ? highest : null;
}

/** A group's winner in words: its name, or why none is named ("cannot tell: 3 questions"). */
export function winnerThere(group: Pick<DocumentBreakdown, "winner" | "questions">, strategies: number): string {
  if (group.winner) return group.winner;
  if (strategies < 2) return "none: one strategy benchmarked";
  const questions = `${group.questions} question${group.questions === 1 ? "" : "s"}`;
  // Experiments from before the winner was recorded (winner absent) are not judged again.
  return group.winner === undefined ? `not recorded (${questions})` : `cannot tell: ${questions}`;
}
