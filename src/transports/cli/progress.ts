import type { ProgressEvent } from "../../domain/types.js";

export interface Progress {
  onProgress: (event: ProgressEvent) => void;
  succeed(message: string): void;
  fail(): void;
}

/**
 * Progress on stderr, so stdout stays clean for tables and --json: an ora spinner in a
 * terminal, plain lines otherwise (CI logs), nothing with --quiet.
 */
export async function startProgress(title: string, options: { quiet?: boolean } = {}): Promise<Progress> {
  if (options.quiet) return { onProgress: () => {}, succeed: () => {}, fail: () => {} };
  if (!process.stderr.isTTY) {
    process.stderr.write(`${title}\n`);
    return {
      onProgress: (e) => process.stderr.write(`  ${e.stage}: ${e.message}\n`),
      succeed: (m) => process.stderr.write(`${m}\n`),
      fail: () => {},
    };
  }
  const { default: ora } = await import("ora");
  const spinner = ora({ text: title, stream: process.stderr }).start();
  return {
    onProgress: (e) => {
      spinner.text = `${title} ${e.stage}: ${e.message}`;
    },
    succeed: (m) => spinner.succeed(m),
    fail: () => spinner.stop(),
  };
}
