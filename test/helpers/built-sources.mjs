// Loaded with `node --import` after tsx by scripts/run-tests.mjs, once it has built dist/ from the
// sources as they stand: every import of a chunkeval module (src/…/name.ts, from a test, a helper
// or another module) loads its build (dist/…/name.js) instead. The tests then check the code that
// ships, and a test process loads the application in about half the CPU: under tsx, importing
// src/index.ts took 3.2 s of CPU, the built dist/index.js 1.6 s (each module transpiled through
// tsx's loader thread), and the suite starts a few hundred such processes and worker threads.
// Test files and their helpers stay TypeScript under tsx.
import { register } from "node:module";

register(new URL("./built-sources-hooks.mjs", import.meta.url), { data: { root: new URL("../../", import.meta.url).href } });
