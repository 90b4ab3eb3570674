// Issue 37 item 5: the documentation cannot drift from the CLI. Every `chunkeval …` command in the
// README and docs/ (code blocks and inline code) names a command that exists with options it takes;
// the README's quick start runs as written, and so do the documented commands that need nothing but
// the bundled files (they run offline, in a fresh data directory).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { buildProgram } from "../../src/transports/cli/program.js";
import { BIN, childEnv } from "../helpers/cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** A documented command: where it is and its words after `chunkeval`. */
interface Documented {
  page: string;
  text: string;
  words: string[];
}

/** Shell words of one command line: quotes kept together and removed, `$(…)` kept as one word. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let depth = 0;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "$" || (depth > 0 && ch === "(")) {
      word += ch;
    } else if (ch === "(" && word.endsWith("$")) {
      depth++;
      word += ch;
    } else if (ch === ")" && depth > 0) {
      depth--;
      word += ch;
    } else if (depth === 0 && (ch === '"' || ch === "'")) quote = ch;
    else if (depth === 0 && /\s/.test(ch)) {
      if (word) words.push(word);
      word = "";
    } else word += ch;
  }
  if (word) words.push(word);
  return words;
}

/** Every `chunkeval …` and `node bin/chunkeval.js …` command of a page: code blocks (continuation lines joined) and inline code. */
function documentedCommands(page: string, text: string): Documented[] {
  const found: Documented[] = [];
  const take = (raw: string) => {
    const command = raw.replace(/\s+#.*$/, "").trim();
    const start = /(?:^|[\s;&|])(?:npx )?(?:chunkeval|node bin\/chunkeval\.js)(?=\s|$)/.exec(command);
    if (!start) return;
    const rest = command.slice(start.index + start[0].length);
    // A pipe or a following command ends it.
    const words = shellWords(rest.split(/\s(?:\||&&|;)\s/)[0]!);
    found.push({ page, text: command, words });
  };
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    // A command in a comment of a recipe is indented under its `#` ("#     chunkeval bench …"); a comment's prose is not.
    for (const line of block[1]!.replace(/\\\n\s*/g, " ").split("\n")) take(line.replace(/^#\s{2,}(?=chunkeval )/, "").replace(/^#.*/, ""));
  }
  const prose = text.replace(/```[\s\S]*?```/g, "");
  for (const span of prose.matchAll(/`([^`\n]+)`/g)) if (/^(?:npx )?chunkeval(\s|$)/.test(span[1]!)) take(span[1]!);
  return found;
}

/** Why a documented command would not run as written (null: its command and options exist). */
function refusal(program: Command, words: string[]): string | null {
  let command = program;
  const chain: Command[] = [program];
  for (const word of words) {
    if (word.startsWith("-")) break;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    command = sub;
    chain.push(sub);
  }
  // `chunkeval COMMAND --help`, `chunkeval <command> --help`: any command.
  if (command === program && /^(COMMAND|<command>)$/.test(words[0] ?? "")) return null;
  if (command === program && words.length > 0 && !words[0]!.startsWith("-")) return `no command "${words[0]}"`;
  const known = new Set(chain.flatMap((c) => c.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x))));
  for (const flag of ["--help", "-h", "--version", "-V"]) known.add(flag);
  for (const word of words) {
    if (!word.startsWith("-") || word === "-" || /^-\d/.test(word)) continue;
    const flag = word.split("=")[0]!;
    if (!known.has(flag)) return `${chain.map((c) => c.name()).join(" ")} takes no option ${flag}`;
  }
  return null;
}

const allDocumented = () => PAGES.flatMap((page) => documentedCommands(page, readFileSync(join(ROOT, page), "utf8")));

test("every chunkeval command in the README and docs/ names a command that exists, with options it takes", () => {
  const program = buildProgram();
  const documented = allDocumented();
  assert.ok(documented.length >= 40, `the pages document commands (${documented.length} found)`);
  const wrong = documented.flatMap((d) => {
    const why = refusal(program, d.words);
    return why ? [`${d.page}: ${d.text}: ${why}`] : [];
  });
  assert.deepEqual(wrong, []);
  // The check fails on a misspelt option and an unknown command, as a page could have them.
  assert.equal(refusal(program, shellWords("bench doc.pdf --questions q.json --top_k 3")), "chunkeval bench takes no option --top_k");
  assert.equal(refusal(program, shellWords("benchmark doc.pdf")), 'no command "benchmark"');
  assert.equal(refusal(program, shellWords("documents show --strategy x")), "chunkeval documents show takes no option --strategy");
  assert.equal(refusal(program, shellWords('bench "$(npm root -g)/x.docx" --quiet --data-dir d')), null);
});

/** Runs a command line of the docs with node, in `cwd`, against a fresh data directory; returns its exit code and output. */
function run(args: string[], cwd: string, data: string) {
  const r = spawnSync(process.execPath, args, { cwd, env: childEnv({ CHUNKEVAL_DATA_DIR: data }), encoding: "utf8", timeout: 240_000 });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

test("the quick start's example and the documented commands that need only the bundled files run as written", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-docs-"));
  try {
    // The README's first command after `npm install`: `npm run example` (scripts/example.mjs), here from a fresh folder.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.match(readme, /```sh\nnpm install && npm run example {3}#[^\n]*\nnpm test {2,}#/, "the quick start is the two commands");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts.example, "node scripts/example.mjs");
    const example = run([join(ROOT, "scripts/example.mjs")], dir, join(dir, "data-example"));
    assert.equal(example.status, 0, example.output);
    for (const file of ["chunkeval-report.html", "chunkeval-report-technical.html"]) assert.ok(existsSync(join(dir, file)), `${file} written`);
    assert.match(readFileSync(join(dir, "chunkeval-report.html"), "utf8"), /Which chunking strategy should we use\?/);

    // The documented commands whose every file is bundled (the install page's, with the package's folder being this one).
    const offline = allDocumented()
      .map((d) => ({ ...d, words: d.words.map((w) => w.replace("$(npm root -g)/chunkeval/", ROOT)) }))
      .filter((d) => d.words[0] === "bench" && d.words.some((w) => /^(examples|questions)\//.test(w) || w.startsWith(ROOT)))
      .filter((d) => d.words.filter((w) => /\.(docx|json|mjs|jsonl)$/.test(w)).every((w) => existsSync(w.startsWith("/") ? w : join(ROOT, w))));
    // And those that need nothing at all (they read the settings or the empty store), as documented.
    // A synopsis's optional parts (`jobs list [--status S]`) are left out: the command as a reader first types it.
    const bare = (d: Documented) => d.text.replace(/\s*\[[^\]]*\]/g, "").replace(/^.*?chunkeval\s*/, "");
    const readOnly = [...new Set(allDocumented().map(bare))].filter((command) => /^(strategies|config|doctor|jobs list|--help)$/.test(command));
    assert.deepEqual(readOnly.sort(), ["--help", "config", "doctor", "jobs list", "strategies"], "the documented commands that need nothing");
    for (const command of readOnly) {
      const r = run([BIN, ...command.split(" ")], dir, join(dir, "data-read-only"));
      assert.equal(r.status, 0, `chunkeval ${command}\n${r.output}`);
    }
    assert.ok(offline.length >= 2, `commands that need only the bundled files: ${offline.map((d) => d.text).join("; ")}`);
    offline.forEach((d, i) => {
      const words = d.words.map((w) => (/^(examples|questions)\//.test(w) ? join(ROOT, w) : w));
      const r = run([BIN, ...words], dir, join(dir, `data-${i}`));
      assert.equal(r.status, 0, `${d.page}: ${d.text}\n${r.output}`);
      assert.match(r.output, /experiment: exp_[0-9a-f]+/, `${d.page}: ${d.text}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
