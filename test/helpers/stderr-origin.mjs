// Preloaded (node --import) into a chunkeval child by test/e2e/own-words-cli.test.ts: every line
// written to stderr through process.stderr by chunkeval's own code (this repository, outside
// node_modules) starts with OURS. Lines from anywhere else stay unmarked: a dependency's
// JavaScript, Node's own warnings (written by Node's internals), and a native library writing to
// file descriptor 2 directly (LanceDB's Rust logger), which never passes through here at all.
const OURS = "\u0002";
const ROOT = new URL("../../", import.meta.url).href;
const SELF = import.meta.url;
const write = process.stderr.write.bind(process.stderr);
let atLineStart = true;

/** The first stack frame outside this file and Node's internals: who called process.stderr.write. */
function caller() {
  const frames = (new Error().stack ?? "").split("\n").slice(1);
  return frames.find((f) => !f.includes(SELF) && !f.includes("node:"));
}

process.stderr.write = function (chunk, ...rest) {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  if (text === "") return write(chunk, ...rest);
  const from = caller();
  const ours = from !== undefined && from.includes(ROOT) && !from.includes("/node_modules/");
  let out = "";
  for (const part of text.split(/(?<=\n)/)) {
    out += (ours && atLineStart ? OURS : "") + part;
    atLineStart = part.endsWith("\n");
  }
  return write(out, ...rest);
};
