import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
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
  // A process started under tsx (as the edit loop runs the tests) has its preload; its workers must not.
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      'import { withoutPreloads } from "./src/worker-threads.ts"; console.log(JSON.stringify([process.execArgv, withoutPreloads(process.execArgv)]));',
    ],
    { encoding: "utf8" },
  );
  assert.equal(child.status, 0, child.stderr);
  const [own, forWorkers] = JSON.parse(child.stdout) as [string[], string[]];
  assert.ok(own.includes("tsx"), JSON.stringify(own));
  assert.equal(
    forWorkers.some((a) => a.includes("tsx")),
    false,
  );
});
