/**
 * The browser UI's figures (issue 40 item 5), measured in Debian's Chromium against `chunkeval ui`
 * on 127.0.0.1 with a fresh data directory and the hash embedder:
 *
 * - the shipped assets: each file's size and gzip size;
 * - the first screen: from the page's navigation to the documents list drawn (the mark
 *   `chunkeval:first-screen` in ui.js), with 20 documents stored, and the server's answer to the
 *   page itself (its responseStart) for comparison; the median of 7 loads;
 * - a large document: a text of --paragraphs paragraphs (default 10,000) processed with
 *   fixed_size@chunk_size=64 (about one chunk a paragraph): the time from asking for the column to
 *   its text drawn, then frame times while the column scrolls (120 frames, 400 px a frame),
 *   against the extracted-text column of the same document scrolled the same way (the peer: the
 *   same text without chunk spans).
 *
 *   npm run bench:ui [-- --paragraphs 10000]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../test/helpers/browser.js";
import { startLongRunning, stop } from "../test/helpers/long-running.js";

const { values } = parseArgs({ options: { paragraphs: { type: "string", default: "10000" } } });
const paragraphs = Number(values.paragraphs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

const uiFolder = fileURLToPath(new URL("../src/transports/http/ui/", import.meta.url));
let total = 0;
let totalGzip = 0;
console.log("assets as served (src/transports/http/ui, shipped in the package):");
for (const file of readdirSync(uiFolder)) {
  const bytes = readFileSync(join(uiFolder, file));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  total += bytes.length;
  totalGzip += gzip;
  console.log(`  ${file.padEnd(12)} ${(bytes.length / 1024).toFixed(1).padStart(6)} KB  gzip ${(gzip / 1024).toFixed(1).padStart(5)} KB`);
}
console.log(`  ${"all".padEnd(12)} ${(total / 1024).toFixed(1).padStart(6)} KB  gzip ${(totalGzip / 1024).toFixed(1).padStart(5)} KB`);

const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-ui-"));
const ui = await startLongRunning(["ui"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" }, /chunkeval UI on (\S+)/);
const browser = await launchChromium();
try {
  const url = ui.match[1]!;
  const base = new URL("/", url).href.replace(/\/$/, "");
  const upload = async (filename: string, text: string) => {
    const form = new FormData();
    form.append("file", new Blob([text]), filename);
    const response = await fetch(`${base}/documents`, { method: "POST", body: form });
    if (!response.ok) throw new Error(`upload ${filename}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  for (let i = 1; i <= 20; i++) await upload(`note-${i}.md`, `# Note ${i}\n\nThe keeper trimmed lamp ${i} at dusk and signed the log.\n`);

  const loads: Array<{ screen: number; served: number }> = [];
  for (let i = 0; i < 7; i++) {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector("#documents button[data-id]");
    loads.push(
      (await page.evaluate(`({
        screen: performance.getEntriesByName("chunkeval:first-screen")[0].startTime,
        served: performance.getEntriesByType("navigation")[0].responseStart,
      })`)) as { screen: number; served: number },
    );
    await page.close();
  }
  const screen = median(loads.map((l) => l.screen));
  const served = median(loads.map((l) => l.served));
  console.log(
    `first screen (20 documents listed), median of ${loads.length} loads: ${screen.toFixed(0)} ms from navigation; ` +
      `the server's first byte of the page at ${served.toFixed(1)} ms, so ${(screen - served).toFixed(0)} ms after it answered`,
  );

  const words = ["harbour", "lamp", "keeper", "dusk", "log", "tide", "signal", "pier", "winter", "watch", "beacon", "rope"];
  const text = Array.from(
    { length: paragraphs },
    (_, p) =>
      Array.from({ length: 40 }, (_, w) => words[(p * 7 + w * 3) % words.length])
        .join(" ")
        .replace(/^./, (c) => c.toUpperCase()) + ".",
  ).join("\n\n");
  const started = performance.now();
  const doc = await upload("large.txt", text);
  const processed = await fetch(`${base}/documents/${doc.id}/process`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ strategies: ["fixed_size@chunk_size=64"] }),
  });
  if (!processed.ok) throw new Error(`process: ${processed.status} ${await processed.text()}`);
  const listed = (await (await fetch(`${base}/documents/${doc.id}/chunks?strategy=fixed_size%40chunk_size%3D64`)).json()) as { chunks: unknown[] };
  console.log(
    `large document: ${paragraphs} paragraphs, ${text.length} characters, ${listed.chunks.length} chunks, stored and processed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.click(`#documents button[data-id="${doc.id}"]`);
  await page.waitForSelector('.column[data-strategy=""] .text');
  const asked = performance.now();
  await page.fill("#strategy", "fixed_size@chunk_size=64");
  await page.click("#add-strategy button");
  await page.waitForSelector('.column[data-strategy="fixed_size@chunk_size=64"] .text');
  await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
  const drawn = performance.now() - asked;
  const spans = (await page.evaluate(`document.querySelectorAll('.column[data-strategy="fixed_size@chunk_size=64"] .text span').length`)) as number;
  console.log(`the chunks' column (${spans} spans) drawn ${drawn.toFixed(0)} ms after it was asked for (the chunk list fetched, the text drawn, two frames)`);

  const scrollFrames = async (selector: string) =>
    (await page.evaluate(`(async () => {
      const box = document.querySelector(${JSON.stringify(selector)});
      box.scrollTop = 0;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      await frame();
      const times = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        box.scrollTop += 400;
        await frame();
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times;
    })()`)) as number[];
  // The columns scroll together: the chunks' column is scrolled with the text column's sync on, as a person sees it.
  const summary = (name: string, times: number[]) =>
    `  ${name.padEnd(28)} frame p50 ${median(times).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms, ` +
    `frames over 50 ms: ${times.filter((t) => t > 50).length} of ${times.length}`;
  const peer = await scrollFrames('.column[data-strategy=""] .text');
  const chunked = await scrollFrames('.column[data-strategy="fixed_size@chunk_size=64"] .text');
  console.log("scrolling, 120 frames of 400 px:");
  console.log(summary("extracted text (peer)", peer));
  console.log(summary("fixed_size@chunk_size=64", chunked));
  console.log(`  ratio of p95 frame times (chunks / peer): ${(quantile(chunked, 0.95) / quantile(peer, 0.95)).toFixed(2)}`);
  await page.close();
} finally {
  await browser.close();
  await stop(ui.child);
  rmSync(dir, { recursive: true, force: true });
}
