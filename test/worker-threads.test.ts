import { test } from "node:test";
import assert from "node:assert/strict";
import { withoutPreloads } from "../src/worker-threads.js";

test("a built worker gets the process's flags without its preloads (--import, --require, -r, --loader), in either spelling", () => {
  assert.deepEqual(
    withoutPreloads([
      "--import",
      "tsx",
      "--max-old-space-size=512",
      "--import=./test/helpers/built-sources.mjs",
      "--require",
      "./otel.cjs",
      "-r",
      "x.cjs",
      "--loader=ts-node/esm",
      "--experimental-loader",
      "y.mjs",
      "--enable-source-maps",
    ]),
    ["--max-old-space-size=512", "--enable-source-maps"],
  );
  assert.deepEqual(withoutPreloads([]), []);
  // Under the test runner this process has tsx's preload; its workers must not.
  assert.ok(process.execArgv.includes("tsx") || process.execArgv.some((a) => a.includes("tsx")), JSON.stringify(process.execArgv));
  assert.equal(
    withoutPreloads(process.execArgv).some((a) => a.includes("tsx")),
    false,
  );
});
