/** Whether a sweep's estimate lets it run, asks first, or refuses: loads the token counter, so `bench` imports it when it runs. */
export { sweepDecision } from "../services/benchmarking/sweep-estimate.js";
