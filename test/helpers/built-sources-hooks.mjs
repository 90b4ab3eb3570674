// The loader hook of built-sources.mjs (it runs on the loader's own thread): src/…/name.ts →
// dist/…/name.js, after the hooks registered before it (tsx's) resolved the specifier. A source
// with no build (a file added since the build, which the runner would have rebuilt) loads as it is.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

let sources;
let built;

export function initialize(data) {
  sources = `${data.root}src/`;
  built = `${data.root}dist/`;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith(sources) || !resolved.url.endsWith(".ts")) return resolved;
  const url = `${built}${resolved.url.slice(sources.length, -".ts".length)}.js`;
  return existsSync(fileURLToPath(url)) ? { ...resolved, url, format: "module" } : resolved;
}
