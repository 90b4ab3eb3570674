/**
 * Benchmarks as the transports show them: an experiment as presented, the console scorecard, and
 * the chat-call budget a request or job runs within.
 */
export { experimentView } from "../services/benchmarking/experiments.js";
export { consoleScorecard } from "../reports/console-scorecard.js";
export { withCallBudget } from "../generators/call-budget.js";
