// The test files as JavaScript, for a full run of scripts/run-tests.mjs (after it built dist/):
// test/**/*.ts is transpiled to test-dist/**/*.js (esbuild, types stripped, no type check: `npm
// test` type-checks the sources itself), every import of a chunkeval source (`../../src/x.js`)
// pointed at its build (`../../dist/x.js`), and every other file of test/ linked in place. A file
// run that way starts in plain node: without tsx's loader thread a test process used about a
// second less processor time (1.0 of 1.4 s to import the application), over some two hundred
// files a run.
//
// test-dist/ sits beside test/, at the same depth, so a path a test builds from its own URL to
// the repository (`../../examples/…`) still lands there. A file whose imports reach a TypeScript
// file outside test/ and src/ (examples/build-*.ts, scripts/load-helpers.ts) is left to tsx: its
// name is in test-dist/needs-tsx.json, and the runner starts it with the loaders.
//
//   node scripts/build-tests.mjs     (the runner calls buildTests(); run by hand to look at the output)
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const TEST_SOURCES = join(root, "test");
const TEST_BUILD = join(root, "test-dist");
const NEEDS_TSX = join(TEST_BUILD, "needs-tsx.json");

// As tsconfig.json compiles them: class fields defined, not assigned (ES2022).
const TSCONFIG = { compilerOptions: { target: "ES2022", useDefineForClassFields: true } };

/** Relative specifiers of static imports, re-exports and dynamic imports with a literal path. */
const SPECIFIER = /((?:\bfrom|\bimport)\s*\(?\s*["'])(\.{1,2}\/[^"']*)(["'])/g;

function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The `.ts` source an import of `specifier` from `file` loads, when it is one (`./x.js` → `./x.ts`). */
function typescriptTarget(file, specifier) {
  const target = resolve(dirname(file), specifier);
  const candidate = target.replace(/\.js$/, ".ts");
  return candidate.endsWith(".ts") && existsSync(candidate) ? candidate : undefined;
}

/** Writes `content` to `path` unless it holds it already: a run started beside this one keeps reading whole files. */
function writeIfChanged(path, content) {
  if (existsSync(path) && readFileSync(path, "utf8") === content) return;
  writeFileSync(path, content);
}

/** Links `path` to `target` unless it is that link already. */
function linkIfMissing(target, path) {
  try {
    if (lstatSync(path).isSymbolicLink() && readlinkSync(path) === target) return;
    rmSync(path, { recursive: true, force: true });
  } catch {
    // not there yet
  }
  symlinkSync(target, path);
}

/** Removes what test-dist/ holds that `kept` does not name (a test file deleted or renamed since). */
function removeStale(folder, kept) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (kept.has(path)) continue;
    if (lstatSync(path).isDirectory() && [...kept].some((k) => k.startsWith(path + "/"))) removeStale(path, kept);
    else rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Brings test-dist/ up to date with test/ (rewriting only what changed, so a run started beside
 * this one in the same checkout is not pulled from under it) and returns the test files (as
 * `test/…` paths) that must still run under tsx.
 */
export function buildTests() {
  const sources = join(root, "src") + "/";
  const written = new Set([NEEDS_TSX]);
  const imports = new Map(); // test file → the test files it imports
  const outside = new Set(); // test files importing TypeScript outside test/ and src/
  for (const file of filesUnder(TEST_SOURCES)) {
    const out = join(TEST_BUILD, relative(TEST_SOURCES, file));
    mkdirSync(dirname(out), { recursive: true });
    written.add(out);
    linkIfMissing(file, out);
    if (!file.endsWith(".ts")) continue;
    const source = readFileSync(file, "utf8");
    const reached = [];
    const code = transformSync(source, {
      loader: "ts",
      format: "esm",
      target: "node20",
      sourcemap: "inline",
      sourcefile: file,
      tsconfigRaw: TSCONFIG,
    }).code.replace(SPECIFIER, (whole, before, specifier, after) => {
      const target = typescriptTarget(file, specifier);
      if (target?.startsWith(sources))
        return `${before}${relative(dirname(file), join(root, "dist", target.slice(sources.length))).replace(/\.ts$/, ".js")}${after}`;
      if (target?.startsWith(TEST_SOURCES + "/")) reached.push(target);
      else if (target) outside.add(file);
      return whole;
    });
    imports.set(file, reached);
    // Beside the link to its source, for what runs a helper as TypeScript by its path (a child under tsx).
    written.add(out.replace(/\.ts$/, ".js"));
    writeIfChanged(out.replace(/\.ts$/, ".js"), code);
  }
  removeStale(TEST_BUILD, written);
  // A file that imports one left to tsx is left to tsx too.
  const needsTsx = new Set(outside);
  for (let grew = true; grew;) {
    grew = false;
    for (const [file, reached] of imports)
      if (!needsTsx.has(file) && reached.some((r) => needsTsx.has(r))) {
        needsTsx.add(file);
        grew = true;
      }
  }
  const names = [...needsTsx].map((file) => relative(root, file)).sort();
  writeIfChanged(NEEDS_TSX, JSON.stringify(names, null, 1) + "\n");
  return names;
}

/** The built JavaScript of a test file (`test/a/b.test.ts` → `test-dist/a/b.test.js`). */
export const builtTest = (file) => relative(root, join(TEST_BUILD, relative(TEST_SOURCES, resolve(root, file)))).replace(/\.ts$/, ".js");

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const left = buildTests();
  console.log(`test-dist/ written in ${Date.now() - started} ms; left to tsx: ${left.length > 0 ? left.join(", ") : "none"}`);
}
