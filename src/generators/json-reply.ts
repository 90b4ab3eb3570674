// What a chat model replies when asked for JSON: the judge, the question writer and the paraphraser read it.
/** The first JSON object in a model reply (models like to wrap JSON in prose or fences), or null. */
export function extractJson(reply: string): Record<string, unknown> | null {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start === -1 || end <= start) return null;
  try {
    const parsed: unknown = JSON.parse(reply.slice(start, end + 1));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
