/**
 * The name an upload is recorded under: the last path segment of what the client sent, without
 * control characters (NUL, line breaks, escape sequences, bidirectional overrides), cut to
 * `maxLength` characters keeping the extension. Names are only ever recorded, never used as paths.
 */
export function cleanUploadName(raw: string, maxLength: number): string {
  const lastSegment = raw.replace(/\\/g, "/").split("/").pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = lastSegment.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  const chars = [...clean];
  if (chars.length <= maxLength) return clean;
  const dot = clean.lastIndexOf(".");
  const extension = dot > 0 && clean.length - dot <= 10 ? [...clean.slice(dot)] : [];
  return [...chars.slice(0, maxLength - extension.length), ...extension].join("");
}

/** "handbook.docx (doc_…)": a document or collection as people know it, with the id commands take; the id alone when the name is unknown. */
export function nameWithId(name: string | null | undefined, id: string): string {
  return name ? `${name} (${id})` : id;
}
