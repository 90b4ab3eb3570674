import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCliProcess, startCli } from "../helpers/cli.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

/**
 * Ctrl-C while `process` waits on a slow model (contextual_retrieval asks a chat stub per
 * chunk): exit 130 with what was kept and that a re-run finishes; the stores stay consistent
 * (doctor) and the same command again completes every strategy.
 */
test("Ctrl-C during process exits 130, says what was kept, and a re-run finishes", { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-process-int-"));
  // Slow enough that contextual_retrieval is still asking the model once recursive is stored, even on a busy machine.
  const stub = await startOpenAiStub({ delayMs: 400 });
  const env = {
    CHUNKEVAL_DATA_DIR: join(dir, "data"),
    CHUNKEVAL_EMBEDDER: "hash",
    CHUNKEVAL_GENERATOR: "openai:stub-chat",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
  };
  const chats = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
  try {
    const doc = JSON.parse((await runCliProcess(["upload", HANDBOOK_PATH, "--json"], env)).stdout).id as string;
    const args = ["process", doc, "-s", "recursive,contextual_retrieval"];
    const run = startCli(args, env);
    // The strategies run side by side: Ctrl-C once recursive is stored (its "indexed" line comes
    // after its commit) and contextual_retrieval is waiting on the model. Beside the test lanes,
    // the model was asked twice while recursive was still chunking.
    let progress = "";
    run.child.stderr!.on("data", (d) => (progress += d));
    const recursiveStored = () => /index recursive: \d+ chunks of .* indexed/.test(progress);
    const deadline = Date.now() + 30_000;
    while ((chats() < 2 || !recursiveStored()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(chats() >= 2, "processing never reached the model");
    assert.ok(recursiveStored(), `recursive was never stored: ${progress}`);
    run.child.kill("SIGINT");
    const interrupted = await run.result;
    assert.equal(interrupted.code, 130, interrupted.stderr);
    assert.match(
      interrupted.stderr,
      /^chunkeval: interrupted; the strategy under way was not stored\. Kept: the document, its processed strategies \(recursive; ask and bench use them\)/m,
    );
    assert.match(interrupted.stderr, /cached embeddings\. Run the same command again to finish/);
    assert.doesNotMatch(interrupted.stdout, /contextual_retrieval/, "no result table");

    const doctor = await runCliProcess(["doctor", "--json"], env);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.equal(JSON.parse(doctor.stdout).consistent, true);

    const again = await runCliProcess([...args, "--json"], env);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      JSON.parse(again.stdout)
        .strategies_completed.map((s: { strategy: string }) => s.strategy)
        .sort(),
      ["contextual_retrieval", "recursive"],
    );
  } finally {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
