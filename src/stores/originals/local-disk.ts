import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OriginalsStore } from "../../domain/ports/originals.js";

/** The folders of the data directory originals are stored in (`files/doc_….docx`, `objects/file_….pdf`). */
const FOLDERS = ["files", "objects"];

/**
 * Originals as files in the data directory (`DATA_DIR/files/`, `DATA_DIR/objects/`): the default,
 * seen only by processes on this machine. A location is the file's path.
 */
export class LocalDiskOriginals implements OriginalsStore {
  constructor(private readonly dataDir: string) {}

  /**
   * Written under a temporary name, then renamed: a process killed mid-write (`kill -9` during an
   * upload) leaves a `.partial-…` file no row names, which `doctor` reports and removes, never a
   * truncated original under the real name.
   */
  async put(name: string, bytes: Buffer): Promise<string> {
    const path = join(this.dataDir, name);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.partial-${randomBytes(6).toString("hex")}`;
    try {
      await writeFile(partial, bytes);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return path;
  }

  async read(location: string): Promise<Buffer | null> {
    return readFile(location).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
  }

  async remove(location: string): Promise<void> {
    await rm(location, { force: true });
  }

  async list(): Promise<Array<{ location: string; storedAtMs: number }>> {
    const out: Array<{ location: string; storedAtMs: number }> = [];
    for (const folder of FOLDERS) {
      const dir = join(this.dataDir, folder);
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      for (const name of names) {
        const location = join(dir, name);
        const info = await stat(location).catch(() => null); // removed meanwhile
        if (info?.isFile()) out.push({ location, storedAtMs: info.mtimeMs });
      }
    }
    return out;
  }

  async close(): Promise<void> {}
}
