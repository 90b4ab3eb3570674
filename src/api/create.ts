/**
 * Building the API: the composition root's entry points. Loading this module loads the whole core
 * (stores, parsers, models on first use), so the CLI imports it only once a command needs it.
 */
export { createChunkeval, openCacheMaintenance } from "../chunkeval.js";
