/**
 * Whether an answer declines to answer because the context lacks the answer. The answer prompt
 * asks a model to say so when the context does not contain the answer (prompt.ts); this reads
 * the usual ways of saying it, so that a benchmark can score abstention on questions the
 * document cannot answer and keep such replies out of the hallucination rate.
 */
const ABSTENTION = new RegExp(
  [
    // "The context does not contain the answer", "the passages don't mention ..."
    String.raw`\b(?:context|passages?|documents?|text|excerpts?|information (?:given|provided))\b[^.]{0,40}` +
      String.raw`\b(?:does not|doesn['’]t|do not|don['’]t|did not)\s+(?:contain|include|mention|say|state|specify|provide|give|cover|address|answer)`,
    // "not mentioned in the context", "not stated in the passages"
    String.raw`\bnot\s+(?:mentioned|stated|specified|provided|given|covered|addressed|found|included|contained)` +
      String.raw`\s+in\s+the\s+(?:context|passages?|documents?|text)`,
    // "There is no information about ...", "no answer in the context"
    String.raw`\bno\s+(?:information|mention|answer|details?)\b[^.]{0,40}\b(?:context|passages?|documents?|text|about|on|regarding)\b`,
    String.raw`\b(?:cannot|can['’]t|unable to)\s+(?:answer|find|determine|tell)\b`,
    String.raw`\bnot enough information\b`,
  ].join("|"),
  "i",
);

/** True when the answer's first sentence (where a model says it) declines to answer. */
export function isAbstention(answer: string): boolean {
  const first = /^[^.!?]*[.!?]?/.exec(answer.trim())?.[0] ?? "";
  return ABSTENTION.test(first);
}
