import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import { countTokens } from "./tokens.js";

/** A token-counting worker thread: texts -> their o200k token counts. */
serveTasks(parentPort!, async (texts: string[]) => ({ result: texts.map(countTokens) }));
