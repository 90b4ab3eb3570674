// What the example scripts share: running the built CLI (stdout passed through and returned,
// progress on stderr, the script ending with the CLI's exit code on failure) and benchmarking into
// both HTML report views.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export function chunkeval(args) {
  const r = spawnSync(process.execPath, [root("bin/chunkeval.js"), ...args], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  process.stdout.write(r.stdout ?? "");
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

/** `bench ARGS --out NAME.html`, then the technical view into NAME-technical.html. */
export function benchIntoReports(args, name) {
  const out = chunkeval(["bench", ...args, "--out", `${name}.html`]);
  const id = out.match(/experiment: (exp_[0-9a-f]+)/)[1];
  chunkeval(["report", id, "--view", "technical", "--out", `${name}-technical.html`]);
  console.log(`\nOpen ${name}.html (managerial view) or ${name}-technical.html in a browser.`);
}
