import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OriginalsStore } from "../../domain/ports/originals.js";

/**
 * Originals as files in the data directory (`DATA_DIR/files/`, `DATA_DIR/objects/`): the default,
 * seen only by processes on this machine. A location is the file's path.
 */
export class LocalDiskOriginals implements OriginalsStore {
  constructor(private readonly dataDir: string) {}

  async put(name: string, bytes: Buffer): Promise<string> {
    const path = join(this.dataDir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
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

  async close(): Promise<void> {}
}
