import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SUPPORTED_FORMATS_TEXT } from "../../api/about.js";

/** The package root: this file is src/transports/cli/ (tsx) or dist/transports/cli/ (built). */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A path as short as it can be written from the current folder. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && rel.length < path.length ? rel : path;
}

/**
 * What `chunkeval` alone prints in a terminal: what to run first, with the bundled example's real
 * paths (they differ between a clone and a global install). Scripts and pipes get the usage error.
 */
export function firstStepsGuide(): string {
  const example = shortPath(join(ROOT, "examples", "harbor-light-handbook.docx"));
  const questions = shortPath(join(ROOT, "questions", "harbor-light-handbook.json"));
  return [
    `chunkeval finds the chunking strategy that gives the best retrieval-augmented answers for your documents (${SUPPORTED_FORMATS_TEXT}).`,
    "",
    "First steps (everything runs offline):",
    "  1. Benchmark the bundled example (about 20 s on two cores) and open the report:",
    `       chunkeval bench ${example} --questions ${questions} --out report.html`,
    "  2. Write questions for your own document (template questions offline; add --generator openai:<model> for real ones):",
    "       chunkeval questions generate my.docx --count 20",
    "  3. Benchmark your document with them:",
    "       chunkeval bench my.docx --questions my.questions.json --out report.html --view technical",
    "",
    "More: chunkeval --help, chunkeval <command> --help, and the documentation (docs/README.md).",
    "",
  ].join("\n");
}
