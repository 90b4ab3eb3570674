/**
 * What kind of answer a question asks for (a time or date, a quantity), and whether a sentence
 * holds one. A passage that shares a question's words but holds no date when the question asks
 * "when" rarely answers it; dense and keyword retrieval both rank by what the passage is about,
 * neither by whether it holds the kind of thing asked for, which is why the offline context judge
 * uses this as evidence of its own.
 */

const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
const DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|daily|weekly|monthly|annually|yearly|noon|midnight";
const SMALL_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred";
const TIME_UNITS = "seconds?|minutes?|hours?|days?|weeks?|months?|quarters?|years?";

export interface AnswerType {
  name: "time" | "quantity";
  /** The question asks for this kind of answer. */
  asks: RegExp;
  /** A sentence holds an answer of this kind. */
  holds: RegExp;
}

export const ANSWER_TYPES: readonly AnswerType[] = [
  {
    name: "time",
    asks: new RegExp(
      "\\b(?:when|what time|which day|what day|which date|what date|which month|which year|what year|" +
        "how soon|how early|how late|until|by when|deadline|last date)\\b",
      "i",
    ),
    holds: new RegExp(
      `\\b(?:${MONTHS}|${DAYS})\\b|\\d{1,2}[:.]\\d{2}|\\b\\d{1,2}\\s?(?:am|pm)\\b|\\b(?:1[89]|20)\\d{2}\\b|` +
        `\\b(?:\\d+|${SMALL_NUMBER_WORDS})\\s+(?:working\\s+|business\\s+|calendar\\s+)?(?:${TIME_UNITS})\\b`,
      "i",
    ),
  },
  {
    name: "quantity",
    asks: new RegExp(
      "\\b(?:how (?:many|much|long|large|big|far|often|fast|old|high|heavy)|what (?:percentage|share|rate|fee|price|limit|number)|which number|" +
        "what (?:does|do|did|is|are)\\b.*\\b(?:cost|pay|charge|owe|fee|price|rate))\\b",
      "i",
    ),
    holds: new RegExp(`\\d|\\b(?:${SMALL_NUMBER_WORDS}|thousand|million|half|double|twice|free)\\b`, "i"),
  },
];

/** The kinds of answer a question (or one part of it) asks for: none, one or both. */
export function answerTypesAsked(question: string): AnswerType[] {
  return ANSWER_TYPES.filter((t) => t.asks.test(question));
}
