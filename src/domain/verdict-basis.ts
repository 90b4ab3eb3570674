import { listWords as list } from "./list-words.js";
import type { Experiment, StrategyComparison, VerdictStatus } from "./experiment.js";
import { leakWords, provenanceWords, smokeTestReason, type QuestionSetProfile } from "./question-set.js";
import { CONFIDENCE_LEVEL } from "./statistics.js";
import { aboutQuestions, PLANNED_POWER } from "./power.js";
import { formatVariantKey, parseVariantKey, type SearchMode } from "./variant-key.js";
import { chunksKey } from "./retriever-agreement.js";

export interface VerdictBasis {
  status: VerdictStatus;
  /**
   * The answer, said first and in one sentence, that nothing after it contradicts: "Use X: …",
   * "No clear winner among X, Y and Z: …", "Smoke test, not a recommendation: …", "No recommendation: …".
   */
  headline: string;
  /** The strategies the best cannot be separated from: its lead over them is not significant. */
  inseparableFromBest: string[];
  /** What the verdict stands on: the questions' provenance and vocabulary leak, and what a lead between retrieval modes mixes. */
  notes: string[];
}

export interface VerdictBasisInput {
  best: string;
  comparisons: StrategyComparison[];
  /** Every strategy's composite (null where it could not be scored). */
  composites: Record<string, number | null>;
  /** How each strategy searched its chunks; empty when not recorded. */
  retrievalModes: Record<string, SearchMode>;
  /** Null in experiments from before the question set was profiled. */
  questionSet: QuestionSetProfile | null;
  /** Strategies a chunk warning says the comparison cannot tell apart (degenerate chunking, top_k covering every chunk); absent when none. */
  cannotTellApart?: string[];
}

const points = (v: number) => v.toFixed(2);

/** The headline and what it stands on (docs/metrics.md "Reading the verdict"). */
export function verdictBasis(input: VerdictBasisInput): VerdictBasis {
  const { best, comparisons, questionSet } = input;
  const level = `${Math.round(CONFIDENCE_LEVEL * 100)} %`;
  const inseparableFromBest = comparisons.filter((c) => !c.significant).map((c) => c.strategy);
  const notes: string[] = [];
  if (questionSet) notes.push(`Questions: ${provenanceWords(questionSet)}; vocabulary leak: ${leakWords(questionSet.leak)}.`);
  notes.push(...retrievalModeNotes(input));
  const basis = (status: VerdictStatus, headline: string): VerdictBasis => ({ status, headline, inseparableFromBest, notes });
  if (input.composites[best] === null || input.composites[best] === undefined) return basis("not_scored", "No recommendation: no strategy could be scored.");
  const smoke = questionSet ? smokeTestReason(questionSet) : null;
  const cannotSeparate = inseparableFromBest.length > 0 ? `, not separable at ${level} from ${list(inseparableFromBest)}` : "";
  // One strategy leads nothing, a smoke test neither: it was the only one.
  const standing = comparisons.length === 0 ? `${best} was the only strategy benchmarked` : `${best} scored highest${cannotSeparate}`;
  if (smoke) return basis("smoke_test", `Smoke test, not a recommendation: ${smoke}. ${standing}.`);
  if (comparisons.length === 0) return basis("single_strategy", `No recommendation: ${best} was the only strategy benchmarked.`);
  if (inseparableFromBest.length > 0)
    return basis(
      "no_clear_winner",
      noClearWinner(
        best,
        comparisons.filter((c) => !c.significant),
        level,
      ),
    );
  const runnerUp = comparisons
    .filter((c) => c.difference !== null)
    .sort((a, b) => a.difference! - b.difference! || a.strategy.localeCompare(b.strategy))[0]?.strategy;
  const unreliable = [best, runnerUp].filter((s): s is string => s !== undefined && (input.cannotTellApart ?? []).includes(s));
  if (unreliable.length > 0) {
    return basis(
      "no_clear_winner",
      `No recommendation: a chunk warning says this comparison cannot tell ${list(unreliable)} apart from the others, ` +
        `so ${best}'s significant lead says nothing of its chunking.`,
    );
  }
  return basis(
    "recommendation",
    `Use ${best}: it scores higher than each other strategy, significantly at ${level} in each comparison (${questionsWords(comparisons)}).`,
  );
}

/** The questions a comparison paired, negative controls left out where recorded. */
const pairedQuestions = (c: StrategyComparison) => c.answerableQuestions ?? c.questions;

/** "28 questions", or "24 answerable questions" when negative controls were paired too (the verdict's count is of every question). */
function questionsWords(comparisons: StrategyComparison[]): string {
  const asked = Math.max(...comparisons.map(pairedQuestions));
  const withNegatives = comparisons.some((c) => c.answerableQuestions !== undefined && c.answerableQuestions < c.questions);
  return `${asked} ${withNegatives ? "answerable " : ""}question${asked === 1 ? "" : "s"}`;
}

/** Past this many, the sentence names the highest and counts the rest (a sweep can tie dozens of variants). */
const NAMED_IN_SENTENCE = 6;

/**
 * "No clear winner among a, b and c: 19 questions cannot separate a from the others at 95 %;
 * about 380 would likely (80 % power)." Only the highest is compared with each other (the
 * verdict's paired comparisons). The number is the most any of those pairs needs, rounded as the
 * verdict's own estimate is (domain/power.ts), said only when every pair has one; the highest
 * composite stays a figure of the scorecard, not a winner.
 */
function noClearWinner(best: string, inseparable: StrategyComparison[], level: string): string {
  const needed = inseparable.map((c) => c.questionsNeeded);
  const most = needed.every((n): n is number => typeof n === "number") ? Math.max(...needed) : 0;
  const asked = Math.max(...inseparable.map(pairedQuestions));
  const would = most > asked ? `; ${aboutQuestions(most)} would likely (${Math.round(PLANNED_POWER * 100)} % power)` : "";
  const others = inseparable.map((c) => c.strategy);
  const tied = others.length < NAMED_IN_SENTENCE ? list([best, ...others]) : `${best} and ${others.length} others`;
  const from = others.length === 1 ? others[0] : "the others";
  return `No clear winner among ${tied}: ${questionsWords(inseparable)} cannot separate ${best} from ${from} at ${level}${would}.`;
}

/** "so the retrieval mode accounts for 0.25 of the lead and the chunking for -0.11 (searched the same way, structure's chunks score higher)." */
function leadSplit(modePart: number, chunkingPart: number, best: string, rival: string): string {
  const aside =
    chunkingPart < 0
      ? ` (searched the same way, ${rival}'s chunks score higher)`
      : modePart < 0
        ? ` (searched the same way, ${best}'s chunks lead by more)`
        : "";
  return `so the retrieval mode accounts for ${points(modePart)} of the lead and the chunking for ${points(chunkingPart)}${aside}.`;
}

/** The variant's key searched another way (spelt out, so it reads the same whatever the run's default mode). */
function searchedBy(variant: string, mode: SearchMode): string {
  const { strategy, parameters } = parseVariantKey(variant);
  return formatVariantKey(strategy, [...parameters.filter(([name]) => name !== "retrieval"), ["retrieval", mode]]);
}

/**
 * When strategies search in different modes, a lead between them mixes chunking and search.
 * For the best strategy against the highest-scoring strategy of each other mode, the lead is
 * split where the run holds the same chunks searched the other way (what `--sweep
 * NAME:retrieval=dense,keyword` gives); otherwise the note says the lead mixes both and which
 * variants would separate them.
 */
function retrievalModeNotes({ best, composites, retrievalModes }: VerdictBasisInput): string[] {
  const modes = [...new Set(Object.values(retrievalModes))];
  if (modes.length < 2 || !retrievalModes[best]) return [];
  const byMode = modes.map((m) => `${m} (${list(Object.keys(retrievalModes).filter((s) => retrievalModes[s] === m))})`);
  const notes = [`Retrieval modes differ: ${byMode.join("; ")}. A lead between strategies of different modes mixes chunking and retrieval mode.`];
  const bestMode = retrievalModes[best];
  const bestScore = composites[best];
  if (bestScore === null || bestScore === undefined) return notes;
  const scored = (s: string | undefined) => (s !== undefined && typeof composites[s] === "number" ? s : undefined);
  const sameChunks = (variant: string, mode: SearchMode) =>
    scored(Object.keys(retrievalModes).find((s) => retrievalModes[s] === mode && chunksKey(s) === chunksKey(variant)));
  for (const mode of modes.filter((m) => m !== bestMode)) {
    const rival = Object.keys(retrievalModes)
      .filter((s) => retrievalModes[s] === mode && typeof composites[s] === "number")
      .sort((a, b) => composites[b]! - composites[a]! || a.localeCompare(b))[0];
    if (!rival) continue;
    const lead = bestScore - composites[rival]!;
    const head = `${best} (${bestMode}) leads ${rival} (${mode}) by ${points(lead)}`;
    const bestOtherWay = sameChunks(best, mode);
    const rivalOtherWay = sameChunks(rival, bestMode);
    if (chunksKey(rival) === chunksKey(best)) {
      notes.push(`${head}: they are the same chunks, so the whole lead is the retrieval mode's.`);
    } else if (bestOtherWay) {
      const modePart = bestScore - composites[bestOtherWay]!;
      notes.push(
        `${head}: searching ${best}'s chunks by ${mode} instead (${bestOtherWay}) scores ${points(composites[bestOtherWay]!)}, ` +
          leadSplit(modePart, lead - modePart, best, rival),
      );
    } else if (rivalOtherWay) {
      const modePart = composites[rivalOtherWay]! - composites[rival]!;
      notes.push(
        `${head}: searching ${rival}'s chunks by ${bestMode} instead (${rivalOtherWay}) scores ${points(composites[rivalOtherWay]!)}, ` +
          leadSplit(modePart, lead - modePart, best, rival),
      );
    } else {
      notes.push(
        `${head}, a lead that mixes chunking and retrieval mode; to separate them, benchmark the same chunks searched the other way too ` +
          `(add ${searchedBy(best, mode)} and ${searchedBy(rival, bestMode)} to --strategies).`,
      );
    }
  }
  return notes;
}

/** The Experiment's verdict fields besides the verdict sentence, from what a run measured (or an older experiment recorded). */
export function verdictFields(
  best: string,
  comparisons: StrategyComparison[],
  aggregates: Record<string, { compositeScore: number | null }>,
  search: Record<string, { retrieval: SearchMode }> | undefined,
  questionSet: QuestionSetProfile | null,
  cannotTellApart: string[] = [],
): Pick<Experiment, "verdictStatus" | "headline" | "inseparableFromBest" | "verdictNotes" | "questionSet" | "retrievalModes"> {
  const retrievalModes = Object.fromEntries(Object.entries(search ?? {}).map(([s, x]) => [s, x.retrieval]));
  const composites = Object.fromEntries(Object.entries(aggregates).map(([s, m]) => [s, m.compositeScore]));
  const basis = verdictBasis({ best, comparisons, composites, retrievalModes, questionSet, cannotTellApart });
  return {
    verdictStatus: basis.status,
    headline: basis.headline,
    inseparableFromBest: basis.inseparableFromBest,
    verdictNotes: basis.notes,
    questionSet,
    retrievalModes,
  };
}
