import type { Span } from "./spans.js";
import { looseExcerptPattern } from "./typography.js";

/** How an excerpt was found: verbatim, ignoring white space and letter case, or approximately. */
export type ExcerptMatchMethod = "exact" | "normalised" | "fuzzy";

export interface ExcerptMatch extends Span {
  method: ExcerptMatchMethod;
  /** 1 for exact and normalised matches; the character-bigram Dice similarity of a fuzzy match. */
  similarity: number;
}

/** Candidate window starts examined by the fuzzy step: bounds its cost on long documents. */
const FUZZY_CANDIDATES = 24;
/** The most words a fuzzy candidate's start and end are moved either way to fit the excerpt. */
const MAX_SLACK_WORDS = 8;
/** Excerpts longer than this are not fuzzy-matched (a quote that long is either there or useless). */
const FUZZY_MAX_CHARS = 2000;

interface Word extends Span {
  key: string;
}

function words(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length, key: m[0].toLowerCase() }));
}

function bigrams(text: string): Map<string, number> {
  const flat = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  const grams = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i++) {
    const g = flat.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen-Dice coefficient over character bigrams: 1 for the same letters in the same order. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const n of a.values()) sizeA += n;
  for (const [g, n] of b) {
    sizeB += n;
    shared += Math.min(n, a.get(g) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}

/**
 * The best approximate occurrence of an excerpt among word-aligned windows of the text. Windows
 * are only scored at the few starts whose next n words share the most words with the excerpt
 * (a sliding count, linear in the text), so a 200-page document costs milliseconds.
 */
function fuzzyMatch(text: string, excerpt: string): ExcerptMatch | null {
  const target = words(excerpt);
  if (target.length === 0 || excerpt.length > FUZZY_MAX_CHARS) return null;
  const docWords = words(text);
  const n = target.length;
  if (docWords.length === 0) return null;
  const wanted = new Map<string, number>();
  for (const w of target) wanted.set(w.key, (wanted.get(w.key) ?? 0) + 1);
  // overlap[i] = how many of words i..i+n-1 occur in the excerpt (multiset count).
  const inWindow = new Map<string, number>();
  let shared = 0;
  const add = (key: string, delta: number) => {
    const want = wanted.get(key);
    if (want === undefined) return;
    const before = inWindow.get(key) ?? 0;
    const after = before + delta;
    inWindow.set(key, after);
    shared += Math.min(after, want) - Math.min(before, want);
  };
  const scores: Array<{ start: number; shared: number }> = [];
  for (let i = 0; i < docWords.length; i++) {
    add(docWords[i]!.key, 1);
    if (i >= n) add(docWords[i - n]!.key, -1);
    if (i >= n - 1 || i === docWords.length - 1) scores.push({ start: Math.max(0, i - n + 1), shared });
  }
  scores.sort((a, b) => b.shared - a.shared || a.start - b.start);
  const excerptGrams = bigrams(excerpt);
  // Each candidate is scored at its start and length give or take a fifth of the excerpt's words,
  // at most MAX_SLACK_WORDS: the square of that is the number of windows scored, so a 330-word
  // excerpt with a slack of 67 scored 18,000 windows a candidate (80 s for one chunk of a manual).
  const slack = Math.min(MAX_SLACK_WORDS, Math.max(1, Math.round(n * 0.2)));
  let best: ExcerptMatch | null = null;
  for (const candidate of scores.slice(0, FUZZY_CANDIDATES)) {
    if (candidate.shared === 0) break;
    for (let from = Math.max(0, candidate.start - slack); from <= candidate.start + slack && from < docWords.length; from++) {
      for (let length = Math.max(1, n - slack); length <= n + slack; length++) {
        const last = docWords[Math.min(docWords.length - 1, from + length - 1)]!;
        const span = { start: docWords[from]!.start, end: last.end };
        const similarity = dice(excerptGrams, bigrams(text.slice(span.start, span.end)));
        if (!best || similarity > best.similarity) best = { ...span, method: "fuzzy", similarity };
      }
    }
  }
  // Windows are word-aligned; keep the excerpt's closing punctuation when the text has it too.
  const closing = /[^\p{L}\p{N}\s]+$/u.exec(excerpt)?.[0];
  if (best && closing && text.startsWith(closing, best.end)) best.end += closing.length;
  return best;
}

/**
 * Locates an excerpt in a document's text: verbatim first, then ignoring differences of white
 * space, typography (quotes, dashes, ligatures) and letter case, then the most similar word-aligned passage (bounded fuzzy search).
 * Returns null only when nothing shares a word with the excerpt; callers judge `similarity`.
 */
export function matchExcerpt(text: string, excerpt: string): ExcerptMatch | null {
  const trimmed = excerpt.trim();
  if (!trimmed) return null;
  const exact = text.indexOf(trimmed);
  if (exact !== -1) return { start: exact, end: exact + trimmed.length, method: "exact", similarity: 1 };
  let loose: RegExpExecArray | null = null;
  try {
    loose = new RegExp(looseExcerptPattern(trimmed), "iu").exec(text);
  } catch {
    // "Regular expression too large" (V8 says so at the first run): an excerpt of hundreds of
    // thousands of characters is looked for by the bounded fuzzy search only.
  }
  if (loose) return { start: loose.index, end: loose.index + loose[0].length, method: "normalised", similarity: 1 };
  return fuzzyMatch(text, trimmed);
}
