import type { ProgressEvent } from "../../domain/types.js";
import { cliIo, drawsOn } from "./io.js";

export interface Progress {
  onProgress: (event: ProgressEvent) => void;
  /** A line that stays (a run's estimate), above the spinner in a terminal; silent with --quiet or --json. */
  note(line: string): void;
  succeed(message: string): void;
  fail(): void;
}

/** `--progress`: a spinner in a terminal and lines elsewhere (auto), always lines, or JSON events. */
export const PROGRESS_MODES = ["auto", "lines", "json"] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

export interface ProgressOptions {
  quiet?: boolean;
  /** `--json`: stdout carries the result; progress is silent unless `--progress json` asks for events. */
  json?: boolean;
  progress?: ProgressMode;
}

/** In lines mode, a stage and strategy under way gets a line at most this often. */
export const PROGRESS_LINE_INTERVAL_MS = 5000;
/**
 * In lines mode, a run that reported nothing for this long (a long document parsed or chunked in
 * one step, a slow model) still gets a line: a log never goes quiet for longer while work runs.
 */
export const PROGRESS_HEARTBEAT_MS = 15_000;

/** Calls `tick` every `ms` until the returned stop is called; never keeps the process alive by itself. */
export type Ticker = (tick: () => void, ms: number) => () => void;
const everyMs: Ticker = (tick, ms) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

const SILENT: Progress = { onProgress: () => {}, note: () => {}, succeed: () => {}, fail: () => {} };

/**
 * Progress on stderr, so stdout stays clean for tables and --json: an ora spinner in a
 * terminal, throttled lines otherwise (CI logs), one JSON object per event with
 * `--progress json`, nothing with --quiet.
 */
export async function startProgress(title: string, options: ProgressOptions = {}): Promise<Progress> {
  const mode = options.progress ?? "auto";
  if (options.quiet || (options.json && mode !== "json")) return SILENT;
  const write = (line: string) => void cliIo().stderr.write(`${line}\n`);
  if (mode === "json") return jsonProgress(title, write);
  if (mode === "lines" || !drawsOn(cliIo().stderr)) return lineProgress(title, write);
  const { default: ora } = await import("ora");
  const spinner = ora({ text: title, stream: cliIo().stderr }).start();
  return {
    onProgress: (e) => {
      spinner.text = `${title} ${groupOf(e)}: ${e.message}`;
    },
    note: (line) => {
      spinner.clear();
      cliIo().stderr.write(`${line}\n`);
      spinner.render();
    },
    succeed: (m) => spinner.succeed(m),
    fail: () => spinner.stop(),
  };
}

/** "answer recursive", "index semantic", "process": what one line of lines mode is about. */
function groupOf(e: ProgressEvent): string {
  return e.strategy ? `${e.stage} ${e.strategy}` : e.stage;
}

/** "12.5 s", and past two minutes "18 min": a long run's log reads in minutes. */
const seconds = (ms: number) => (ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`);

/**
 * Lines for a log a person reads: the title; a line when a stage starts and when a stage and
 * strategy ends (with its count and time); in between, at most one line per stage and strategy
 * under way every `intervalMs`, with its count and an ETA from its pace so far; and when nothing
 * was printed for `heartbeatMs`, the step still under way, so the log never goes quiet for longer.
 */
export function lineProgress(
  title: string,
  write: (line: string) => void,
  now = () => performance.now(),
  intervalMs = PROGRESS_LINE_INTERVAL_MS,
  every: Ticker = everyMs,
  heartbeatMs = PROGRESS_HEARTBEAT_MS,
): Progress {
  const started = now();
  const stages = new Set<string>();
  /** A stage (and strategy) under way: since when, at which count it started (its pace counts from there), and its last event. */
  interface Group {
    started: number;
    startDone: number;
    reported: number;
    last: ProgressEvent;
    unprinted: boolean;
    ended: boolean;
  }
  const groups = new Map<string, Group>();
  let lastLine = started;
  let latest: string | undefined;
  write(title);
  // The time left at the group's pace so far, once it has one.
  const left = (state: Group, t: number): number | null => {
    const { done, total } = state.last;
    if (done === undefined || total === undefined || done <= state.startDone || done >= total) return null;
    return ((t - state.started) / (done - state.startDone)) * (total - done);
  };
  const print = (group: string, state: Group, t: number) => {
    const { message, done, total } = state.last;
    let counts = "";
    if (done !== undefined && total !== undefined) {
      const eta = left(state, t);
      // A message that already says "2/5" is not followed by the same count again.
      const count = message.includes(`${done}/${total}`) ? "" : `${done}/${total}, `;
      counts = ` (${count}${seconds(t - state.started)}${eta === null ? "" : `, ETA ${seconds(eta)}`})`;
    }
    write(`  ${group}: ${message}${counts}`);
    state.unprinted = false;
    lastLine = t;
  };
  // The time left of the counted step under way that last reported, once it has one.
  const timeLeft = (t: number) => {
    const counted = [...groups].filter(([, g]) => !g.ended && left(g, t) !== null);
    const [group, state] = counted.sort(([, a], [, b]) => b.reported - a.reported)[0] ?? [];
    if (!state) return "";
    return `; ${group} ${state.last.done}/${state.last.total}, about ${seconds(left(state, t)!)} left`;
  };
  // Checked every second (or every heartbeatMs when shorter), a quiet spell is cut before it passes heartbeatMs.
  const tickMs = Math.min(1000, heartbeatMs);
  const stopHeartbeat = every(() => {
    const t = now();
    if (t - lastLine < heartbeatMs - tickMs) return;
    // The step that reported last, and the other strategies' steps still under way (one chunks while another embeds).
    const under = [...groups].filter(([group, g]) => !g.ended && (group === latest || g.last.strategy !== undefined));
    const named = under.sort(([a, ga], [b, gb]) => (a === latest ? -1 : b === latest ? 1 : gb.reported - ga.reported)).slice(0, 3);
    const step = named.map(([group, g]) => `${group}: ${g.last.message}`).join("; ") + (named.length > 0 ? ", " : "");
    write(`  still working: ${step}${seconds(t - started)} since the start${timeLeft(t)}`);
    lastLine = t;
  }, tickMs);
  return {
    onProgress: (e) => {
      const t = now();
      const group = groupOf(e);
      latest = group;
      const ends = e.done !== undefined && e.total !== undefined && e.done >= e.total;
      let state = groups.get(group);
      // A group that ended starts again with an event that does not end it (the same strategy's
      // next document in a collection), and so does a count that went back or changed its total
      // (the next document's embedding); a repeat of its end stays quiet.
      const restarts =
        state !== undefined && e.done !== undefined && state.last.done !== undefined && (e.done < state.last.done || e.total !== state.last.total);
      if (!state || (state.ended && !ends) || restarts)
        groups.set(group, (state = { started: t, startDone: e.done ?? 0, reported: t, last: e, unprinted: true, ended: false }));
      if (state.ended) return;
      state.last = e;
      state.reported = t;
      state.unprinted = true;
      const firstOfStage = !stages.has(e.stage);
      stages.add(e.stage);
      state.ended = ends;
      if (firstOfStage || state.ended) return print(group, state, t);
      if (t - lastLine < intervalMs) return;
      for (const [g, s] of groups) if (s.unprinted && !s.ended) print(g, s, t);
    },
    note: (line) => {
      write(line);
      lastLine = now();
    },
    succeed: (m) => {
      stopHeartbeat();
      write(`${m} (${seconds(now() - started)})`);
    },
    fail: stopHeartbeat,
  };
}

/**
 * One JSON object per line for tools: `start` (the title), every `progress` event as the
 * service reported it, then `end` with `ok`. Keys are snake_case like every JSON chunkeval prints.
 */
export function jsonProgress(title: string, write: (line: string) => void, now = () => performance.now()): Progress {
  const started = now();
  const elapsed = () => Math.round(now() - started) / 1000;
  write(JSON.stringify({ event: "start", title }));
  return {
    onProgress: (e) =>
      write(
        JSON.stringify({
          event: "progress",
          stage: e.stage,
          ...(e.strategy === undefined ? {} : { strategy: e.strategy }),
          message: e.message,
          ...(e.done === undefined ? {} : { done: e.done }),
          ...(e.total === undefined ? {} : { total: e.total }),
          elapsed_seconds: elapsed(),
        }),
      ),
    note: (line) => write(JSON.stringify({ event: "note", message: line, elapsed_seconds: elapsed() })),
    succeed: (message) => write(JSON.stringify({ event: "end", ok: true, message, elapsed_seconds: elapsed() })),
    fail: () => write(JSON.stringify({ event: "end", ok: false, elapsed_seconds: elapsed() })),
  };
}
