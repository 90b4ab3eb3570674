import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the worker module `name` that sits next to the module `callerUrl` (its
 * `import.meta.url`). Under tsx (tests, scripts) both are .ts; built, both are .js.
 */
export function startSiblingWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(callerUrl));
  const workerFile = new URL(`./${name}${extension}`, callerUrl);
  // Node 20 workers do not inherit tsx's loader, so a .ts worker registers it first.
  return extension === ".ts"
    ? new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(workerFile.href)}); });`, { ...options, eval: true })
    : new Worker(workerFile, options);
}
