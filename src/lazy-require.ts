import { createRequire } from "node:module";

const requireFromHere = createRequire(import.meta.url);

/**
 * A package loaded on its first use, synchronously (its CommonJS build), instead of at start: for a
 * library only some commands need (a format's parser, the tokenizer's tables, the report templates'
 * engine), whose loading every process would otherwise pay, `chunkeval jobs` and a listing included.
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(specifier) as T);
}
