/**
 * A question as the repeat check compares it: the same text up to case and white space, where
 * white space includes its absence around punctuation ("why did the speaker  stay at the club ?"
 * repeats "Why did the speaker stay at the club?").
 */
export function questionKey(question: string): string {
  return question
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/ (?=[.,;:!?…)\]}])/g, "")
    .replace(/([([{]) /g, "$1")
    .trim();
}
