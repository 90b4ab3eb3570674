#!/usr/bin/env node
// Makes test/fixtures/use-vectors.bin.gz again: the bundled model's vectors of every text the
// model-backed test files embed (test/lanes.mjs, MODEL, and the warm-up before them), from a test
// run that starts with an empty embedding cache. Run it after a change to a strategy, a parser or
// the test corpora changes the texts those files embed (a test run says so at its end), or after
// the model's packages change. The file is replaced only when the run passed.
//
//   npm run test:refresh-vectors
//
// About 10 minutes on two cores (the model: ~2 ms of processor time per token).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MODEL } from "../test/lanes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = join(root, "test/fixtures/use-vectors.bin.gz");
const scratch = mkdtempSync(join(tmpdir(), "chunkeval-vectors-"));
const written = join(scratch, "use-vectors.bin.gz");
try {
  const run = spawnSync(process.execPath, ["scripts/run-tests.mjs", "--store", "both", ...MODEL.list], {
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
