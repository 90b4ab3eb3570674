import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

const QUESTIONS = readFileSync("questions/harbor-light-handbook.json", "utf8");

test("bench refuses an output file that is one of its inputs (symlinks followed) or cannot be written, writing nothing", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-clash-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, QUESTIONS);
    symlinkSync(questions, join(dir, "link.json"));
    const doc = join(dir, "handbook.docx");
    copyFileSync(HANDBOOK_PATH, doc);
    const baseline = join(dir, "baseline.json");
    writeFileSync(baseline, "{}");
    const bench = (...extra: string[]) => runCli(["bench", doc, "--questions", questions, "-s", "recursive", "-q", ...extra], env, dir);
    const cases: Array<[string[], RegExp]> = [
      [["--out", questions], /--out .*q\.json is the questions file .*q\.json: writing it would overwrite an input/],
      [["--out", "./q.json"], /--out \.\/q\.json is the questions file/],
      [["--junit", join(dir, "link.json")], /--junit .*link\.json is the questions file/],
      [["--summary", "handbook.docx"], /--summary handbook\.docx is the document .*handbook\.docx/],
      [["--save-baseline", baseline, "--baseline", baseline], /--save-baseline .*baseline\.json is the baseline file/],
      [["--out", join(dir, "r.md"), "--summary", join(dir, "r.md")], /--out .*r\.md and --summary .*r\.md are the same file/],
      // An output that cannot be written is refused before the run, not found after it.
      [["--out", join(dir, "missing", "r.html")], /--out .*missing\/r\.html: the folder .*missing does not exist; create it first/],
      [["--junit", dir], /--junit .* is a folder; name a file/],
      [["--summary", join(dir, "q.json", "s.md")], /--summary .*q\.json\/s\.md: .*q\.json is a file, not a folder/],
    ];
    for (const [extra, message] of cases) {
      const r = await bench(...extra);
      assert.equal(r.code, 2, `${extra.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    // A write that fails once the run is done (a full device): said in one line, exit 1, the rest of the output still comes.
    if (existsSync("/dev/full")) {
      const full = await runCli(["bench", doc, "--questions", questions, "-s", "recursive", "--junit", "/dev/full"], env, dir);
      assert.equal(full.code, 1, full.stderr);
      assert.match(full.stderr, /chunkeval: error: cannot write --junit \/dev\/full \(ENOSPC\); the experiment exp_\w+ is stored/);
      assert.doesNotMatch(full.stderr, /unexpected error|\n\s+at /, "no stack");
      assert.match(full.stdout, /experiment: exp_\w+/, "the scorecard still comes");
    }
    assert.equal(readFileSync(questions, "utf8"), QUESTIONS, "the questions file is untouched");
    assert.deepEqual(readFileSync(doc), readFileSync(HANDBOOK_PATH), "the document is untouched");
    assert.equal(readFileSync(baseline, "utf8"), "{}");
    assert.ok(!existsSync(join(dir, "r.md")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a missing document is not found (exit 3) whatever the path's shape, and is named as typed", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-missing-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, QUESTIONS);
    const absolute = join(dir, "nonexist.docx");
    for (const arg of ["missing.docx", "./missing.docx", absolute, relative(process.cwd(), absolute)]) {
      const r = await runCli(["bench", arg, "--questions", questions, "-s", "recursive"], env);
      assert.equal(r.code, 3, `${arg}: ${r.stderr}`);
      assert.ok(r.stderr.startsWith(`chunkeval: error: ${arg}: `), `named as typed: ${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("questions generate refuses to overwrite an existing file unless --force, and writes it whole", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-qgen-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    mkdirSync(join(dir, "work"));
    const cwd = join(dir, "work");
    const byDefault = join(cwd, "harbor-light-handbook.questions.json");
    writeFileSync(byDefault, "my edited questions");
    const refused = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "2"], env, cwd);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /harbor-light-handbook\.questions\.json exists: give --force to overwrite it, or --out FILE to write another file/);
    assert.equal(readFileSync(byDefault, "utf8"), "my edited questions");

    const mine = join(cwd, "mine.json");
    writeFileSync(mine, "mine");
    const out = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "2", "--out", mine], env, cwd);
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /mine\.json exists: give --force/);
    assert.equal(readFileSync(mine, "utf8"), "mine");

    const forced = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "2", "--force"], env, cwd);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(JSON.parse(readFileSync(byDefault, "utf8")).questions.length, 2);
    assert.deepEqual(readdirSync(cwd).sort(), ["harbor-light-handbook.questions.json", "mine.json"], "no temporary file left");

    const help = await runCli(["questions", "generate", "--help"], env, cwd);
    assert.match(help.stdout, /--force +overwrite the questions file when it exists/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
