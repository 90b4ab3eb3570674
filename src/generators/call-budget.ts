import { AsyncLocalStorage } from "node:async_hooks";
import type { SharedCallCount } from "../domain/ports/job-queue.js";
import { LlmCallLimitError } from "../errors.js";

/** Chat-model calls one piece of work may still make, the setting that says so, and where they are counted. */
interface CallBudget {
  readonly max: number;
  readonly setting: string;
  /** Counted in this process, or where every process running part of the work counts (a queued job on the shared queue). */
  readonly count: SharedCallCount;
}

/**
 * The budget of the work running now, carried by async context: every chat-model call made for
 * it, however deep (answers, an LLM judge, contextual_retrieval's chunk contexts asked from a
 * chunking worker), is counted without passing the budget through every service.
 */
const running = new AsyncLocalStorage<CallBudget>();

/**
 * Runs `work` with at most `max` chat-model calls (cached replies are free: they call nothing);
 * the call past it fails with an LlmCallLimitError naming `setting`. The HTTP API runs every
 * request that may call a chat model, and every background job, under one (http_max_llm_calls):
 * a caller cannot spend the operator's key without bound. `shared` counts the calls of work split
 * over processes (a queued benchmark's processing units, a job's later attempts) in one place;
 * without it they are counted here.
 */
export function withCallBudget<T>(max: number, setting: string, work: () => Promise<T>, shared?: SharedCallCount): Promise<T> {
  return running.run({ max, setting, count: shared ?? countedHere() }, work);
}

function countedHere(): SharedCallCount {
  let used = 0;
  return {
    take: async (max) => {
      if (used >= max) return false;
      used++;
      return true;
    },
  };
}

/** Before a paid chat-model call: counts it against the running work's budget, if it has one; throws past it. */
export async function spendChatCall(model: string): Promise<void> {
  const budget = running.getStore();
  if (!budget) return;
  if (!(await budget.count.take(budget.max))) {
    throw new LlmCallLimitError(
      `this request reached ${budget.setting} (${budget.max} chat-model calls to ${model}) and was stopped; ` +
        `ask for less in one request (fewer variants, questions or contextual_retrieval chunks), or raise ${budget.setting} on the server`,
    );
  }
}
