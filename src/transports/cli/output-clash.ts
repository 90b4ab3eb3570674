import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { ValidationError } from "../../errors.js";

/** A file a command was told to write, by the flag that named it. */
export interface OutputFile {
  flag: string;
  path: string | undefined;
}

/** A file (or a folder of documents) a command reads, said as the user gave it. */
export interface InputFile {
  what: string;
  path: string;
}

/**
 * The file a path ends up at: symlinks followed, and for a file not written yet its folder's real
 * path with its name, so `./q.json`, `/abs/q.json` and a link to it compare equal.
 */
function realFile(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const folder = dirname(absolute);
  return existsSync(folder) ? join(realpathSync(folder), basename(absolute)) : absolute;
}

/**
 * Refuses (usage error, before anything is read or written) an output that would overwrite an
 * input (the questions file, a document, the baseline) or another output: writing the
 * experiment over the questions file would lose them. An input folder clashes with an output
 * that is an existing file below it (a document read from there).
 */
export function refuseOutputClashes(outputs: OutputFile[], inputs: InputFile[]): void {
  const written = outputs.flatMap((o) => (o.path ? [{ flag: o.flag, path: o.path, real: realFile(o.path) }] : []));
  for (const input of inputs) {
    if (!existsSync(input.path)) continue;
    const real = realFile(input.path);
    const isFolder = statSync(real).isDirectory();
    for (const o of written) {
      const clash = isFolder ? o.real.startsWith(real + sep) && existsSync(o.real) : o.real === real;
      if (clash) {
        const where = isFolder ? `a file in ${input.what} ${input.path}` : `${input.what} ${input.path}`;
        throw new ValidationError(`${o.flag} ${o.path} is ${where}: writing it would overwrite an input; choose another file`);
      }
    }
  }
  written.forEach((o, i) => {
    const other = written.slice(0, i).find((p) => p.real === o.real);
    if (other) throw new ValidationError(`${other.flag} ${other.path} and ${o.flag} ${o.path} are the same file: choose a file for each`);
  });
}

/**
 * Refuses (usage error, before any work) an output that cannot be written: its folder missing or
 * not writable, or the path a folder. Found after a long run, it cost the run's report and its
 * gates' lines (an unexpected error, exit 1).
 */
export function refuseUnwritableOutputs(outputs: OutputFile[]): void {
  for (const { flag, path } of outputs) {
    if (!path) continue;
    const absolute = resolve(path);
    const folder = dirname(absolute);
    if (!existsSync(folder)) throw new ValidationError(`${flag} ${path}: the folder ${folder} does not exist; create it first`);
    if (!statSync(folder).isDirectory()) throw new ValidationError(`${flag} ${path}: ${folder} is a file, not a folder`);
    if (existsSync(absolute) && statSync(absolute).isDirectory()) throw new ValidationError(`${flag} ${path} is a folder; name a file`);
    try {
      accessSync(existsSync(absolute) ? absolute : folder, constants.W_OK);
    } catch {
      throw new ValidationError(`${flag} ${path}: cannot write there (permission denied); choose another file`);
    }
  }
}
