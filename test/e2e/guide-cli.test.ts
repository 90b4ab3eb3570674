import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BIN, runCliProcess } from "../helpers/cli.js";

test("chunkeval alone: a first-steps guide in a terminal, the usage error in a pipe", async () => {
  // util-linux `script` gives the command a pseudo-terminal, as a user's shell would.
  const tty = spawnSync("script", ["-qec", `${process.execPath} ${BIN}`, "/dev/null"], { encoding: "utf8" });
  assert.equal(tty.status, 0, tty.stderr);
  assert.match(tty.stdout, /First steps/);
  const bench = /chunkeval bench (\S+) --questions (\S+) --out report\.html/.exec(tty.stdout);
  assert.ok(bench, tty.stdout);
  assert.ok(existsSync(bench[1]!) && existsSync(bench[2]!), "the guide names the bundled example's real paths");
  assert.match(tty.stdout, /chunkeval questions generate my\.docx/);

  const piped = await runCliProcess([]);
  assert.equal(piped.code, 2);
  assert.match(piped.stderr + piped.stdout, /Usage: chunkeval/);
});

test("a reader that closes the pipe early (chunkeval --help | head -1) ends the CLI quietly with exit 0", async () => {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [BIN, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy(); // what `head` does once it has its line
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(stderr, "", "no EPIPE stack trace");
  assert.equal(code, 0);
});
