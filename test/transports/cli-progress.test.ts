import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonProgress, lineProgress, type Ticker } from "../../src/transports/cli/progress.js";

/** A clock the test moves by hand, so throttling is checked without waiting. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/**
 * Lines mode on the hand-moved clock with its heartbeat's timer ticked by hand (`tick()`): lines
 * every 5 s at most, a heartbeat after 15 s of quiet.
 */
function heartbeatProgress() {
  const lines: string[] = [];
  const c = clock();
  let ticked = () => {};
  const every: Ticker = (fn) => {
    ticked = fn;
    return () => (ticked = () => {});
  };
  const progress = lineProgress("benchmarking", (l) => lines.push(l), c.now, 5000, every, 15_000);
  return { lines, c, tick: () => ticked(), progress };
}

test("lines mode: a line when a stage starts and when a strategy ends; in between at most one per strategy every 5 s, with counts and an ETA", () => {
  const lines: string[] = [];
  const c = clock();
  const progress = lineProgress("benchmarking", (l) => lines.push(l), c.now, 5000);
  for (const strategy of ["recursive", "semantic"]) {
    for (let i = 0; i < 100; i++) {
      progress.onProgress({ stage: "answer", strategy, message: `question ${i + 1}/100`, done: i, total: 100 });
      c.advance(100); // 10 s per strategy
    }
    progress.onProgress({ stage: "answer", strategy, message: "100 questions answered", done: 100, total: 100 });
  }
  progress.succeed("experiment exp_1");
  assert.deepEqual(lines, [
    "benchmarking",
    "  answer recursive: question 1/100 (0/100, 0.0 s)",
    "  answer recursive: question 51/100 (50/100, 5.0 s, ETA 5.0 s)",
    "  answer recursive: 100 questions answered (100/100, 10.0 s)",
    "  answer semantic: question 51/100 (50/100, 5.0 s, ETA 5.0 s)",
    "  answer semantic: 100 questions answered (100/100, 10.0 s)",
    "experiment exp_1 (20.0 s)",
  ]);
});

test("lines mode: strategies under way side by side each get their line; an ended one stays quiet", () => {
  const lines: string[] = [];
  const c = clock();
  const progress = lineProgress("processing", (l) => lines.push(l), c.now, 5000);
  progress.onProgress({ stage: "index", strategy: "a", message: "chunking" });
  progress.onProgress({ stage: "index", strategy: "b", message: "chunking" });
  c.advance(6000);
  progress.onProgress({ stage: "index", strategy: "a", message: "embedding 40 chunks" });
  progress.onProgress({ stage: "index", strategy: "a", message: "40 chunks indexed", done: 40, total: 40 });
  progress.onProgress({ stage: "index", strategy: "a", message: "again", done: 40, total: 40 });
  progress.onProgress({ stage: "process", message: "a (1/2)", done: 1, total: 2 });
  c.advance(2000);
  progress.onProgress({ stage: "process", message: "b (2/2)", done: 2, total: 2 });
  assert.deepEqual(lines, [
    "processing",
    "  index a: chunking",
    "  index a: embedding 40 chunks",
    "  index b: chunking",
    "  index a: 40 chunks indexed (40/40, 6.0 s)",
    "  process: a (1/2) (0.0 s)",
    "  process: b (2/2) (2.0 s)",
  ]);
});

test("lines mode: a step that reports nothing for 15 s still gets a line, naming it; none after the run ends", () => {
  const { lines, c, tick, progress } = heartbeatProgress();
  progress.onProgress({ stage: "index", strategy: "semantic", message: "chunking" });
  c.advance(13_000);
  tick();
  assert.equal(lines.length, 2, "quiet for 13 s: no line yet");
  // The timer ticks every second: the line comes at the tick before the quiet would pass 15 s.
  c.advance(1_000);
  tick();
  assert.equal(lines.length, 3, "quiet for 14 s, 15 s at the next tick: the line");
  c.advance(14_000);
  tick();
  progress.onProgress({ stage: "index", strategy: "semantic", message: "embedding 40 chunks" });
  c.advance(14_000);
  tick();
  progress.succeed("experiment exp_1");
  c.advance(60_000);
  tick();
  assert.deepEqual(lines, [
    "benchmarking",
    "  index semantic: chunking",
    "  still working: index semantic: chunking, 14.0 s since the start",
    "  still working: index semantic: chunking, 28.0 s since the start",
    "  still working: index semantic: embedding 40 chunks, 42.0 s since the start",
    "experiment exp_1 (42.0 s)",
  ]);
});

test("lines mode over a collection: a strategy's next document is reported after its first, the heartbeat names document, phase and time left", () => {
  const { lines, c, tick, progress } = heartbeatProgress();
  progress.onProgress({ stage: "index", message: "0/4 indexes built", done: 0, total: 4 });
  progress.onProgress({ stage: "index", strategy: "recursive", message: "document 1 of 4 (a.txt): chunking" });
  c.advance(10_000);
  progress.onProgress({ stage: "index", strategy: "recursive", message: "10 chunks of a.txt indexed", done: 10, total: 10 });
  progress.onProgress({ stage: "index", message: "1/4 indexes built", done: 1, total: 4 });
  progress.onProgress({ stage: "index", strategy: "recursive", message: "document 2 of 4 (book.pdf): embedding 900 chunks (300 done)" });
  c.advance(20_000);
  tick();
  progress.onProgress({ stage: "index", strategy: "recursive", message: "900 chunks of book.pdf indexed", done: 900, total: 900 });
  progress.fail();
  assert.deepEqual(lines, [
    "benchmarking",
    "  index: 0/4 indexes built (0.0 s)",
    "  index recursive: 10 chunks of a.txt indexed (10/10, 10.0 s)",
    // One of four built in 30 s: three more at that pace.
    "  still working: index recursive: document 2 of 4 (book.pdf): embedding 900 chunks (300 done), 30.0 s since the start; index 1/4, about 90.0 s left",
    "  index recursive: 900 chunks of book.pdf indexed (900/900, 20.0 s)",
  ]);
});

test("lines mode: a long document's embedding count gives its time left, from the pace since its first count; the next document's count starts again", () => {
  const { lines, c, tick, progress } = heartbeatProgress();
  const embed = (done: number, total: number, document: string) =>
    progress.onProgress({ stage: "embed", strategy: "recursive", message: `${document}: embedding ${total} chunks`, done, total });
  c.advance(1_000);
  embed(100, 400, "book.pdf"); // the first count, a second into the embedding: the pace counts from here
  c.advance(10_000);
  embed(200, 400, "book.pdf");
  c.advance(4_000);
  tick();
  c.advance(1_000);
  embed(50, 80, "notes.txt"); // the next document: its own pace
  c.advance(1_000);
  embed(70, 80, "notes.txt");
  c.advance(13_000);
  tick();
  assert.deepEqual(lines, [
    "benchmarking",
    "  embed recursive: book.pdf: embedding 400 chunks (100/400, 0.0 s)",
    // 100 chunks in the 10 s since the first count: 200 left, 20 s.
    "  embed recursive: book.pdf: embedding 400 chunks (200/400, 10.0 s, ETA 20.0 s)",
    // The count went back: the next document, counted from its own first count.
    "  embed recursive: notes.txt: embedding 80 chunks (50/80, 0.0 s)",
    // 20 chunks in 14 s: 10 left, 7 s.
    "  still working: embed recursive: notes.txt: embedding 80 chunks, 30.0 s since the start; embed recursive 70/80, about 7.0 s left",
  ]);
});

test("lines mode: the heartbeat names every strategy's step under way, not only the one that reported last", () => {
  const { lines, c, tick, progress } = heartbeatProgress();
  progress.onProgress({ stage: "index", strategy: "semantic", message: "document 1 of 5 (finance.md): chunking" });
  progress.onProgress({ stage: "embed", strategy: "recursive", message: "finance.md: embedding 780 chunks", done: 128, total: 780 });
  c.advance(10_000);
  progress.onProgress({ stage: "embed", strategy: "recursive", message: "finance.md: embedding 780 chunks", done: 256, total: 780 });
  c.advance(15_000);
  tick();
  assert.equal(
    lines.at(-1),
    "  still working: embed recursive: finance.md: embedding 780 chunks; index semantic: document 1 of 5 (finance.md): chunking, " +
      "25.0 s since the start; embed recursive 256/780, about 102.3 s left",
  );
});

test("json mode: one parseable object per event, start and end included", () => {
  const lines: string[] = [];
  const c = clock();
  const progress = jsonProgress("benchmarking", (l) => lines.push(l), c.now);
  progress.onProgress({ stage: "answer", strategy: "recursive", message: "question 1/2", done: 0, total: 2 });
  c.advance(1500);
  progress.onProgress({ stage: "bench", message: "done" });
  progress.fail();
  assert.deepEqual(
    lines.map((l) => JSON.parse(l)),
    [
      { event: "start", title: "benchmarking" },
      { event: "progress", stage: "answer", strategy: "recursive", message: "question 1/2", done: 0, total: 2, elapsed_seconds: 0 },
      { event: "progress", stage: "bench", message: "done", elapsed_seconds: 1.5 },
      { event: "end", ok: false, elapsed_seconds: 1.5 },
    ],
  );
});
