/**
 * Limits stated as bounds: "no more than 3.5 mm/s", "at least 95 percent", "not exceeding 30
 * days", "12 or fewer". A standard states most of its figures this way, and the "no" / "not" of
 * a bound is no negation of the sentence: "is no more than 3.5" and "is at most 3.5" say the
 * same. What a bound does say is a direction, and a changed direction ("no less than 3.5") is a
 * changed fact.
 */
import { readNumberWords } from "./number-words.js";

/** Which side of the value the bounded quantity lies on: "upper" for ≤ / <, "lower" for ≥ / >. */
export type BoundDirection = "upper" | "lower";

export interface Bound {
  direction: BoundDirection;
  /** True for ≤ / ≥ ("no more than", "at least"), false for < / > ("less than", "over"). */
  inclusive: boolean;
}

/** Comparatives before "than", by the side they put the quantity on: "more than 3" puts it above 3 (3 is a lower bound). */
const ABOVE = "more|greater|higher|later|longer|larger|bigger|heavier|older|wider|deeper|taller|thicker|faster|hotter|warmer";
const BELOW = "less|fewer|lower|earlier|shorter|smaller|younger|lighter|narrower|shallower|thinner|slower|colder|cooler";
const NEGATOR = "no|not|never";

/** Bound phrases that end right before the bounded value (matched at the end of the words before it). */
const BEFORE_VALUE: Array<[RegExp, Bound]> = [
  [new RegExp(`\\b(?:${NEGATOR}) (?:${ABOVE}) than$`), { direction: "upper", inclusive: true }],
  [new RegExp(`\\b(?:${NEGATOR}) (?:${BELOW}) than$`), { direction: "lower", inclusive: true }],
  [new RegExp(`\\b(?:${ABOVE}) than$`), { direction: "lower", inclusive: false }],
  [new RegExp(`\\b(?:${BELOW}) than$`), { direction: "upper", inclusive: false }],
  [/\b(?:not (?:to )?exceed(?:ing|s)?|not (?:above|over)|at most|up to|maximum(?: of)?|max|within)$/, { direction: "upper", inclusive: true }],
  [/\b(?:at least|not (?:below|under)|minimum(?: of)?|min)$/, { direction: "lower", inclusive: true }],
  [/\b(?:exceed(?:ing|s)?|above|over|in excess of|beyond)$/, { direction: "lower", inclusive: false }],
  [/\b(?:below|under)$/, { direction: "upper", inclusive: false }],
];
/** Bound phrases that follow the value or its unit ("12 or fewer", "30 days or more"), matched at the start of the words after it. */
const AFTER_VALUE: Array<[RegExp, Bound]> = [
  [new RegExp(`^(?:\\S+ )?or (?:${ABOVE}|above|over)\\b`), { direction: "lower", inclusive: true }],
  [new RegExp(`^(?:\\S+ )?or (?:${BELOW}|below|under)\\b`), { direction: "upper", inclusive: true }],
];

/** A bound's negator: the "no" of "no more than", the "not" of "shall not exceed". Not a negation of the sentence. */
const NEGATED_BOUND = new RegExp(`\\b(?:${NEGATOR})\\s+(?:(?:${ABOVE}|${BELOW})\\s+than|(?:to\\s+)?exceed(?:ing|s)?|above|over|below|under)\\b`, "gi");

/**
 * The sentence with the negators of its bounds on numbers taken out, so that only real negations
 * are left to count. A bound on something else ("no later than the end of the month") keeps its
 * "no": nothing else checks its direction, so the polarity check still tells it from "later than".
 */
export function withoutBoundNegators(sentence: string): string {
  return sentence.replace(NEGATED_BOUND, (phrase: string, offset: number) =>
    boundsANumber(sentence.slice(offset + phrase.length)) ? phrase.replace(/^\S+/, "") : phrase,
  );
}

/** Whether the text opens on a number, in digits or in words, after any article or "of". */
function boundsANumber(rest: string): boolean {
  const words = (rest.match(/\d+(?:[.,]\d+)*|\p{L}[\p{L}-]*/gu) ?? []).slice(0, 6);
  let i = 0;
  while (i < words.length && /^(?:a|an|the|of)$/i.test(words[i]!)) i++;
  if (i === words.length) return false;
  return /^\d/.test(words[i]!) || readNumberWords(words, i) !== null || words[i]!.toLowerCase() === "one";
}

/**
 * The bound a value carries, given the lower-cased words before it and after it (articles and
 * "of" between phrase and value are skipped: "a maximum of 3.5"). Null when it carries none.
 */
export function boundOf(before: string[], after: string[]): Bound | null {
  const lead = before
    .slice(-5)
    .join(" ")
    .replace(/(?:\s+(?:a|an|the))+$/, "");
  for (const [pattern, bound] of BEFORE_VALUE) if (pattern.test(lead)) return bound;
  const trail = after.slice(0, 3).join(" ");
  for (const [pattern, bound] of AFTER_VALUE) if (pattern.test(trail)) return bound;
  return null;
}

/**
 * Whether a value the statement bounds with `said` is stated by evidence that bounds the same
 * value with `found` (null: the evidence gives the value plainly). A plain value in the statement
 * claims no bound; a bound must point the same way as the evidence's; against a plain value, an
 * inclusive bound still holds ("at least 3" of exactly 3) and a strict one does not ("more than 3").
 */
export function boundHolds(said: Bound | null, found: Bound | null): boolean {
  if (said === null) return true;
  if (found === null) return said.inclusive;
  return said.direction === found.direction;
}
