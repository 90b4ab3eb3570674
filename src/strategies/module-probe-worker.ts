import { parentPort, workerData } from "node:worker_threads";

/** Imports a strategy module in a throwaway thread and says when it has settled (strategy-module.ts, probeImport). */
try {
  await import((workerData as { url: string }).url);
  parentPort!.postMessage({ settled: true });
} catch (error) {
  parentPort!.postMessage({ settled: false, message: error instanceof Error ? error.message : String(error) });
}
