import { AsyncResource } from "node:async_hooks";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the worker module `name` that sits next to the module `callerUrl` (its
 * `import.meta.url`). Under tsx (tests, scripts) both are .ts; built, both are .js.
 */
export function startSiblingWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(callerUrl));
  const workerFile = new URL(`./${name}${extension}`, callerUrl);
  if (extension !== ".ts") return startBuiltWorker(workerFile, options);
  // Node 20 workers do not inherit tsx's loader, so a .ts worker registers it first.
  return new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(workerFile.href)}); });`, { ...options, eval: true });
}

/** A built worker, started without the process's preloads (withoutPreloads) when it has any. */
function startBuiltWorker(workerFile: URL, options: WorkerOptions): Worker {
  const execArgv = withoutPreloads(process.execArgv);
  if (execArgv.length === process.execArgv.length) return new Worker(workerFile, options);
  try {
    return new Worker(workerFile, { execArgv, ...options });
  } catch (error) {
    // Node 24's test runner gives its test processes per-process flags (--v8-pool-size,
    // --secure-heap…) that a worker refuses when they are passed to it, and leaves out when it
    // inherits them: there the worker inherits, preloads and all.
    if ((error as { code?: string }).code === "ERR_WORKER_INVALID_EXEC_ARGV") return new Worker(workerFile, options);
    throw error;
  }
}

/**
 * The process's flags without its preloads (`--import`, `--require`, `--loader`): a built worker
 * runs only chunkeval's own JavaScript, and a worker otherwise repeats every preload of the
 * process that started it. Under the test runner those were tsx and a module-hooks loader, which
 * started a loader thread of their own in every worker (about 0.4 s of CPU each, a few hundred
 * workers per `npm test`).
 */
export function withoutPreloads(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (PRELOADS.includes(flag)) i++;
    else if (!PRELOADS.some((name) => flag.startsWith(`${name}=`))) kept.push(flag);
  }
  return kept;
}

const PRELOADS = ["--import", "--require", "-r", "--loader", "--experimental-loader"];

/** Why a task did not return: its deadline, its heap limit, its signal, a crash, an error it threw, or no free worker within its wait. */
export class WorkerTaskFailure extends Error {
  constructor(
    readonly kind: "timeout" | "memory" | "aborted" | "crashed" | "threw" | "busy",
    message: string,
    /** For `threw`: the class name of the error the task threw. */
    readonly className?: string,
  ) {
    super(message);
  }
}

/**
 * Runs one-message tasks in worker threads of one module: at most `maxWorkers` at once (more
 * wait). Every worker that finished cleanly is kept warm for the next task: starting one loads
 * its modules again, and when only one was kept, tasks running side by side started a worker
 * each time (processing five strategies at once was 2.8x slower than one after another). A
 * worker that overruns its deadline, runs out of its heap or is cancelled is terminated, never
 * the process. The module answers each message with `{result}` or `{error: {className, message}}`.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly callerUrl: string,
    private readonly name: string,
    private readonly options: { maxWorkers: number; resourceLimits?: ResourceLimits },
  ) {}

  /**
   * Runs one task; without `timeoutMs` only the signal stops it. `onRequest` answers what the
   * task asks of this thread while it runs (serveTasks' `call`), e.g. an embedding. The deadline
   * counts the task's own time: its clock stops while this thread works on one of its requests,
   * so a slow embedder or LLM does not use up a chunker's deadline (they have their own).
   */
  async run<T>(
    message: unknown,
    task: {
      timeoutMs?: number;
      /** How long the task may wait for a free worker before it gives up ("busy"); unbounded without. */
      waitMs?: number;
      signal?: AbortSignal;
      transfer?: ArrayBuffer[];
      onRequest?: (payload: any) => Promise<unknown>;
    },
  ): Promise<T> {
    const aborted = () => new WorkerTaskFailure("aborted", String(task.signal?.reason ?? "aborted"));
    // The task's requests are answered in the caller's async context (a request's chat-call budget,
    // generators/call-budget.ts), not in that of the worker's message event.
    const onRequest = task.onRequest && AsyncResource.bind(task.onRequest);
    if (task.signal?.aborted) throw aborted();
    const worker = await this.acquire(task.waitMs);
    // Cancelled while it waited for a free worker (a 504 sent, a document deleted): it never starts.
    if (task.signal?.aborted) {
      this.release(worker, true);
      throw aborted();
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let remainingMs = task.timeoutMs ?? Infinity;
      let clockStartedAt = 0;
      let requestsOpen = 0;
      const startClock = () => {
        if (task.timeoutMs === undefined) return;
        clockStartedAt = performance.now();
        timer = setTimeout(() => finish(false, () => reject(new WorkerTaskFailure("timeout", "the task overran its deadline"))), Math.max(0, remainingMs));
      };
      const stopClock = () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        timer = undefined;
        remainingMs -= performance.now() - clockStartedAt;
      };
      const finish = (reusable: boolean, outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        task.signal?.removeEventListener("abort", onAbort);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        this.release(worker, reusable);
        outcome();
      };
      const onMessage = (m: { result?: T; error?: { className: string; message: string }; request?: { id: number; payload: unknown } }) => {
        if (m.request) return answer(m.request);
        finish(true, () => (m.error ? reject(new WorkerTaskFailure("threw", m.error.message, m.error.className)) : resolve(m.result as T)));
      };
      const answer = ({ id, payload }: { id: number; payload: unknown }) => {
        if (requestsOpen++ === 0) stopClock();
        const asked = onRequest ? onRequest(payload) : Promise.reject(new Error("this task takes no requests"));
        const reply = (message: { id: number; result?: unknown; error?: { className: string; message: string } }) => {
          if (settled) return;
          if (--requestsOpen === 0) startClock();
          worker.postMessage({ reply: message });
        };
        asked.then(
          (result) => reply({ id, result }),
          (error: unknown) => reply({ id, error: describeThrown(error) }),
        );
      };
      const onError = (error: Error & { code?: string }) =>
        finish(false, () =>
          reject(new WorkerTaskFailure(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crashed", error.message.split("\n")[0]!.slice(0, 200))),
        );
      const onExit = () => finish(false, () => reject(new WorkerTaskFailure("crashed", "the worker stopped")));
      const onAbort = () => finish(false, () => reject(aborted()));
      startClock();
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      task.signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage(message, task.transfer ?? []);
    });
  }

  private async acquire(waitMs = Infinity): Promise<Worker> {
    const giveUpAt = performance.now() + waitMs;
    while (this.busy >= this.options.maxWorkers) {
      const left = giveUpAt - performance.now();
      if (left <= 0) throw new WorkerTaskFailure("busy", `every worker stayed busy for ${Math.round(waitMs / 1000)} s`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        // Woken by a released worker, or at the end of the wait (then it leaves the line).
        const timer = Number.isFinite(left)
          ? setTimeout(() => {
              const at = this.waiting.indexOf(wake);
              if (at >= 0) this.waiting.splice(at, 1);
              resolve();
            }, left)
          : undefined;
        this.waiting.push(wake);
      });
    }
    this.busy++;
    const warm = this.idle.pop();
    if (warm) {
      warm.ref();
      return warm;
    }
    return startSiblingWorker(this.callerUrl, this.name, this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {});
  }

  private release(worker: Worker, reusable: boolean): void {
    this.busy--;
    if (reusable) {
      // An idle worker must not keep a finished CLI command alive.
      worker.unref();
      this.idle.push(worker);
    } else {
      void worker.terminate();
    }
    this.waiting.shift()?.();
  }
}

/** An error as it crosses a thread: its class name (restored by the receiver) and message. */
function describeThrown(error: unknown): { className: string; message: string } {
  if (error instanceof RemoteError) return { className: error.className, message: error.message };
  return { className: error instanceof Error ? error.constructor.name : "Error", message: error instanceof Error ? error.message : String(error) };
}

/** An error the other thread threw, keeping its class name for whoever restores it. */
class RemoteError extends Error {
  constructor(
    readonly className: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The body of a worker module: answers each message with `{result}` or `{error}`. A task may
 * `call` the thread that runs it (WorkerPool.run's `onRequest`) and await the answer.
 */
export function serveTasks(
  port: import("node:worker_threads").MessagePort,
  handle: (message: any, call: (payload: unknown) => Promise<any>) => Promise<{ result: unknown; transfer?: ArrayBuffer[] }>,
): void {
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const call = (payload: unknown) =>
    new Promise<any>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage({ request: { id, payload } });
    });
  port.on("message", async (message: { reply?: { id: number; result?: unknown; error?: { className: string; message: string } } }) => {
    if (message.reply) {
      const waiting = pending.get(message.reply.id);
      pending.delete(message.reply.id);
      const { error, result } = message.reply;
      if (error) waiting?.reject(new RemoteError(error.className, error.message));
      else waiting?.resolve(result);
      return;
    }
    try {
      const { result, transfer } = await handle(message, call);
      port.postMessage({ result }, transfer ?? []);
    } catch (error) {
      port.postMessage({ error: describeThrown(error) });
    }
  });
}
