/**
 * Inline SVG charts for the self-contained HTML reports: no script, no network, printable.
 * Every chart has a <title> for screen readers and the class "chart" that tests look for.
 * Text is fitted to the chart with the width estimates of text-fit.ts: titles wrap, label
 * gutters are as wide as their longest label, and labels too long to stand next to a point are
 * replaced by numbers with a legend; the full text is always in a hover <title>.
 */
import { shortenToWidth, textWidth, wrapLines } from "./text-fit.js";

const W = 640;
/** Text escaped for XML and HTML: element content and double-quoted attributes. */
export const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const shorten = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const fmt = (v: number, digits = 2) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(digits));
/** Font sizes of the chart classes (report.njk's CSS), in user units. */
const TITLE_FONT = 13;
const LABEL_FONT = 11;
const LINE = 13;

/** Lines of text as <tspan>s under one another, starting at (x, y). */
const tspans = (lines: string[], x: number, lineHeight: number) =>
  lines.map((l, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : lineHeight}">${escape(l)}</tspan>`).join("");

/** The opening of a chart with its title wrapped to the chart's width; `extra` is how much lower the rest starts. */
function chartHead(title: string, className = "chart"): { open: (height: number) => string; extra: number } {
  const lines = wrapLines(title, W, TITLE_FONT, true);
  const extra = (lines.length - 1) * 16;
  return {
    extra,
    open: (height) =>
      `<svg class="${className}" viewBox="0 0 ${W} ${height + extra}" width="100%" role="img" aria-label="${escape(title)}">` +
      `<title>${escape(title)}</title><text x="0" y="16" class="title">${tspans(lines, 0, 16)}</text>` +
      `<g transform="translate(0 ${extra})">`,
  };
}
const CLOSE = "</g></svg>";

export interface Bar {
  label: string;
  value: number | null;
  /** Optional confidence interval drawn as a whisker from its low to its high end. */
  interval?: [number, number] | null;
  /** Why the value is missing, written in place of the bar. */
  missing?: string;
  highlight?: boolean;
}

/**
 * Horizontal bars; a missing value is written "n/a" instead of being drawn as zero. The label
 * gutter is as wide as the longest label, up to a third of the chart; longer labels wrap
 * (between a variant key's parameters) and their row grows.
 */
export function barChart(title: string, bars: Bar[], options: { max?: number; unit?: string } = {}): string {
  const labels = bars.map((b) => wrapLines(b.label, W / 3, LABEL_FONT));
  const labelW = Math.max(40, ...labels.flat().map((l) => textWidth(l, LABEL_FONT))) + 8;
  const plotW = W - labelW - 70;
  const max = options.max ?? Math.max(1e-9, ...bars.map((b) => Math.max(b.value ?? 0, b.interval?.[1] ?? 0)));
  const rowHeights = labels.map((lines) => Math.max(28, lines.length * LINE + 8));
  const head = chartHead(title, "chart bars");
  const h = rowHeights.reduce((a, b) => a + b, 0) + 34;
  let rowTop = 26;
  const rows = bars
    .map((b, i) => {
      const y = rowTop + (rowHeights[i]! - 20) / 2;
      const lines = labels[i]!;
      rowTop += rowHeights[i]!;
      const labelY = y + 15 - ((lines.length - 1) * LINE) / 2;
      const label =
        `<text x="${labelW - 8}" y="${labelY}" text-anchor="end" class="label"><title>${escape(b.label)}</title>` + `${tspans(lines, labelW - 8, LINE)}</text>`;
      if (b.value === null) {
        const reason = b.missing ?? "not measured";
        const shown = shortenToWidth(`n/a — ${reason}`, W - labelW - 4, LABEL_FONT);
        return `${label}<text x="${labelW + 4}" y="${y + 15}" class="na"><title>${escape(reason)}</title>${escape(shown)}</text>`;
      }
      const width = Math.max(1, (plotW * Math.max(0, b.value)) / max);
      const whisker = b.interval
        ? `<line x1="${labelW + (plotW * Math.max(0, b.interval[0])) / max}" x2="${labelW + (plotW * Math.min(max, b.interval[1])) / max}" ` +
          `y1="${y + 10}" y2="${y + 10}" class="whisker"/>`
        : "";
      // The value is written past the bar and its whisker, so the two never cross.
      const valueX = labelW + Math.max(width, b.interval ? (plotW * Math.min(max, b.interval[1])) / max : 0) + 6;
      return (
        `${label}<rect x="${labelW}" y="${y}" width="${width.toFixed(1)}" height="20" class="${b.highlight ? "bar best" : "bar"}"/>${whisker}` +
        `<text x="${valueX.toFixed(1)}" y="${y + 15}" class="value">${fmt(b.value)}${options.unit ?? ""}</text>`
      );
    })
    .join("");
  return `${head.open(h)}${rows}${CLOSE}`;
}

export interface Point {
  label: string;
  x: number;
  y: number;
  highlight?: boolean;
}

/** A round step (1, 2 or 5 times a power of ten) near `raw`, for axis ticks. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/**
 * An axis range fitted to the values with a margin, on round ticks, kept inside `bounds` (e.g. a
 * 0-10 score); equal values get a range around them instead of a zero-width axis.
 */
export function fitAxis(values: number[], bounds: { min?: number; max?: number } = {}): { lo: number; hi: number; ticks: number[] } {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const spread = max - min || Math.max(Math.abs(max) * 0.2, 1e-6);
  const step = niceStep((spread * 1.3) / 4);
  let lo = Math.floor((min - spread * 0.15) / step) * step;
  let hi = Math.ceil((max + spread * 0.15) / step) * step;
  if (bounds.min !== undefined) lo = Math.max(lo, bounds.min);
  if (bounds.max !== undefined) hi = Math.min(hi, bounds.max);
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return { lo, hi, ticks };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Places point labels so that none overlaps another label, a dot or the frame: each label tries
 * the spots around its dot (right, left, above, below, then further out) and takes the first free
 * one; a label set apart from its dot gets a thin leader line.
 */
function placeLabels(
  dots: Array<{ x: number; y: number; label: string }>,
  frame: Box,
): Array<{ x: number; y: number; anchor: "start" | "end" | "middle"; leader: boolean }> {
  const placed: Box[] = [];
  const dotBoxes = dots.map((d) => ({ x: d.x - 7, y: d.y - 7, w: 14, h: 14 }));
  const h = 12;
  return dots.map((d) => {
    const w = textWidth(d.label, LABEL_FONT);
    const spots: Array<{ dx: number; dy: number; anchor: "start" | "end" | "middle" }> = [
      { dx: 10, dy: 4, anchor: "start" },
      { dx: -10, dy: 4, anchor: "end" },
      { dx: 0, dy: -11, anchor: "middle" },
      { dx: 0, dy: 20, anchor: "middle" },
    ];
    for (const step of [16, 30, 44, 58, 72]) {
      spots.push(
        { dx: 10, dy: 4 - step, anchor: "start" },
        { dx: 10, dy: 4 + step, anchor: "start" },
        { dx: -10, dy: 4 - step, anchor: "end" },
        { dx: -10, dy: 4 + step, anchor: "end" },
      );
    }
    const boxOf = (s: (typeof spots)[number]): Box => {
      const left = s.anchor === "start" ? d.x + s.dx : s.anchor === "end" ? d.x + s.dx - w : d.x - w / 2;
      return { x: left, y: d.y + s.dy - h + 2, w, h };
    };
    const inside = (b: Box) => b.x >= frame.x && b.y >= frame.y && b.x + b.w <= frame.x + frame.w && b.y + b.h <= frame.y + frame.h;
    const clashes = (b: Box) => placed.filter((p) => overlaps(p, b)).length + dotBoxes.filter((p) => overlaps(p, b)).length;
    let best = spots[0]!;
    let bestClashes = Infinity;
    for (const spot of spots) {
      const box = boxOf(spot);
      if (!inside(box)) continue;
      const n = clashes(box);
      if (n < bestClashes) {
        best = spot;
        bestClashes = n;
      }
      if (n === 0) break;
    }
    placed.push(boxOf(best));
    return { x: d.x + best.dx, y: d.y + best.dy, anchor: best.anchor, leader: Math.abs(best.dy) > 20 };
  });
}

/** Point labels longer than this (user units), or more points than this, are numbered with a legend instead. */
const POINT_LABEL_MAX = 180;
const POINT_LABELS_MAX = 10;

/**
 * A legend under a chart: one entry per item, in as many columns as the longest entry allows.
 * An entry wider than the chart wraps onto more lines (at the key's own separators first, see
 * wrapLines) rather than being cut: the legend is where a numbered point's full key is read,
 * in print too, where hover titles are not.
 */
function numberedLegend(entries: Array<{ key: string; label: string }>, top: number): { svg: string; height: number } {
  const wrapped = entries.map((e) => wrapLines(`${e.key}  ${e.label}`, W - 4, LABEL_FONT));
  const columnW = Math.max(...wrapped.flat().map((t) => textWidth(t, LABEL_FONT))) + 16;
  const columns = wrapped.some((lines) => lines.length > 1) ? 1 : Math.max(1, Math.floor(W / columnW));
  const rows = Math.ceil(entries.length / columns);
  let svg = "";
  let lineCount = 0;
  wrapped.forEach((lines, i) => {
    const x = Math.floor(i / rows) * columnW;
    // Entries of one column stack; each starts below the lines of the entry above it.
    const firstLine = columns === 1 ? lineCount : i % rows;
    const tspans = lines.map((t, j) => `<tspan x="${x}" y="${top + 14 + (firstLine + j) * 15}">${escape(t)}</tspan>`).join("");
    svg += `<text class="label legend"><title>${escape(entries[i]!.label)}</title>${tspans}</text>`;
    lineCount += lines.length;
  });
  return { svg, height: (columns === 1 ? lineCount : rows) * 15 + 10 };
}

/**
 * A labelled scatter plot, e.g. quality against cost or latency. Both axes are fitted to the data
 * (within `yBounds`/`xBounds`) with round ticks, so close values stay apart, and no two labels overlap.
 * Many points, or a label too long to stand beside its point, are numbered 1, 2, … with a legend below.
 */
export function scatterChart(
  title: string,
  points: Point[],
  axes: { x: string; y: string; xBounds?: { min?: number; max?: number }; yBounds?: { min?: number; max?: number } },
): string {
  const plotHeight = 320;
  const left = 62;
  const top = 30;
  const bottom = plotHeight - 46;
  const plotW = W - left - 150;
  const plotH = bottom - top;
  const head = chartHead(title);
  if (points.length === 0) return `${head.open(40)}<text x="0" y="34" class="na">n/a (nothing measured)</text>${CLOSE}`;
  const numbered = points.length > POINT_LABELS_MAX || points.some((p) => textWidth(p.label, LABEL_FONT) > POINT_LABEL_MAX);
  const shown = (p: Point, i: number) => (numbered ? String(i + 1) : p.label);
  const xAxis = fitAxis(
    points.map((p) => p.x),
    axes.xBounds,
  );
  const yAxis = fitAxis(
    points.map((p) => p.y),
    axes.yBounds,
  );
  const sx = (x: number) => left + (plotW * (x - xAxis.lo)) / (xAxis.hi - xAxis.lo || 1);
  const sy = (y: number) => bottom - (plotH * (y - yAxis.lo)) / (yAxis.hi - yAxis.lo || 1);
  const tickText = (v: number, ticks: number[]) => {
    const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : 1;
    return v.toFixed(Math.max(0, Math.min(6, -Math.floor(Math.log10(step)))));
  };
  const xTicks = xAxis.ticks
    .map(
      (t) =>
        `<line x1="${sx(t).toFixed(1)}" y1="${bottom}" x2="${sx(t).toFixed(1)}" y2="${bottom + 4}" class="axis"/>` +
        `<text x="${sx(t).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" class="tick">${tickText(t, xAxis.ticks)}</text>`,
    )
    .join("");
  const yTicks = yAxis.ticks
    .map(
      (t) =>
        `<line x1="${left - 4}" y1="${sy(t).toFixed(1)}" x2="${left + plotW}" y2="${sy(t).toFixed(1)}" class="grid-line"/>` +
        `<text x="${left - 7}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end" class="tick">${tickText(t, yAxis.ticks)}</text>`,
    )
    .join("");
  const at = points.map((p, i) => ({ x: sx(p.x), y: sy(p.y), label: shown(p, i) }));
  const labels = placeLabels(at, { x: left + 2, y: top - 8, w: W - left - 4, h: bottom - top + 4 });
  const dots = points
    .map((p, i) => {
      const l = labels[i]!;
      const leader = l.leader
        ? `<line x1="${at[i]!.x.toFixed(1)}" y1="${at[i]!.y.toFixed(1)}" ` +
          `x2="${(l.x + (l.anchor === "end" ? 2 : -2)).toFixed(1)}" y2="${(l.y - 4).toFixed(1)}" class="leader"/>`
        : "";
      return (
        `${leader}<circle cx="${at[i]!.x.toFixed(1)}" cy="${at[i]!.y.toFixed(1)}" r="6" class="${p.highlight ? "dot best" : "dot"}">` +
        `<title>${escape(p.label)}: ${fmt(p.x, 4)}, ${fmt(p.y)}</title></circle>` +
        `<text x="${l.x.toFixed(1)}" y="${l.y.toFixed(1)}" text-anchor="${l.anchor}" class="label point-label">` +
        `<title>${escape(p.label)}</title>${escape(shown(p, i))}</text>`
      );
    })
    .join("");
  const key = numbered
    ? numberedLegend(
        points.map((p, i) => ({ key: String(i + 1), label: p.label })),
        plotHeight,
      )
    : { svg: "", height: 0 };
  return (
    `${head.open(plotHeight + key.height)}\n` +
    `${yTicks}<line x1="${left}" y1="${bottom}" x2="${left + plotW}" y2="${bottom}" class="axis"/>` +
    `<line x1="${left}" y1="${bottom}" x2="${left}" y2="${top}" class="axis"/>${xTicks}\n` +
    `<text x="${left + plotW / 2}" y="${plotHeight - 8}" text-anchor="middle" class="label">${escape(axes.x)}</text>\n` +
    `<text x="14" y="${top + plotH / 2}" transform="rotate(-90 14 ${top + plotH / 2})" text-anchor="middle" class="label">${escape(axes.y)}</text>` +
    `${dots}${key.svg}${CLOSE}`
  );
}

/** A histogram of chunk sizes in tokens. */
export function histogram(title: string, values: number[], bins = 12): string {
  if (values.length === 0) return barChart(title, []);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const width = Math.max(1, Math.ceil((max - min + 1) / bins));
  const counts = Array.from({ length: bins }, () => 0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
  const h = 160;
  const plotH = 110;
  const barW = (W - 40) / bins;
  const top = Math.max(...counts);
  const rects = counts
    .map(
      (c, i) =>
        `<rect x="${(20 + i * barW).toFixed(1)}" y="${(130 - (plotH * c) / top).toFixed(1)}" width="${(barW - 2).toFixed(1)}" ` +
        `height="${((plotH * c) / top).toFixed(1)}" class="bar"><title>${min + i * width}-${min + (i + 1) * width - 1} tokens: ${c}</title></rect>`,
    )
    .join("");
  return (
    `${chartHead(title).open(h)}${rects}` +
    `<text x="20" y="150" class="label">${min} tokens</text><text x="${W - 20}" y="150" text-anchor="end" class="label">${max} tokens</text>${CLOSE}`
  );
}

export interface Panel {
  title: string;
  yMax: number;
  /** One line per series; `points` line up with the x values, null where the variant has no value. */
  series: Array<{ label: string; points: Array<{ y: number | null; interval: [number, number] | null }> }>;
}

/**
 * Small multiples: one panel per metric, side by side, each a line per series over the same
 * x values (a swept parameter), with confidence whiskers. Series are told apart by dash
 * pattern and a legend, so the chart reads in print too.
 */
export function smallMultiples(title: string, panels: Panel[], xAxis: { x: string; values: string[] }): string {
  const cols = 2;
  const panelW = W / cols;
  const panelH = 190;
  const series = panels[0]?.series.map((s) => s.label) ?? [];
  const legendH = 16 * series.length + 8;
  const top = 26;
  const head = chartHead(title, "chart sweep");
  const h = top + Math.ceil(panels.length / cols) * panelH + legendH;
  const dashes = ["", "6 3", "2 3", "8 3 2 3", "1 2"];
  const dashAttribute = (k: number) => (dashes[k % dashes.length] ? ` stroke-dasharray="${dashes[k % dashes.length]}"` : "");
  const drawn = panels
    .map((panel, p) => {
      const ox = (p % cols) * panelW;
      const oy = top + Math.floor(p / cols) * panelH;
      const left = ox + 40;
      const right = ox + panelW - 14;
      const bottom = oy + panelH - 36;
      const plotTop = oy + 22;
      const n = xAxis.values.length;
      const sx = (i: number) => (n === 1 ? (left + right) / 2 : left + ((right - left) * i) / (n - 1));
      const sy = (y: number) => bottom - ((bottom - plotTop) * Math.max(0, Math.min(panel.yMax, y))) / panel.yMax;
      const ticks = xAxis.values
        .map((v, i) => `<text x="${sx(i).toFixed(1)}" y="${bottom + 14}" text-anchor="middle" class="label">${escape(shorten(v, 10))}</text>`)
        .join("");
      const lines = panel.series
        .map((s, k) => {
          const pts = s.points.map((pt, i) => (pt.y === null ? null : { x: sx(i), y: sy(pt.y), pt })).filter((v): v is NonNullable<typeof v> => v !== null);
          const path =
            pts.length > 1
              ? `<polyline points="${pts.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" ")}" ` +
                `fill="none" class="axis" stroke-width="1.5"${dashAttribute(k)}/>`
              : "";
          const marks = pts
            .map((q) => {
              const whisker = q.pt.interval
                ? `<line x1="${q.x.toFixed(1)}" x2="${q.x.toFixed(1)}" ` +
                  `y1="${sy(q.pt.interval[0]).toFixed(1)}" y2="${sy(q.pt.interval[1]).toFixed(1)}" class="whisker"/>`
                : "";
              const range = q.pt.interval ? ` [${fmt(q.pt.interval[0], 3)}, ${fmt(q.pt.interval[1], 3)}]` : "";
              return (
                `${whisker}<circle cx="${q.x.toFixed(1)}" cy="${q.y.toFixed(1)}" r="3.5" class="dot">` +
                `<title>${escape(s.label)}: ${fmt(q.pt.y!, 3)}${range}</title></circle>`
              );
            })
            .join("");
          return path + marks;
        })
        .join("");
      return (
        `<text x="${ox + 4}" y="${oy + 14}" class="label">${escape(panel.title)}</text>` +
        `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" class="axis"/>` +
        `<line x1="${left}" y1="${bottom}" x2="${left}" y2="${plotTop}" class="axis"/>` +
        `<text x="${left - 4}" y="${plotTop + 4}" text-anchor="end" class="label">${fmt(panel.yMax)}</text>` +
        `<text x="${left - 4}" y="${bottom}" text-anchor="end" class="label">0</text>${ticks}` +
        `<text x="${(left + right) / 2}" y="${bottom + 28}" text-anchor="middle" class="label">${escape(xAxis.x)}</text>${lines}`
      );
    })
    .join("");
  const legendTop = h - legendH + 10;
  const legend = series
    .map(
      (label, k) =>
        `<line x1="8" x2="40" y1="${legendTop + 16 * k}" y2="${legendTop + 16 * k}" class="axis" stroke-width="1.5"${dashAttribute(k)}/>` +
        `<text x="46" y="${legendTop + 16 * k + 4}" class="label"><title>${escape(label)}</title>` +
        `${escape(shortenToWidth(label, W - 50, LABEL_FONT))}</text>`,
    )
    .join("");
  return `${head.open(h)}${drawn}${legend}${CLOSE}`;
}
