#!/usr/bin/env node
// Makes test/fixtures/use-vectors.bin.gz again: the bundled model's vectors of every text the
// test suite embeds into the run's shared cache (most of them the model-backed files of
// test/lanes.mjs, MODEL, and the warm-up before them), from a whole run, SQLite and PostgreSQL,
// that starts with an empty embedding cache. Run it after a change to a strategy, a parser or the
// test corpora changes the texts the tests embed (a test run says how many it embedded afresh at
// its end), or after the model's packages change. The file is replaced only when the run passed.
//
//   npm run test:refresh-vectors [-- FILE_OR_FOLDER…]   (a part of the suite: its texts only)
//
// The whole suite from an empty cache takes about 10 minutes longer than `npm test`.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = join(root, "test/fixtures/use-vectors.bin.gz");
const scratch = mkdtempSync(join(tmpdir(), "chunkeval-vectors-"));
const written = join(scratch, "use-vectors.bin.gz");
try {
  const run = spawnSync(process.execPath, ["scripts/run-tests.mjs", "--store", "both", ...process.argv.slice(2)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, CHUNKEVAL_TEST_COLD_CACHE: "1", CHUNKEVAL_TEST_EXPORT_VECTORS: written },
  });
  if (run.status !== 0) {
    console.error(`the test run failed (exit ${run.status ?? run.signal}): ${fixture} is left as it was`);
    process.exit(1);
  }
  copyFileSync(written, fixture);
  console.log(`replaced ${fixture}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
