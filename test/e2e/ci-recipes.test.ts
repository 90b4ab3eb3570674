import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { BIN } from "../helpers/cli.js";
import { findAll, parseXml } from "../helpers/xml.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CORPUS = join(ROOT, "examples/corpus");

/**
 * A repository as the recipes expect it: docs/ (the bundled corpus), chunkeval/questions.json,
 * and chunkeval/baseline.json made with the command the recipe's header gives; plus a bin/
 * folder of stand-ins put first on PATH: `chunkeval` runs this checkout's CLI, `npm` accepts only
 * the recipe's install of $CHUNKEVAL_PACKAGE (the packed install is tested by check:pack).
 */
function repository(recipe: string): { dir: string; bin: string } {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-recipe-"));
  mkdirSync(join(dir, "docs"));
  for (const f of readdirSync(CORPUS)) copyFileSync(join(CORPUS, f), join(dir, "docs", f));
  mkdirSync(join(dir, "chunkeval"));
  copyFileSync(join(ROOT, "questions/corpus.json"), join(dir, "chunkeval/questions.json"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "chunkeval"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  writeFileSync(
    join(bin, "npm"),
    `#!/bin/sh\nif [ "$1" = install ] && [ "$2" = --global ] && [ "$3" = "$CHUNKEVAL_PACKAGE" ] && [ $# -eq 3 ]; then\n` +
      `  echo "npm $*" >> "${join(dir, "npm.log")}"; exit 0\nfi\n` +
      `echo "npm stand-in: unexpected call: npm $*" >&2; exit 1\n`,
  );
  for (const f of ["chunkeval", "npm"]) chmodSync(join(bin, f), 0o755);
  const header = readFileSync(join(ROOT, "examples/ci", recipe), "utf8").match(/^#\s+(chunkeval bench .*--save-baseline .*)$/m);
  assert.ok(header, `${recipe} gives the command that makes the baseline`);
  const made = spawnSync("sh", ["-c", header[1]!], { cwd: dir, env: { ...baseEnv(bin), CHUNKEVAL_DATA_DIR: join(dir, ".baseline-data") }, encoding: "utf8" });
  assert.equal(made.status, 0, made.stderr);
  assert.ok(existsSync(join(dir, "chunkeval/baseline.json")));
  return { dir, bin };
}

/** The environment every step sees: no CI variable from the machine running the tests, the fast offline embedder. */
function baseEnv(bin: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|CI_|CHUNKEVAL_)/.test(k) && k !== "CI"));
  return { ...env, PATH: `${bin}:${process.env.PATH}`, CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_EMBEDDER_WORKERS: "0" };
}

/** Runs shell steps in order as the CI systems do (bash, stop at the first failing command); returns the exit codes. */
function runSteps(steps: string[], cwd: string, env: NodeJS.ProcessEnv): number[] {
  return steps.map((script) => {
    const run = spawnSync("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, env, encoding: "utf8" });
    assert.equal(run.status, 0, `step failed (${run.status}):\n${script}\n${run.stdout}\n${run.stderr}`);
    return run.status!;
  });
}

function checkOutputs(dir: string, summary: string): void {
  assert.match(summary, /^## ✅ chunkeval: the gate passed\n/);
  assert.match(summary, /\| ✅ passed \| `--fail-on-regression composite_score` \| recursive \| recursive: composite_score changed \+0\.00/);
  const junit = parseXml(readFileSync(join(dir, "chunkeval-junit.xml"), "utf8"));
  assert.equal(junit.attributes.failures, "0");
  assert.equal(findAll(junit, "testcase").length, 2);
  assert.match(readFileSync(join(dir, "chunkeval-report.html"), "utf8"), /^<!doctype html>/i);
  assert.equal(readFileSync(join(dir, "npm.log"), "utf8"), "npm install --global ./tools/chunkeval-0.1.0.tgz\n");
}

test("the GitHub Actions recipe runs step by step: install, cache, bench against the baseline, step summary, artifacts", () => {
  const workflow = parse(readFileSync(join(ROOT, "examples/ci/github-actions.yml"), "utf8"));
  const [job] = Object.values(workflow.jobs) as Array<{
    env: Record<string, string>;
    steps: Array<{ uses?: string; run?: string; with?: Record<string, string> }>;
  }>;
  const { dir, bin } = repository("github-actions.yml");
  try {
    const summaryFile = join(dir, "step-summary.md");
    writeFileSync(summaryFile, "");
    const env = {
      ...baseEnv(bin),
      ...job!.env,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
      GITHUB_REF: "refs/pull/7/merge",
      GITHUB_REF_NAME: "7/merge",
      GITHUB_HEAD_REF: "feature",
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_REPOSITORY: "acme/docs",
      GITHUB_RUN_ID: "42",
    };
    const steps = job!.steps;
    const cache = steps.find((s) => s.uses?.startsWith("actions/cache@"));
    assert.equal(cache?.with?.path, job!.env.CHUNKEVAL_CACHE_DIR, "the cache action keeps the folder chunkeval caches in");
    runSteps(
      steps.filter((s) => s.run !== undefined).map((s) => s.run!),
      dir,
      env,
    );
    const summary = readFileSync(summaryFile, "utf8");
    checkOutputs(dir, summary);
    assert.match(summary, /tags: `sha=0123456789abcdef0123456789abcdef01234567` `branch=feature` `ref=refs\/pull\/7\/merge`/);
    assert.match(summary, /- \[chunkeval-report\.html\]\(https:\/\/github\.com\/acme\/docs\/actions\/runs\/42#artifacts\)/);
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    const paths = upload!.with!.path!.split("\n").filter(Boolean);
    assert.ok(paths.length >= 2);
    for (const p of paths) assert.ok(existsSync(join(dir, p)), `the artifact ${p} was written`);
    assert.ok(existsSync(join(dir, job!.env.CHUNKEVAL_DATA_DIR!)), "the job kept its data in the directory the recipe sets");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the GitLab CI recipe runs its script in order: install, bench against the baseline, JUnit report and artifacts", () => {
  const pipeline = parse(readFileSync(join(ROOT, "examples/ci/gitlab-ci.yml"), "utf8"));
  const job = pipeline.chunkeval as {
    variables: Record<string, string>;
    cache: { paths: string[] };
    script: string[];
    artifacts: { paths: string[]; reports: { junit: string } };
  };
  const { dir, bin } = repository("gitlab-ci.yml");
  try {
    const env = {
      ...baseEnv(bin),
      ...job.variables,
      CI: "true",
      GITLAB_CI: "true",
      CI_COMMIT_SHA: "0123456789abcdef0123456789abcdef01234567",
      CI_COMMIT_REF_NAME: "feature",
      CI_MERGE_REQUEST_IID: "7",
      CI_JOB_URL: "https://gitlab.example/acme/docs/-/jobs/42",
    };
    assert.deepEqual(
      job.cache.paths.map((p) => p.replace(/\/$/, "")),
      [job.variables.CHUNKEVAL_CACHE_DIR],
    );
    runSteps(job.script, dir, env);
    const summary = readFileSync(join(dir, "chunkeval-summary.md"), "utf8");
    checkOutputs(dir, summary);
    assert.match(summary, /tags: `sha=0123456789abcdef0123456789abcdef01234567` `branch=feature` `mr=7`/);
    assert.match(summary, /- \[chunkeval-report\.html\]\(https:\/\/gitlab\.example\/acme\/docs\/-\/jobs\/42\/artifacts\/file\/chunkeval-report\.html\)/);
    for (const p of [...job.artifacts.paths, job.artifacts.reports.junit]) assert.ok(existsSync(join(dir, p)), `the artifact ${p} was written`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the Running in CI page (docs/ci.md) gives the GitHub recipe, word for word", () => {
  const readme = readFileSync(join(ROOT, "docs/ci.md"), "utf8");
  const recipe = readFileSync(join(ROOT, "examples/ci/github-actions.yml"), "utf8");
  const block = readme.match(/## Running in CI[\s\S]*?```yaml\n([\s\S]*?)```/);
  assert.ok(block, "docs/ci.md has a Running in CI section with a yaml block");
  assert.equal(block[1], recipe);
});
