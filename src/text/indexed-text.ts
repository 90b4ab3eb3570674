/** The text that is embedded and keyword-searched for a chunk: its context first, if it has one. */
export function indexedText(chunk: { text: string; context: string | null }): string {
  return chunk.context ? `${chunk.context}\n\n${chunk.text}` : chunk.text;
}
