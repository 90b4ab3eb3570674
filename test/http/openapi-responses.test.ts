import { test } from "node:test";
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { errorClasses } from "../../src/errors.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

type Operation = { responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>; parameters?: Array<{ in: string }> };
type Answer = { status: number; body: unknown; contentType: string };

const KEY = "s3cret";

/** A schema with the document's `#/components/schemas/X` references replaced by the schemas, for Ajv. */
function inline(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) return inline(components[ref.replace("#/components/schemas/", "")], components);
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== "$id")
      .map(([k, v]) => [k, inline(v, components)]),
  );
}

async function send(
  t: TestServer,
  method: string,
  path: string,
  options: { body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers = { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers };
  const body = options.form ?? (options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body));
  const response = await fetch(t.url + path, { method, headers, body });
  const text = await response.text();
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!;
  return { status: response.status, body: contentType === "application/json" ? JSON.parse(text) : text, contentType };
}

test("the OpenAPI document gives every operation its success and the errors the server answers it with, in the documented error body", async () => {
  // The server's own answers are the source of truth: every operation is sent the requests any client can get wrong (an
  // unknown id, an over-long or undecodable path parameter, an unknown query parameter or field, an oversize body, no API
  // key, a /v1 key without the scope) and real failures (a corrupt upload, a taken name, an unknown strategy), and each
  // status it answers must be documented for that operation, with a body its documented schema accepts.
  const t = await startTestServer({ max_json_body_kb: 1 }, { CHUNKEVAL_API_KEY: KEY });
  const ajv = new Ajv({ strict: false, allErrors: true });
  const seen = new Map<string, Set<number>>();
  try {
    const doc = (await send(t, "GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    const evaluation = { authorization: `Bearer ${KEY}` };
    await t.ws.app.tenants.createTenant("acme");
    const keyWith = async (...scopes: Parameters<typeof t.ws.app.tenants.createApiKey>[1]) => ({
      authorization: `Bearer ${(await t.ws.app.tenants.createApiKey("acme", scopes)).secret}`,
    });
    const v1 = await keyWith("domains:read", "domains:write", "files:write", "points:read");

    /** Checks an answer against the operation's documented responses: its status is there, and its body fits that schema. */
    const check = (method: string, path: string, label: string, answer: Answer) => {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${path} is in the document`);
      const where = `${method} ${path} (${label}) answered ${answer.status}`;
      const response = operation.responses[String(answer.status)];
      assert.ok(response, `${where}, which is not documented (documented: ${Object.keys(operation.responses).join(", ")}): ${JSON.stringify(answer.body)}`);
      const schema = response.content?.[answer.contentType]?.schema;
      assert.ok(schema, `${where} as ${answer.contentType}, a body the document does not describe`);
      const valid = ajv.validate(inline(schema, doc.components.schemas) as object, answer.body);
      assert.ok(valid, `${where}: the body does not fit the documented schema: ${ajv.errorsText()}; ${JSON.stringify(answer.body).slice(0, 300)}`);
      seen.set(`${method} ${path}`, (seen.get(`${method} ${path}`) ?? new Set()).add(answer.status));
    };
    const call = async (method: string, path: string, url: string, label: string, options: Parameters<typeof send>[3] = {}) => {
      const answer = await send(t, method, url, { ...options, headers: { ...(path.startsWith("/v1/") ? v1 : evaluation), ...options.headers } });
      check(method, path, label, answer);
      return answer;
    };
    const upload = (name: string, bytes: Buffer, extra: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(extra)) form.append(k, v);
      form.append("file", new Blob([bytes]), name);
      return form;
    };

    // Real work and real failures.
    const stored = await call("POST", "/documents", "/documents", "upload", { form: upload("handbook.docx", handbookBytes()) });
    assert.equal(stored.status, 201);
    const id = (stored.body as { id: string }).id;
    assert.equal((await call("POST", "/documents", "/documents", "the same bytes again", { form: upload("again.docx", handbookBytes()) })).status, 200);
    assert.equal((await call("POST", "/documents", "/documents", "an empty file", { form: upload("empty.docx", Buffer.alloc(0)) })).status, 400);
    await call("GET", "/documents", "/documents", "list");
    await call("GET", "/strategies", "/strategies", "list");
    assert.equal(
      (await call("POST", "/documents/{doc_id}/process", `/documents/${id}/process`, "process", { body: { strategies: ["recursive"] } })).status,
      200,
    );
    assert.equal(
      (
        await call("POST", "/documents/{doc_id}/process", `/documents/${id}/process?background=true`, "in the background", {
          body: { strategies: ["fixed_size"] },
        })
      ).status,
      202,
    );
    const asked = await call("POST", "/queries", "/queries", "ask", { body: { document_id: id, strategy: "recursive", question: "Who may vote?" } });
    assert.equal(asked.status, 201);
    await call("GET", "/queries/{query_id}", `/queries/${(asked.body as { query_id: string }).query_id}`, "fetch");
    assert.equal(
      (await call("POST", "/queries", "/queries", "an unknown strategy", { body: { document_id: id, strategy: "nope", question: "Q?" } })).status,
      400,
    );
    const questions = [{ question: "Who may vote?", expected_answer: "members" }];
    const bench = await call("POST", "/benchmarks", "/benchmarks", "dry run", {
      body: { document_id: id, strategies: ["recursive"], questions, dry_run: true },
    });
    assert.equal(bench.status, 201);
    const experiment = (bench.body as { experiment_id: string }).experiment_id;
    const outside = { document_id: id, strategies: ["recursive"], questions_file: "../outside.json" };
    assert.equal((await call("POST", "/benchmarks", "/benchmarks", "a questions_file outside the questions directory", { body: outside })).status, 400);
    await call("GET", "/benchmarks/{experiment_id}", `/benchmarks/${experiment}`, "fetch");
    for (const format of ["html", "md", "json"])
      await call("GET", "/benchmarks/{experiment_id}/report", `/benchmarks/${experiment}/report?format=${format}`, format);
    for (const format of ["junit", "summary", "baseline"])
      await call("GET", "/benchmarks/{experiment_id}/ci", `/benchmarks/${experiment}/ci?format=${format}`, format);
    await call("GET", "/experiments", "/experiments", "list");
    await call("GET", "/jobs", "/jobs", "list");
    const job = (await call("GET", "/jobs", "/jobs?job_type=process", "the process job")).body as { items: Array<{ job_id: string }> };
    await call("GET", "/jobs/{job_id}", `/jobs/${job.items[0]!.job_id}`, "poll");
    assert.equal(
      (await call("POST", "/questions/generate", "/questions/generate", "generate", { body: { document_id: id, count: 2, generator: "template" } })).status,
      201,
    );
    assert.equal((await call("POST", "/collections", "/collections", "create", { body: { name: "handbooks", document_ids: [id] } })).status, 201);
    assert.equal((await call("POST", "/collections", "/collections", "a taken name", { body: { name: "handbooks" } })).status, 409);
    await call("GET", "/collections", "/collections", "list");
    await call("GET", "/collections/{collection_id}", "/collections/handbooks", "fetch");
    await call("POST", "/collections/{collection_id}/documents", "/collections/handbooks/documents", "add a file", {
      form: upload("notes.txt", Buffer.from("Members vote at the annual meeting.\n")),
    });
    await call("DELETE", "/collections/{collection_id}/documents/{doc_id}", `/collections/handbooks/documents/${id}`, "take out");
    await call("DELETE", "/collections/{collection_id}", "/collections/handbooks", "delete");
    await call("GET", "/healthz", "/healthz", "alive");
    await call("GET", "/readyz", "/readyz", "ready");
    assert.equal((await call("POST", "/v1/domains", "/v1/domains", "create", { body: { domain: "hr", display_name: "HR" } })).status, 201);
    assert.equal((await call("POST", "/v1/domains", "/v1/domains", "a taken domain", { body: { domain: "hr", display_name: "HR" } })).status, 409);
    await call("GET", "/v1/domains", "/v1/domains", "list");
    await call("PATCH", "/v1/domains/{domain}", "/v1/domains/hr", "rename", { body: { display_name: "People" } });
    assert.equal(
      (await call("POST", "/v1/files", "/v1/files", "an unknown domain", { form: upload("h.docx", handbookBytes(), { domain: "nowhere" }) })).status,
      400,
    );
    const ingested = await call("POST", "/v1/files", "/v1/files", "ingest", { form: upload("h.docx", handbookBytes(), { domain: "hr" }) });
    assert.equal(ingested.status, 201);
    await call("GET", "/v1/ingestion-jobs/{job_id}", `/v1/ingestion-jobs/${(ingested.body as { ingestion_job_id: string }).ingestion_job_id}`, "fetch");
    await call("POST", "/v1/search", "/v1/search", "search", { body: { query: "vote" } });
    const points = (await call("GET", "/v1/points", "/v1/points?limit=1", "list")).body as { items: Array<{ point_id: string }> };
    await call("GET", "/v1/points/{point_id}", `/v1/points/${points.items[0]!.point_id}`, "fetch");
    await call("POST", "/v1/domains/{domain}/disable", "/v1/domains/hr/disable", "disable");
    await call("POST", "/v1/domains/{domain}/enable", "/v1/domains/hr/enable", "enable");
    await call("DELETE", "/documents/{doc_id}", `/documents/${id}`, "delete");

    // What any client can get wrong, sent to every operation.
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    assert.ok(operations.length >= 30, `${operations.length} operations`);
    for (const { path, method, op } of operations) {
      const withParameter = (value: string) => path.replace(/\{[^}]+\}/g, value);
      const hasParameters = path.includes("{");
      const takesBody = ["POST", "PATCH", "PUT"].includes(method);
      const probes: Array<[string, string, Parameters<typeof send>[3]]> = [["an unknown id", withParameter("nope"), takesBody ? { body: {} } : {}]];
      if (hasParameters) probes.push(["an over-long path parameter", withParameter("x".repeat(150)), {}], ["an undecodable path", withParameter("%zz"), {}]);
      if (op.parameters?.some((p) => p.in === "query")) probes.push(["an unknown query parameter", `${withParameter("nope")}?colour=1`, {}]);
      if (takesBody)
        probes.push(
          ["an unknown field", withParameter("nope"), { body: { colour: 1 } }],
          ["a body over max_json_body_kb", withParameter("nope"), { body: { colour: "x".repeat(2048) } }],
        );
      if (path !== "/healthz" && path !== "/readyz") probes.push(["no API key", withParameter("nope"), { headers: { authorization: "" } }]);
      if (path.startsWith("/v1/"))
        for (const scope of ["files:write", "points:read"] as const)
          probes.push([`a key with ${scope} only`, withParameter("nope"), { headers: await keyWith(scope) }]);
      for (const [label, url, options] of probes) await call(method, path, url, label, options);

      // Every operation says how it succeeds, with a body, and that it can fail unexpectedly.
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      assert.ok(successes.length > 0, `${method} ${path}: a success response`);
      for (const [status, response] of successes) {
        assert.ok(response.description && response.description !== "Default Response", `${method} ${path} ${status}: described`);
        assert.ok(
          Object.values(response.content ?? {}).every((c) => c.schema),
          `${method} ${path} ${status}: its body's schema`,
        );
      }
      assert.ok(op.responses["500"], `${method} ${path}: 500`);
    }

    // The probes reached every kind of error, and the error body lists every type and code of the catalogue (src/errors.ts).
    const statuses = new Set([...seen.values()].flatMap((s) => [...s]));
    for (const status of [400, 401, 403, 404, 409, 413, 414, 422]) assert.ok(statuses.has(status), `some operation answered ${status}`);
    const types = (doc.components.schemas.ErrorBody as { properties: { type: { enum: string[] } } }).properties.type.enum;
    const codes = (doc.components.schemas.V1ErrorBody as { properties: { error: { properties: { code: { enum: string[] } } } } }).properties.error.properties
      .code.enum;
    for (const ErrorClass of errorClasses) {
      const e = new ErrorClass("x");
      assert.ok(types.includes(e.name) && codes.includes(e.code), `${ErrorClass.name}: type ${e.name}, code ${e.code}`);
    }
    console.log(
      [...seen]
        .sort()
        .map(([op, s]) => `${op}: answered ${[...s].sort().join(", ")}`)
        .join("\n"),
    );
  } finally {
    await t.close();
  }
});
