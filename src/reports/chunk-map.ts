import type { QuestionResult } from "../domain/experiment.js";
import { pageLabel, type PageSpan } from "../domain/pages.js";

/** One document of a chunk map: its extracted text and each strategy's chunks of it. */
export interface ChunkMapDocument {
  /** In a collection, the document drawn (references and retrieved chunks of the others are left out of its map); absent for a single document. */
  document?: { id: string; filename: string };
  text: string;
  chunks: Record<string, Array<{ start: number; end: number; role: "chunk" | "parent" }>>;
  /** Where each page's blocks lie in the text (PDF documents; empty or absent otherwise), for page labels. */
  pages?: PageSpan[];
}

/** What the chunk map is drawn from: the experiment's document, or each document of its collection. */
export interface ChunkMapSource {
  documents: ChunkMapDocument[];
  /** Said above the map, e.g. that chunks were re-processed after the experiment. */
  note: string | null;
}

/** A run of text whose chunk coverage, reference marking and retrieving questions are the same. */
export interface MapSegment {
  text: string;
  /** Space-separated CSS classes: c0/c1 (alternating chunks), ov (overlap), gap, p0/p1 (parents), ref, q<N> (retrieved by question N). */
  classes: string;
  /** Chunk numbers (1-based, in document order) starting here, shown as boundary marks. */
  starts: number[];
  /** The pages of each of those chunks, "p. 3" or "pp. 3–4" (a PDF's; "" for formats without pages). */
  startPages: string[];
  /** Parent numbers starting here (parent-child strategies). */
  parentStarts: number[];
  /** Hover text: which chunks cover the run. */
  title: string;
}

export interface ChunkMapView {
  note: string | null;
  questionCount: number;
  documents: Array<{
    /** The document's file name in a collection; null for a single document. */
    filename: string | null;
    /** Set when only windows around the references are shown (a document over LONG_DOCUMENT_PAGES). */
    windowNote: string | null;
    strategies: Array<{ strategy: string; chunkCount: number; parentCount: number; pieces: Array<{ gap: number } | { segments: MapSegment[] }> }>;
  }>;
}

/** Characters per page for the page estimate, and the length from which only windows are shown. */
export const PAGE_CHARS = 3000;
export const LONG_DOCUMENT_PAGES = 200;
/** Characters shown on each side of a reference excerpt in a long document. */
export const WINDOW_CHARS = 1500;

interface Span {
  start: number;
  end: number;
}

function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The parts of the text shown: all of it, or windows around the references of a long document. */
function visibleWindows(text: string, references: Span[]): { windows: Span[]; note: string | null } {
  const pages = Math.ceil(text.length / PAGE_CHARS);
  if (pages <= LONG_DOCUMENT_PAGES || references.length === 0) return { windows: [{ start: 0, end: text.length }], note: null };
  const windows = mergeSpans(references.map((r) => ({ start: Math.max(0, r.start - WINDOW_CHARS), end: Math.min(text.length, r.end + WINDOW_CHARS) })));
  const shown = windows.reduce((n, w) => n + w.end - w.start, 0);
  return {
    windows,
    note:
      `The document is about ${pages} pages long (${PAGE_CHARS} characters a page), ` +
      `so the map shows only the text within ${WINDOW_CHARS} characters of a reference excerpt: ${shown} of ${text.length} characters.`,
  };
}

/** Cuts a window of the text at every chunk, reference and retrieval boundary, and classes each run. */
function segmentWindow(
  text: string,
  window: Span,
  chunks: Array<Span & { pages: string }>,
  parents: Span[],
  references: Span[],
  retrieved: Array<{ question: number; span: Span }>,
): MapSegment[] {
  const cuts = new Set([window.start, window.end]);
  for (const s of [...chunks, ...parents, ...references, ...retrieved.map((r) => r.span)]) {
    for (const at of [s.start, s.end]) if (at > window.start && at < window.end) cuts.add(at);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: MapSegment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const covering = chunks.flatMap((c, n) => (c.start <= a && c.end >= b ? [n] : []));
    const parent = parents.findIndex((p) => p.start <= a && p.end >= b);
    const classes = [covering.length === 0 ? "gap" : covering.length > 1 ? "ov" : `c${covering[0]! % 2}`];
    if (parent !== -1) classes.push(`p${parent % 2}`);
    if (references.some((r) => r.start <= a && r.end >= b)) classes.push("ref");
    for (const q of new Set(retrieved.filter((r) => r.span.start <= a && r.span.end >= b).map((r) => r.question))) classes.push(`q${q}`);
    segments.push({
      text: text.slice(a, b),
      classes: classes.join(" "),
      starts: chunks.flatMap((c, n) => (c.start === a ? [n + 1] : [])),
      startPages: chunks.flatMap((c) => (c.start === a ? [c.pages] : [])),
      parentStarts: parents.flatMap((p, n) => (p.start === a ? [n + 1] : [])),
      title: [
        covering.length ? `chunk ${covering.map((n) => n + 1 + (chunks[n]!.pages ? ` (${chunks[n]!.pages})` : "")).join(", ")}` : "in no chunk",
        parent !== -1 ? `parent ${parent + 1}` : "",
      ]
        .filter(Boolean)
        .join(", "),
    });
  }
  return segments;
}

/**
 * The chunk map of the technical report: per strategy, the document's text cut where chunks
 * begin and end (searched chunks alternate two backgrounds, overlaps get a third; a
 * parent-child strategy's parents are drawn as bands under their children), the questions'
 * reference excerpts marked, and each run tagged with the questions whose retrieved chunks
 * cover it (question numbers as in the drill-down, from 1).
 */
export function buildChunkMap(source: ChunkMapSource, strategies: string[], results: Record<string, QuestionResult[]>): ChunkMapView {
  const first = results[strategies[0]!] ?? [];
  return {
    note: source.note,
    questionCount: first.length,
    documents: source.documents.map((d) => {
      // In a collection, a document's map holds its own references and the chunks retrieved from it.
      const own = <T extends { documentId?: string }>(list: T[]) => (d.document ? list.filter((x) => x.documentId === d.document!.id) : list);
      const references = first.flatMap((r) => own(r.references).map((x) => ({ start: x.start, end: x.end })));
      const { windows, note } = visibleWindows(d.text, references);
      return {
        filename: d.document?.filename ?? null,
        windowNote: note,
        strategies: strategies.map((strategy) => {
          const all = [...(d.chunks[strategy] ?? [])].sort((a, b) => a.start - b.start || a.end - b.end);
          const chunks = all.filter((c) => c.role === "chunk").map((c) => ({ ...c, pages: pageLabel(d.pages ?? [], c.start, c.end) }));
          const parents = all.filter((c) => c.role === "parent");
          const retrieved = (results[strategy] ?? []).flatMap((r, i) =>
            own(r.retrieved).map((c) => ({ question: i + 1, span: { start: c.start, end: c.end } })),
          );
          const pieces: ChunkMapView["documents"][number]["strategies"][number]["pieces"] = [];
          let shownTo = 0;
          for (const w of windows) {
            if (w.start > shownTo) pieces.push({ gap: w.start - shownTo });
            pieces.push({ segments: segmentWindow(d.text, w, chunks, parents, references, retrieved) });
            shownTo = w.end;
          }
          if (shownTo < d.text.length) pieces.push({ gap: d.text.length - shownTo });
          return { strategy, chunkCount: chunks.length, parentCount: parents.length, pieces };
        }),
      };
    }),
  };
}
