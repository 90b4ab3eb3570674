import { readFileSync } from "node:fs";

/** chunkeval's version, read once from its package.json (one level above src/ and dist/). */
export const CHUNKEVAL_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
