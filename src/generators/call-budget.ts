import { AsyncLocalStorage } from "node:async_hooks";
import { LlmCallLimitError } from "../errors.js";

/** Chat-model calls one piece of work may still make, and the setting that says so. */
interface CallBudget {
  readonly max: number;
  readonly setting: string;
  used: number;
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
 * benchmark and processing request under one (http_max_llm_calls): a caller cannot spend the
 * operator's key without bound.
 */
export function withCallBudget<T>(max: number, setting: string, work: () => Promise<T>): Promise<T> {
  return running.run({ max, setting, used: 0 }, work);
}

/** Before a paid chat-model call: counts it against the running work's budget, if it has one; throws past it. */
export function spendChatCall(model: string): void {
  const budget = running.getStore();
  if (!budget) return;
  if (budget.used >= budget.max) {
    throw new LlmCallLimitError(
      `this request reached ${budget.setting} (${budget.max} chat-model calls to ${model}) and was stopped; ` +
        `ask for less in one request (fewer variants, questions or contextual_retrieval chunks), or raise ${budget.setting} on the server`,
    );
  }
  budget.used++;
}
