import { existsSync } from "node:fs";
import { basename, extname } from "node:path";
import { ValidationError } from "../../errors.js";
import type { Chunkeval, CorpusTarget } from "../../api/index.js";

/** `<document or collection name>.questions.json`: the file `questions generate` writes without --out. */
export function questionsFileFor(name: string): string {
  return `${basename(name, extname(name))}.questions.json`;
}

/** The name the target will be stored under, known before generating: the file's, the stored document's, or the collection's. */
export async function targetName(app: Chunkeval, target: CorpusTarget): Promise<string> {
  if (target.collection) {
    try {
      return (await app.getCollection(target.collection.name)).name;
    } catch {
      return target.collection.name; // created by this command
    }
  }
  const document = target.document!;
  return "filename" in document ? document.filename : (await app.getDocument(document.id)).filename;
}

/** Refuses to replace an existing file unless --force: a questions file may hold hours of edits. */
export function refuseExistingOutput(out: string, force: boolean | undefined): void {
  if (force || !existsSync(out)) return;
  throw new ValidationError(`${out} exists: give --force to overwrite it, or --out FILE to write another file`);
}
