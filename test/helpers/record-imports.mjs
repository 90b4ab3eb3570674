// Loaded with `node --import`: records the URL of every module the process resolves (its ES
// modules, and the CommonJS packages they import) in the file CHUNKEVAL_RECORD_IMPORTS names,
// one per line, so a test can tell which parts of chunkeval a command loaded.
import { register } from "node:module";

register(new URL("./record-imports-hooks.mjs", import.meta.url), { data: { file: process.env.CHUNKEVAL_RECORD_IMPORTS } });
