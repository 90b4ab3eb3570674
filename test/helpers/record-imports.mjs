// Loaded with `node --import`: records the URL of every module the process resolves (its ES
// modules, the CommonJS packages they import, and what is require()d, as src/lazy-require.ts does)
// in the file CHUNKEVAL_RECORD_IMPORTS names, one per line, so a test can tell which parts of
// chunkeval a command loaded.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";

const file = process.env.CHUNKEVAL_RECORD_IMPORTS;
register(new URL("./record-imports-hooks.mjs", import.meta.url), { data: { file } });
// require() resolves on this thread, without the loader hooks.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function recorded(...args) {
  const resolved = resolveFilename.apply(this, args);
  if (file && isAbsolute(resolved)) appendFileSync(file, `${pathToFileURL(resolved).href}\n`);
  return resolved;
};
