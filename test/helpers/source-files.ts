import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every .ts file under `dir`, its subfolders included. */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? typeScriptFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}
