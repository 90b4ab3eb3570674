/**
 * Typographic variants of the same text: a hand-typed excerpt has straight quotes, hyphens,
 * "..." and "fi" where the document has curly quotes, dashes, "…" and the "ﬁ" ligature, and
 * plain spaces where it has non-breaking ones. Offsets must stay those of the document, so the
 * excerpt is turned into a pattern that accepts every variant rather than both texts folded.
 */

const SINGLE_QUOTES = "'‘’‚‛′ʼ`´";
const DOUBLE_QUOTES = '"“”„‟″«»';
const DASHES = "-‐‑‒–—―−";
const LIGATURES: Record<string, string> = { ﬀ: "ff", ﬁ: "fi", ﬂ: "fl", ﬃ: "ffi", ﬄ: "ffl" };
// Longest first, so "ffi" is read as one ligature rather than "ff" then "i".
const LIGATURE_LETTERS = Object.entries(LIGATURES).sort(([, a], [, b]) => b.length - a.length);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const anyOf = (chars: string) => `[${[...chars].map((c) => (c === "-" ? "\\-" : c)).join("")}]`;

/**
 * A regular expression source (for the `u` flag) matching the excerpt up to white space (any
 * run, non-breaking spaces included) and typographic variants: straight or curly quotes and
 * apostrophes, hyphens and dashes (a run of them, so "--" meets "—"), "..." or "…", and the
 * ff, fi, fl, ffi and ffl ligatures. Letters, digits and the order of everything stay as written.
 */
export function looseExcerptPattern(excerpt: string): string {
  const text = [...excerpt.trim()].map((c) => LIGATURES[c] ?? c).join("");
  let out = "";
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    const run = (chars: string) => {
      let j = i;
      while (j < text.length && chars.includes(text[j]!)) j++;
      return j;
    };
    if (/\s/u.test(c)) {
      i = run(" \t\n\r\f\v\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000");
      out += "\\s+";
    } else if (DASHES.includes(c)) {
      i = run(DASHES);
      out += `${anyOf(DASHES)}+`;
    } else if (SINGLE_QUOTES.includes(c)) {
      out += anyOf(SINGLE_QUOTES);
      i++;
    } else if (DOUBLE_QUOTES.includes(c)) {
      out += anyOf(DOUBLE_QUOTES);
      i++;
    } else if (text.startsWith("...", i) || c === "…") {
      out += "(?:…|\\.\\.\\.)";
      i += c === "…" ? 1 : 3;
    } else {
      const ligature = LIGATURE_LETTERS.find(([, letters]) => text.startsWith(letters, i));
      if (ligature) {
        // Every ligature these letters could be written with (e.g. "ffi": ffi, ﬃ, or ﬀ then i).
        const [form, letters] = ligature;
        const forms = [
          letters,
          form,
          ...LIGATURE_LETTERS.filter(([, l]) => letters.startsWith(l) && l !== letters).map(([f, l]) => f + letters.slice(l.length)),
        ];
        out += `(?:${forms.join("|")})`;
        i += letters.length;
      } else {
        out += escapeRegExp(c);
        i++;
      }
    }
  }
  return out;
}
