import { test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { buildDocx } from "../helpers/documents.js";

/** One malformed request and what the server must answer. */
interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Which key signs a /v1 request: the full key (default), an upload-only key, or none. */
  key?: "admin" | "uploader" | "none";
  status: number;
  /** The evaluation API's `type`, or the /v1 envelope's `code`. */
  type?: string;
  code?: string;
  /** The message must match this. */
  message?: RegExp;
}

const LONG_ID = "d".repeat(200 * 1024);
const JSON_HEADERS = { "content-type": "application/json" };

/** Sends exactly the bytes and headers given (fetch would fix a bad multipart body up). */
function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, base),
      { method, headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function multipart(boundary: string, parts: Array<{ name: string; filename?: string; body: string | Buffer }>, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}\r\n\r\n`),
    );
    chunks.push(Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body));
    chunks.push(Buffer.from("\r\n"));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function cases(docx: Buffer): Case[] {
  const mp = (boundary: string) => ({ "content-type": `multipart/form-data; boundary=${boundary}` });
  const goodUpload = multipart("XyZ", [{ name: "file", filename: "a.docx", body: docx }]);
  const v1Upload = (parts: Array<{ name: string; filename?: string; body: string | Buffer }>) => multipart("XyZ", parts);
  const evaluation: Case[] = [
    {
      name: "upload: multipart without a boundary",
      method: "POST",
      path: "/documents",
      headers: { "content-type": "multipart/form-data" },
      body: goodUpload,
      status: 422,
      type: "ValidationError",
    },
    {
      name: "upload: boundary that is not in the body",
      method: "POST",
      path: "/documents",
      headers: mp("NotThere"),
      body: goodUpload,
      status: 422,
      type: "ValidationError",
    },
    {
      name: "upload: empty boundary",
      method: "POST",
      path: "/documents",
      headers: { "content-type": "multipart/form-data; boundary=" },
      body: goodUpload,
      status: 422,
      type: "ValidationError",
    },
    {
      name: "upload: truncated multipart body",
      method: "POST",
      path: "/documents",
      headers: mp("XyZ"),
      body: goodUpload.subarray(0, 200),
      status: 422,
      type: "ValidationError",
    },
    {
      name: "upload: multipart with no file part",
      method: "POST",
      path: "/documents",
      headers: mp("XyZ"),
      body: multipart("XyZ", [{ name: "other", body: "x" }]),
      status: 422,
      type: "ValidationError",
    },
    { name: "upload: empty multipart body", method: "POST", path: "/documents", headers: mp("XyZ"), body: "", status: 422, type: "ValidationError" },
    {
      name: "upload: JSON instead of multipart",
      method: "POST",
      path: "/documents",
      headers: JSON_HEADERS,
      body: '{"file":"x"}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "upload: unknown content type",
      method: "POST",
      path: "/documents",
      headers: { "content-type": "application/x-weird" },
      body: "abc",
      status: 422,
      type: "ValidationError",
    },
    {
      // Plain UTF-8 text is a document now (read as .txt whatever its name); Latin-1 text is not.
      name: "upload: text that is not UTF-8",
      method: "POST",
      path: "/documents",
      headers: mp("XyZ"),
      body: multipart("XyZ", [{ name: "file", filename: "a.docx", body: Buffer.from("h\xe9llo", "latin1") }]),
      status: 400,
      type: "ChunkingError",
    },
    {
      name: "list: offset 99999999999999999999",
      method: "GET",
      path: "/documents?offset=99999999999999999999",
      status: 422,
      type: "ValidationError",
      message: /offset/,
    },
    { name: "list: offset 1e308", method: "GET", path: "/documents?offset=1e308", status: 422, type: "ValidationError", message: /offset/ },
    { name: "list: negative offset", method: "GET", path: "/documents?offset=-1", status: 422, type: "ValidationError" },
    { name: "list: limit 1e308", method: "GET", path: "/experiments?limit=1e308", status: 422, type: "ValidationError" },
    { name: "list: offset NaN", method: "GET", path: "/experiments?offset=NaN", status: 422, type: "ValidationError" },
    { name: "list: offset Infinity", method: "GET", path: "/jobs?offset=Infinity", status: 422, type: "ValidationError" },
    { name: "list: fractional limit", method: "GET", path: "/jobs?limit=2.5", status: 422, type: "ValidationError" },
    { name: "list: unknown query parameter", method: "GET", path: "/documents?colour=blue", status: 422, type: "ValidationError" },
    { name: "jobs: unknown status", method: "GET", path: "/jobs?status=exploded", status: 422, type: "ValidationError" },
    { name: "queries: body is not JSON", method: "POST", path: "/queries", headers: JSON_HEADERS, body: "{not json", status: 422, type: "ValidationError" },
    { name: "queries: body is a JSON array", method: "POST", path: "/queries", headers: JSON_HEADERS, body: "[1,2]", status: 422, type: "ValidationError" },
    { name: "queries: body is JSON null", method: "POST", path: "/queries", headers: JSON_HEADERS, body: "null", status: 422, type: "ValidationError" },
    {
      name: "queries: top_k 1e308",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","strategy":"recursive","question":"q","top_k":1e308}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "queries: top_k a string",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","strategy":"recursive","question":"q","top_k":"five"}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "queries: question an object",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","strategy":"recursive","question":{"a":1}}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "queries: unknown field",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","strategy":"recursive","question":"q","colour":"blue"}',
      status: 422,
      type: "ValidationError",
      message: /colour/,
    },
    {
      name: "queries: 200 KB document id is not echoed whole",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: JSON.stringify({ document_id: LONG_ID, strategy: "recursive", question: "q" }),
      // Refused by its bound (docs/http-api.md "Request limits") before any lookup, without the id in the message.
      status: 422,
      type: "ValidationError",
      message: /^invalid body: document_id must NOT have more than 300 characters$/,
    },
    {
      name: "queries: NUL in the question",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: JSON.stringify({ document_id: "doc_missing", strategy: "recursive", question: "a\u0000b" }),
      status: 404,
      type: "QueryError",
    },
    {
      name: "queries: JSON body over max_json_body_kb",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: JSON.stringify({ document_id: "d", strategy: "recursive", question: "q".repeat(1100 * 1024) }),
      status: 413,
      type: "PayloadTooLargeError",
      message: /max_json_body_kb/,
    },
    {
      name: "queries: deeply nested JSON",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: "[".repeat(50_000) + "]".repeat(50_000),
      status: 422,
      type: "ValidationError",
    },
    {
      name: "process: strategies an object",
      method: "POST",
      path: "/documents/doc_x/process",
      headers: JSON_HEADERS,
      body: '{"strategies":{"recursive":true}}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "process: background=maybe",
      method: "POST",
      path: "/documents/doc_x/process?background=maybe",
      headers: JSON_HEADERS,
      body: "{}",
      status: 422,
      type: "ValidationError",
    },
    {
      name: "process: unknown field",
      method: "POST",
      path: "/documents/doc_x/process",
      headers: JSON_HEADERS,
      body: '{"strategies":["recursive"],"speed":"max"}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "benchmarks: dry_run a string",
      method: "POST",
      path: "/benchmarks",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","dry_run":"yes"}',
      status: 422,
      type: "ValidationError",
    },
    {
      name: "benchmarks: unknown field",
      method: "POST",
      path: "/benchmarks",
      headers: JSON_HEADERS,
      body: '{"document_id":"d","turbo":true}',
      status: 422,
      type: "ValidationError",
    },
    { name: "report: unknown view", method: "GET", path: "/benchmarks/exp_x/report?view=fancy", status: 422, type: "ValidationError" },
    { name: "a 10 KB id in the path is not echoed whole", method: "GET", path: `/queries/${"q".repeat(10 * 1024)}`, status: 414, type: "ValidationError" },
    { name: "an odd id in the path", method: "GET", path: "/jobs/%00%0A%E2%80%AE", status: 404, type: "QueryError" },
    { name: "invalid percent-encoding in the path", method: "GET", path: "/jobs/%E0%A4%A", status: 422, type: "ValidationError" },
    {
      name: "invalid UTF-8 in a JSON body",
      method: "POST",
      path: "/queries",
      headers: JSON_HEADERS,
      body: Buffer.from([0x7b, 0x22, 0x64, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      status: 422,
      type: "ValidationError",
    },
    { name: "wrong method", method: "PUT", path: "/documents", status: 404, type: "QueryError" },
  ];
  const v1: Case[] = [
    {
      name: "v1 files: multipart without a boundary",
      method: "POST",
      path: "/v1/files",
      headers: { "content-type": "multipart/form-data" },
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "file", filename: "a.docx", body: docx },
      ]),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: boundary not in the body",
      method: "POST",
      path: "/v1/files",
      headers: mp("Other"),
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "file", filename: "a.docx", body: docx },
      ]),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: truncated multipart body",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "file", filename: "a.docx", body: docx },
      ]).subarray(0, 150),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: no domain field",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([{ name: "file", filename: "a.docx", body: docx }]),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: server-owned field version",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "version", body: "9" },
        { name: "file", filename: "a.docx", body: docx },
      ]),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: two files",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "file", filename: "a.docx", body: docx },
        { name: "file", filename: "b.docx", body: docx },
      ]),
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: JSON instead of multipart",
      method: "POST",
      path: "/v1/files",
      headers: JSON_HEADERS,
      body: '{"domain":"docs"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 files: unknown domain",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([
        { name: "domain", body: "nowhere" },
        { name: "file", filename: "a.docx", body: docx },
      ]),
      status: 400,
      code: "unknown_domain",
    },
    {
      name: "v1 files: text that is not UTF-8",
      method: "POST",
      path: "/v1/files",
      headers: mp("XyZ"),
      body: v1Upload([
        { name: "domain", body: "docs" },
        { name: "file", filename: "a.docx", body: Buffer.from("h\xe9llo", "latin1") },
      ]),
      status: 400,
      code: "unprocessable_document",
    },
    {
      name: "v1 domains: extra key tenant_id",
      method: "POST",
      path: "/v1/domains",
      headers: JSON_HEADERS,
      body: '{"domain":"x","display_name":"X","tenant_id":"t"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 domains: display_name a number",
      method: "POST",
      path: "/v1/domains",
      headers: JSON_HEADERS,
      body: '{"domain":"x","display_name":5}',
      status: 422,
      code: "validation_error",
    },
    { name: "v1 domains: body not JSON", method: "POST", path: "/v1/domains", headers: JSON_HEADERS, body: "{", status: 422, code: "validation_error" },
    {
      name: "v1 domains: invalid domain name",
      method: "POST",
      path: "/v1/domains",
      headers: JSON_HEADERS,
      body: '{"domain":"Not A Domain!","display_name":"X"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 domains: files:write key gets 403 before body validation",
      method: "POST",
      path: "/v1/domains",
      headers: JSON_HEADERS,
      body: '{"nonsense":true}',
      key: "uploader",
      status: 403,
      code: "insufficient_scope",
    },
    {
      name: "v1 domains: files:write key gets 403 even for malformed JSON",
      method: "POST",
      path: "/v1/domains",
      headers: JSON_HEADERS,
      body: "{",
      key: "uploader",
      status: 403,
      code: "insufficient_scope",
    },
    {
      name: "v1 patch: naming domain",
      method: "PATCH",
      path: "/v1/domains/docs",
      headers: JSON_HEADERS,
      body: '{"display_name":"D","domain":"other"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 disable: body with tenant_id",
      method: "POST",
      path: "/v1/domains/docs/disable",
      headers: JSON_HEADERS,
      body: '{"tenant_id":"t"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 enable: body with version",
      method: "POST",
      path: "/v1/domains/docs/enable",
      headers: JSON_HEADERS,
      body: '{"version":2}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 domains list: offset 99999999999999999999",
      method: "GET",
      path: "/v1/domains?offset=99999999999999999999",
      status: 422,
      code: "validation_error",
    },
    { name: "v1 domains list: unknown parameter", method: "GET", path: "/v1/domains?colour=blue", status: 422, code: "validation_error" },
    { name: "v1 points: offset 1e308", method: "GET", path: "/v1/points?offset=1e308", status: 422, code: "validation_error" },
    { name: "v1 points: limit 0", method: "GET", path: "/v1/points?limit=0", status: 422, code: "validation_error" },
    {
      name: "v1 search: top_k 1e308",
      method: "POST",
      path: "/v1/search",
      headers: JSON_HEADERS,
      body: '{"query":"q","top_k":1e308}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 search: extra key",
      method: "POST",
      path: "/v1/search",
      headers: JSON_HEADERS,
      body: '{"query":"q","tenant_id":"t"}',
      status: 422,
      code: "validation_error",
    },
    {
      name: "v1 search: query over max_json_body_kb",
      method: "POST",
      path: "/v1/search",
      headers: JSON_HEADERS,
      body: JSON.stringify({ query: "q".repeat(1100 * 1024) }),
      status: 413,
      code: "payload_too_large",
      message: /max_json_body_kb/,
    },
    {
      name: "v1 ingestion job: a 12 KB id in the path is refused (414), not echoed whole",
      method: "GET",
      path: `/v1/ingestion-jobs/${"j".repeat(12 * 1024)}`,
      status: 414,
      code: "validation_error",
    },
    { name: "v1: lowercase bearer scheme is accepted", method: "GET", path: "/v1/domains?limit=1", status: 200 },
    { name: "v1: no key", method: "GET", path: "/v1/domains", key: "none", status: 401, code: "unauthorized" },
    { name: "v1: unknown route", method: "GET", path: "/v1/nothing", status: 404, code: "not_found" },
  ];
  return [...evaluation, ...v1];
}

async function setup(): Promise<{ t: TestServer; keys: Record<"admin" | "uploader", string> }> {
  const t = await startTestServer();
  await t.ws.app.tenants.createTenant("acme");
  const admin = (await t.ws.app.tenants.createApiKey("acme", ["files:write", "domains:read", "domains:write", "points:read"])).secret;
  const uploader = (await t.ws.app.tenants.createApiKey("acme", ["files:write"])).secret;
  const created = await t.request("POST", "/v1/domains", { domain: "docs", display_name: "Docs" }, { authorization: `Bearer ${admin}` });
  assert.equal(created.status, 201);
  return { t, keys: { admin, uploader } };
}

test("malformed requests on both surfaces get the right 4xx and the surface's error body, never a 500", async () => {
  const { t, keys } = await setup();
  try {
    const docx = await buildDocx([{ p: "A short document about harbor lights." }]);
    const table = cases(docx);
    assert.ok(table.length >= 40, `the table has ${table.length} cases`);
    const failures: string[] = [];
    for (const c of table) {
      const headers = { ...(c.headers ?? {}) };
      // The lowercase scheme on every /v1 request also checks that auth schemes are case-insensitive.
      if (c.path.startsWith("/v1/") && c.key !== "none") headers.authorization = `bearer ${c.key === "uploader" ? keys.uploader : keys.admin}`;
      const r = await rawRequest(t.url, c.method, c.path, headers, c.body);
      let body: any = null;
      try {
        body = JSON.parse(r.text);
      } catch {
        body = null;
      }
      const problems: string[] = [];
      if (r.status !== c.status) problems.push(`status ${r.status}, expected ${c.status}`);
      if (c.status >= 400) {
        if (c.path.startsWith("/v1/")) {
          if (!body?.error || Object.keys(body.error).sort().join() !== "code,message,request_id") problems.push("not the /v1 envelope");
          else if (c.code && body.error.code !== c.code) problems.push(`code ${body.error.code}, expected ${c.code}`);
        } else {
          if (!body || Object.keys(body).sort().join() !== "detail,type") problems.push("not the {detail, type} body");
          else if (c.type && body.type !== c.type) problems.push(`type ${body.type}, expected ${c.type}`);
        }
        const message: string = body?.error?.message ?? body?.detail ?? "";
        if (c.message && !c.message.test(message)) problems.push(`message ${JSON.stringify(message.slice(0, 200))} does not match ${c.message}`);
        if (r.text.length > 2000) problems.push(`error body of ${r.text.length} characters: a long input was echoed`);
      }
      if (problems.length) failures.push(`${c.name}: ${problems.join("; ")} -- ${r.text.slice(0, 300)}`);
    }
    assert.deepEqual(failures, [], `${failures.length} of ${table.length} cases failed`);
    console.log(`# malformed-request table: ${table.length} cases, ${table.length - failures.length} as expected`);
    assert.equal((await t.request("GET", "/healthz")).status, 200, "the server still answers");
    assert.equal((await t.request("GET", "/documents")).body.total, 0, "nothing was stored");
  } finally {
    await t.close();
  }
});
