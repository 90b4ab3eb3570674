import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode } from "../../src/errors.js";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCliProcess, startCli, type CliResult } from "../helpers/cli.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

/** The rows of the "Exit codes" table (docs/cli.md): code and meaning. */
function readmeExitCodes(): Map<number, string> {
  const readme = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("### Exit codes"));
  const table = section.slice(0, section.search(/\n\n(?!\|)/));
  return new Map([...table.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]!]));
}

/**
 * Ctrl-C in the middle of a bench's answers (a chat stub slows them, so the signal lands
 * between two of them): the run stops, says what it kept and that a re-run resumes, stores no
 * experiment; the same command again completes, reusing the processed strategies.
 */
async function interruptedBench(dir: string, questions: string): Promise<CliResult> {
  const stub = await startOpenAiStub({ delayMs: 150 });
  const env = {
    CHUNKEVAL_DATA_DIR: join(dir, "interrupted"),
    CHUNKEVAL_EMBEDDER: "hash",
    CHUNKEVAL_GENERATOR: "openai:stub-chat",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
  };
  const args = ["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive,fixed_size"];
  const answers = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
  try {
    const run = startCli(args, env);
    const deadline = Date.now() + 30_000;
    while (answers() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(answers() >= 2, "the bench never reached its answers");
    run.child.kill("SIGINT");
    const interrupted = await run.result;
    const line = interrupted.stderr.match(/^chunkeval: interrupted after (\d+) of 10 answers; no experiment was stored\. (.*)$/m);
    assert.ok(line, interrupted.stderr);
    assert.ok(Number(line[1]) >= 2 && Number(line[1]) < 10, `stopped after ${line[1]} answers`);
    assert.match(
      line[2]!,
      /^Kept: the documents, the strategies already processed, cached embeddings and model replies\. Run the same command again to resume/,
    );
    assert.doesNotMatch(interrupted.stdout, /experiment:/, "no scorecard");
    const answeredBeforeStop = answers();
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(answers() <= answeredBeforeStop + 1, "no question is asked after the interrupt");
    assert.equal(JSON.parse((await runCliProcess(["experiments", "--json"], env)).stdout).total, 0, "no experiment stored");

    const again = await runCliProcess([...args, "--json", "-q"], env);
    assert.equal(again.code, 0, again.stderr);
    const id = JSON.parse(again.stdout).experiment_id as string;
    const exported = JSON.parse((await runCliProcess(["report", id, "--format", "json"], env)).stdout);
    assert.deepEqual(
      exported.details.indexing.map((i: { strategy: string; reused: boolean }) => [i.strategy, i.reused]),
      [
        ["recursive", true],
        ["fixed_size", true],
      ],
      "the re-run reuses what the interrupted one processed",
    );
    return interrupted;
  } finally {
    await stub.close();
  }
}

test("every exit code of the README's table is what a real command exits with", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-exit-codes-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 5)));
    const uploaded = await runCliProcess(["upload", HANDBOOK_PATH, "--json"], env);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const doc = JSON.parse(uploaded.stdout).id as string;

    const commands: Record<number, () => Promise<CliResult>> = {
      0: () => runCliProcess(["strategies"], env),
      // Not processed with the strategy asked for: a question that cannot be answered.
      1: () => runCliProcess(["ask", doc, "What is the price of one share?", "--strategy", "recursive"], env),
      2: () => runCliProcess(["bench", doc, "--questions", questions, "--strategies", "recusive"], env),
      3: async () => {
        // Not found is anything named that does not exist: each kind has a command, and the README's row names each kind.
        const unknown: Array<[kind: string, args: string[]]> = [
          ["document", ["delete", "doc_0000000000000000"]],
          ["query", ["ask", "--show", "qry_0000000000000000"]],
          ["experiment", ["report", "exp_0000000000000000"]],
          ["--baseline", ["bench", doc, "--questions", questions, "-s", "recursive", "--baseline", "exp_0000000000000000"]],
          ["collection", ["collections", "show", "nowhere"]],
          ["job", ["jobs", "show", "job_0000000000000000"]],
          ["neither a file nor a stored document", ["bench", "doc_0000000000000000", "doc_1111111111111111", "--questions", questions]],
        ];
        for (const [kind, args] of unknown) {
          assert.ok(table.get(3)!.includes(kind), `the README's row for 3 names ${kind}: ${table.get(3)}`);
          const r = await runCliProcess(args, env);
          assert.equal(r.code, 3, `${kind} not found: ${args.join(" ")} exits 3, got ${r.code}\n${r.stderr}`);
          assert.match(r.stderr, /^chunkeval: error: /m);
        }
        return runCliProcess(["delete", "doc_0000000000000000"], env);
      },
      4: () => runCliProcess(["bench", doc, "--questions", questions, "-s", "recursive", "--fail-under", "composite_score=10", "-q"], env),
      130: () => interruptedBench(dir, questions),
    };
    const table = readmeExitCodes();
    assert.deepEqual(
      [...table.keys()].sort((a, b) => a - b),
      Object.keys(commands).map(Number),
      "a command for every row of the README's table",
    );
    assert.deepEqual(new Set(Object.values(ExitCode)), new Set(table.keys()), "src/errors.ts ExitCode has exactly the README's codes");
    for (const [code, meaning] of table) {
      const r = await commands[code]!();
      assert.equal(r.code, code, `exit ${code} (${meaning}): got ${r.code}\n${r.stderr}`);
      if (code !== 0) assert.match(r.stderr, /^chunkeval: /m, `exit ${code} says why on stderr`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
