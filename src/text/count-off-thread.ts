import { WorkerPool } from "../worker-threads.js";
import { countTokens } from "./tokens.js";

/**
 * Texts longer than this, or with an unbroken run of at least LONG_RUN characters, are counted
 * in a worker thread. Prose (words of a few letters) counts fast anywhere, but a long run costs
 * a byte-pair merge over all of its bytes (text/bpe.ts), with no count of an earlier equal piece
 * to reuse: time a server's event loop must not lose.
 */
const LONG_TEXT_CHARACTERS = 20_000;
const LONG_RUN = 64;

/** Whether the text has LONG_RUN non-space characters in a row (a linear scan: a regex would backtrack). */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    run = c === 32 || c === 10 || c === 9 || c === 13 ? 0 : run + 1;
    if (run >= LONG_RUN) return true;
  }
  return false;
}

let pool: WorkerPool | undefined;

/** The o200k token count of all the texts together, the long ones counted off this thread. */
export async function countTokensOffThread(texts: string[]): Promise<number> {
  let total = 0;
  const long: string[] = [];
  for (const text of texts) {
    if (text.length > LONG_TEXT_CHARACTERS || hasLongRun(text)) long.push(text);
    else total += countTokens(text);
  }
  if (long.length === 0) return total;
  pool ??= new WorkerPool(import.meta.url, "token-count-worker", { maxWorkers: 1 });
  const counts = await pool.run<number[]>(long, {});
  return counts.reduce((n, c) => n + c, total);
}
