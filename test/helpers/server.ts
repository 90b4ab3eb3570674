import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../../src/transports/http/server.js";
import { createWorkspace, type Workspace } from "./workspace.js";

export interface TestServer {
  ws: Workspace;
  server: RunningServer;
  url: string;
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  /** POST /documents; `query` e.g. "?new=true". */
  upload(filename: string, bytes: Buffer, headers?: Record<string, string>, query?: string): Promise<{ status: number; body: any }>;
  /** Stops the server (as on SIGTERM) and starts a new one over the same data directory. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A real chunkeval server on 127.0.0.1 over a temporary data directory (hash embedder). */
export async function startTestServer(
  flags: Record<string, string | number> = {},
  env: NodeJS.ProcessEnv = {},
  options: { ownCache?: boolean } = {},
): Promise<TestServer> {
  const ws = await createWorkspace(flags, env, options);
  mkdirSync(join(ws.dir, "questions"), { recursive: true });
  let server = await startServer(ws.app, { host: "127.0.0.1", port: 0 });
  const t: TestServer = {
    ws,
    server,
    url: server.url,
    async request(method, path, body, headers = {}) {
      const send = () =>
        fetch(t.url + path, {
          method,
          headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        });
      const response = await send().catch((error: unknown) => {
        // The keep-alive race: a poll reusing a kept-alive socket as the server's 5 s idle timer closes
        // it. Test and server share one event loop here, so a benchmark computing synchronously for a few
        // seconds lets both timers fire together (CI saw ECONNRESET). A GET is idempotent: HTTP clients
        // retry it once on a fresh connection, as browsers do; anything else fails as it came.
        if (method === "GET" && connectionReset(error)) return send();
        throw error;
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
    async upload(filename, bytes, headers = {}, query = "") {
      const form = new FormData();
      form.append("file", new Blob([bytes]), filename);
      const response = await fetch(t.url + "/documents" + query, { method: "POST", body: form, headers });
      return { status: response.status, body: await response.json() };
    },
    async restart() {
      await server.close();
      await ws.reopen();
      server = await startServer(ws.app, { host: "127.0.0.1", port: 0 });
      t.server = server;
      t.url = server.url;
    },
    async close() {
      await server.close();
      await ws.cleanup();
    },
  };
  return t;
}

/** Whether fetch failed because the server closed a reused connection (ECONNRESET, or undici's "other side closed"). */
function connectionReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET";
}

/** Polls GET /jobs/:id until the job completed or failed (every 25 ms, at most `attempts` times), and returns its body. */
export async function waitForJob(t: Pick<TestServer, "request">, id: string, attempts = 400): Promise<any> {
  for (let i = 0; i < attempts; i++) {
    const r = await t.request("GET", `/jobs/${id}`);
    if (r.body.status === "completed" || r.body.status === "failed") return r.body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`job ${id} did not finish within ${attempts} polls`);
}
