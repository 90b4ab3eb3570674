/**
 * Inline SVG charts for the self-contained HTML reports: no script, no network, printable.
 * Every chart has a <title> for screen readers and the class "chart" that tests look for.
 */

const W = 640;
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const shorten = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const fmt = (v: number, digits = 2) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(digits));

export interface Bar {
  label: string;
  value: number | null;
  /** Optional confidence interval drawn as a whisker from its low to its high end. */
  interval?: [number, number] | null;
  /** Why the value is missing, written in place of the bar. */
  missing?: string;
  highlight?: boolean;
}

/** Horizontal bars; a missing value is written "n/a" instead of being drawn as zero. */
export function barChart(title: string, bars: Bar[], options: { max?: number; unit?: string } = {}): string {
  const rowH = 28;
  const labelW = 170;
  const plotW = W - labelW - 70;
  const max = options.max ?? Math.max(1e-9, ...bars.map((b) => Math.max(b.value ?? 0, b.interval?.[1] ?? 0)));
  const h = bars.length * rowH + 34;
  const rows = bars
    .map((b, i) => {
      const y = 26 + i * rowH;
      const label = `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end" class="label">${escape(b.label)}</text>`;
      if (b.value === null) return `${label}<text x="${labelW + 4}" y="${y + 15}" class="na">n/a — ${escape(shorten(b.missing ?? "not measured", 64))}</text>`;
      const width = Math.max(1, (plotW * Math.max(0, b.value)) / max);
      const whisker =
        b.interval
          ? `<line x1="${labelW + (plotW * Math.max(0, b.interval[0])) / max}" x2="${labelW + (plotW * Math.min(max, b.interval[1])) / max}" y1="${y + 10}" y2="${y + 10}" class="whisker"/>`
          : "";
      // The value is written past the bar and its whisker, so the two never cross.
      const valueX = labelW + Math.max(width, b.interval ? (plotW * Math.min(max, b.interval[1])) / max : 0) + 6;
      return `${label}<rect x="${labelW}" y="${y}" width="${width.toFixed(1)}" height="20" class="${b.highlight ? "bar best" : "bar"}"/>${whisker}<text x="${valueX.toFixed(1)}" y="${y + 15}" class="value">${fmt(b.value)}${options.unit ?? ""}</text>`;
    })
    .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${escape(title)}"><title>${escape(title)}</title><text x="0" y="16" class="title">${escape(title)}</text>${rows}</svg>`;
}

export interface Point {
  label: string;
  x: number;
  y: number;
  highlight?: boolean;
}

/** A labelled scatter plot, e.g. quality against cost or latency. */
export function scatterChart(title: string, points: Point[], axes: { x: string; y: string; yMax?: number }): string {
  const h = 300;
  const left = 56;
  const bottom = h - 40;
  const plotW = W - left - 120;
  const plotH = bottom - 36;
  const xMax = Math.max(1e-9, ...points.map((p) => p.x)) * 1.1;
  const yMax = axes.yMax ?? Math.max(1e-9, ...points.map((p) => p.y)) * 1.1;
  const sx = (x: number) => left + (plotW * x) / xMax;
  const sy = (y: number) => bottom - (plotH * y) / yMax;
  const dots = points
    .map((p) => `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="6" class="${p.highlight ? "dot best" : "dot"}"/><text x="${(sx(p.x) + 9).toFixed(1)}" y="${(sy(p.y) + 4).toFixed(1)}" class="label">${escape(p.label)}</text>`)
    .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${escape(title)}"><title>${escape(title)}</title><text x="0" y="16" class="title">${escape(title)}</text>
<line x1="${left}" y1="${bottom}" x2="${left + plotW}" y2="${bottom}" class="axis"/><line x1="${left}" y1="${bottom}" x2="${left}" y2="${bottom - plotH}" class="axis"/>
<text x="${left + plotW / 2}" y="${h - 8}" text-anchor="middle" class="label">${escape(axes.x)} (max ${fmt(xMax / 1.1, 4)})</text>
<text x="12" y="${bottom - plotH / 2}" transform="rotate(-90 12 ${bottom - plotH / 2})" text-anchor="middle" class="label">${escape(axes.y)}</text>${dots}</svg>`;
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
    .map((c, i) => `<rect x="${(20 + i * barW).toFixed(1)}" y="${(130 - (plotH * c) / top).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${((plotH * c) / top).toFixed(1)}" class="bar"><title>${min + i * width}-${min + (i + 1) * width - 1} tokens: ${c}</title></rect>`)
    .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${escape(title)}"><title>${escape(title)}</title><text x="0" y="14" class="title">${escape(title)}</text>${rects}<text x="20" y="150" class="label">${min} tokens</text><text x="${W - 20}" y="150" text-anchor="end" class="label">${max} tokens</text></svg>`;
}
