/** The user's own chunks, as the transports take them: a JSONL file read a line at a time, or a request's list. */
export { chunksFromList, eachImport, parseChunksJsonl } from "../strategies/imported-chunks.js";
