import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";

// The browser UI's three files stay in src/transports/http/ui (shipped with the package), found the
// same way from src/ (tsx) and dist/ (built), as the report templates are.
const UI_DIR = fileURLToPath(new URL("../../../../src/transports/http/ui/", import.meta.url));
const UI_FILES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "ui.js": "text/javascript; charset=utf-8",
  "ui.css": "text/css; charset=utf-8",
};
// Everything the page loads comes from this server: a script or style from anywhere else is refused
// by the browser, so the UI works offline and a document's text can never pull in a script.
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The browser UI at /ui/ (`chunkeval ui`, and `serve`): static files that call the documented HTTP API, and nothing else. */
export function uiRoutes(app: FastifyInstance): void {
  const files = new Map(Object.entries(UI_FILES).map(([name, type]) => [name, { type, body: readFileSync(UI_DIR + name) }]));
  const send = (name: string) => async (_request: unknown, reply: FastifyReply) => {
    const file = files.get(name)!;
    return reply
      .header("content-type", file.type)
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .header("cache-control", "no-cache")
      .send(file.body);
  };
  app.get("/ui", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/ui/"));
  app.get("/ui/", { schema: { hide: true } }, send("index.html"));
  for (const name of Object.keys(UI_FILES)) app.get(`/ui/${name}`, { schema: { hide: true } }, send(name));
}
