import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  path: string;
  body: any;
}

/**
 * A stand-in for a paid OpenAI-compatible API on 127.0.0.1: /v1/embeddings answers
 * deterministic vectors, /v1/chat/completions answers `reply(body)` with usage. Statuses in
 * `failures` are answered first, one per request, to exercise retries; `delayMs` slows every answer;
 * `before` is awaited before each answer (a test holds a request there until it has acted);
 * `rawBody` replaces every answer (a reply without `choices` or `data`).
 */
export async function startOpenAiStub(
  options: {
    reply?: (body: any) => string;
    failures?: number[];
    dimension?: number;
    omitUsage?: boolean;
    delayMs?: number;
    before?: (path: string) => Promise<void>;
    /** Answers every request with this body (200), whatever the route: a server that breaks the API's shape. */
    rawBody?: string;
  } = {},
) {
  const requests: RecordedRequest[] = [];
  const failures = [...(options.failures ?? [])];
  const dimension = options.dimension ?? 8;
  const readBody = (req: IncomingMessage) =>
    new Promise<any>((resolve) => {
      let data = "";
      req.on("data", (c) => (data += c)).on("end", () => resolve(data ? JSON.parse(data) : {}));
    });
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    await options.before?.(req.url ?? "");
    requests.push({ path: req.url ?? "", body });
    const failure = failures.shift();
    res.setHeader("content-type", "application/json");
    if (failure) {
      res.statusCode = failure;
      if (failure === 429) res.setHeader("retry-after-ms", "10");
      return res.end(JSON.stringify({ error: { message: `stub failure ${failure}`, type: "stub" } }));
    }
    if (options.rawBody !== undefined) return res.end(options.rawBody);
    if (req.url === "/v1/embeddings") {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const data = inputs
        .map((text, index) => ({ object: "embedding", index, embedding: Array.from({ length: dimension }, (_, d) => ((text.length * (d + 1)) % 7) + 1) }))
        .reverse(); // out of order on purpose: clients must sort by index
      return res.end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }));
    }
    if (req.url === "/v1/chat/completions") {
      const content = options.reply ? options.reply(body) : "stub answer";
      return res.end(
        JSON.stringify({
          id: "chatcmpl-stub",
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          ...(options.omitUsage ? {} : { usage: { prompt_tokens: 123, completion_tokens: 45, total_tokens: 168 } }),
        }),
      );
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: "not found" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
