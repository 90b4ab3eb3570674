import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.js";
import { runCliProcess } from "../helpers/cli.js";
import { isLoopback } from "../../src/transports/http/loopback.js";

const KEY = "operator-key";

test("loopback addresses are this machine's; 0.0.0.0, ::, and other addresses are the network's", () => {
  for (const a of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"]) assert.equal(isLoopback(a), true, a);
  for (const a of ["0.0.0.0", "::", "10.0.0.5", "192.168.1.10", "::ffff:10.0.0.1", "example.com", "128.0.0.1", "fe80::1"])
    assert.equal(isLoopback(a), false, a);
});

test("/readyz without the API key says only ready or not: no folder, no store error; with the key, both", async () => {
  const t = await startTestServer({}, { CHUNKEVAL_API_KEY: KEY });
  try {
    const anonymous = await t.request("GET", "/readyz");
    assert.deepEqual([anonymous.status, anonymous.body], [200, { status: "ready" }]);
    assert.ok(!anonymous.text.includes(t.ws.dir), "no path of the server's machine");
    const keyed = await t.request("GET", "/readyz", undefined, { authorization: `Bearer ${KEY}` });
    assert.equal(keyed.status, 200);
    assert.equal(keyed.body.details.questions_dir, join(t.ws.dir, "questions"));
    const wrong = await t.request("GET", "/readyz", undefined, { authorization: "Bearer not-the-key" });
    assert.deepEqual(wrong.body, { status: "ready" });

    const lancedb = await import("@lancedb/lancedb");
    await (await lancedb.connect(join(t.ws.dir, "data", "lancedb", "v1"))).dropTable("chunks");
    const down = await t.request("GET", "/readyz");
    assert.equal(down.status, 503);
    assert.deepEqual(Object.keys(down.body).sort(), ["request_id", "status"], down.text);
    const downKeyed = await t.request("GET", "/readyz", undefined, { "x-api-key": KEY });
    assert.equal(downKeyed.body.reason, "the chunks collection does not exist");
  } finally {
    await t.close();
  }
});

test("serve --host on an address other than loopback without an API key refuses to start (exit 2), naming the risk and the way out", async () => {
  for (const host of ["0.0.0.0", "::"]) {
    const r = await runCliProcess(["serve", "--host", host, "--port", "0"], { CHUNKEVAL_EMBEDDER: "hash" });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`--host ${host.replace(/[.:]/g, "\\$&")} serves the evaluation API beyond this machine without an API key`));
    assert.match(r.stderr, /Set CHUNKEVAL_API_KEY, or pass --insecure-no-api-key/);
    assert.doesNotMatch(r.stderr, /serving on/);
  }
});
