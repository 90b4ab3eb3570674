import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The installed version of a package, found from its entry point up to its package.json: part
 * of a bundled model's cache key, since other weights or code mean other vectors.
 */
export function installedVersion(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // no package.json here: look one folder up
    }
    const up = dirname(dir);
    if (up === dir) return "unknown";
    dir = up;
  }
}
