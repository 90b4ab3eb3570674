import { link, rename, unlink, writeFile } from "node:fs/promises";

/**
 * Writes a file whole or not at all: a temporary file beside it, then renamed over it (or, with
 * `overwrite: false`, linked to its name, which fails with EEXIST when a file appeared there
 * meanwhile, so an existing file is never replaced). A reader never sees half a file.
 */
export async function writeFileWhole(path: string, text: string, options: { overwrite: boolean } = { overwrite: true }): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  try {
    if (options.overwrite) await rename(temporary, path);
    else await link(temporary, path);
  } finally {
    if (!options.overwrite) await unlink(temporary).catch(() => undefined);
  }
}
