import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { errorClasses, ExitCode } from "../src/errors.js";

test("every error class has an HTTP status, an exit code and a row in the error catalogue (docs/cli.md)", () => {
  const readme = readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8");
  const exitCodes = new Set<number>(Object.values(ExitCode));
  for (const ErrorClass of errorClasses) {
    const e = new ErrorClass("x");
    assert.ok(e.status >= 400 && e.status < 600, `${ErrorClass.name} status`);
    assert.ok(exitCodes.has(e.exitCode), `${ErrorClass.name} exit code`);
    const row = new RegExp(`^\\| ${ErrorClass.name} \\| ${e.name} \\| ${e.status} \\| ${e.exitCode} \\|`, "m");
    assert.match(readme, row, `catalogue row for ${ErrorClass.name}`);
  }
});

test("not found errors keep the spec's wire type QueryError", async () => {
  const { NotFoundError } = await import("../src/errors.js");
  assert.equal(new NotFoundError("x").name, "QueryError");
});
