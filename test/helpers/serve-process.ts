import { spawn, type ChildProcess } from "node:child_process";
import { BIN, childEnv } from "./cli.js";

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stderr(): string;
}

/** Starts `chunkeval serve --port 0` as its own process and waits for its URL line. */
export async function spawnServe(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0"], {
    env: childEnv(env),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL line: ${stderr}`)), 20000);
    child.stderr!.on("data", () => {
      const m = stderr.match(/chunkeval serving on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) (clearTimeout(timer), resolve(m[1]!));
    });
    child.on("exit", () => (clearTimeout(timer), reject(new Error(`serve exited: ${stderr}`))));
  });
  return { url, child, exited, stderr: () => stderr };
}
