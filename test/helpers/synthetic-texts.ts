/**
 * Deterministic synthetic texts that stress chunkers where real documents rarely go: long
 * unbroken "words" of several kinds, repeated text, odd white space, non-Latin scripts and
 * punctuation runs. Seeded, so every run (and every machine) builds the same strings.
 */
export function random(seed: number): () => number {
  // mulberry32: tiny, fast and good enough for test data.
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the member share costs one hundred euros refundable at original price cooperative board meets every " +
  "quarter solar panels installed on roofs wind turbine maintenance contract tariff kilowatt hour grid " +
  "it's don't we'll they've O'Brien café naïve Zürich 東京 電力 😀 e.g. i.e. Dr. No. 3.14 1,000,000 " +
  "https://example.org/a/b?c=d&e=f user@example.com (brackets) [square] {curly} \"quoted\" 'single' -- — … ; : !? "
).split(" ");

/** Letters, digits and URL punctuation, as in a long token, key or encoded blob. */
export function longWord(length: number, kind: "letters" | "same" | "base64" | "url", seed = 1): string {
  const next = random(seed);
  const alphabet =
    kind === "letters"
      ? "abcdefghijklmnopqrstuvwxyz"
      : kind === "same"
        ? "a"
        : kind === "base64"
          ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
          : "abcdefghij0123456789/-_.=?&%";
  let out = kind === "url" ? "https://" : "";
  while (out.length < length) out += alphabet[Math.floor(next() * alphabet.length)];
  return out.slice(0, length);
}

/** Prose of about `length` characters: sentences, lines and paragraphs with varied white space. */
export function prose(length: number, seed = 2): string {
  const next = random(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  let out = "";
  while (out.length < length) {
    const words = Array.from({ length: 3 + Math.floor(next() * 18) }, () => pick(WORDS));
    out += words.join(next() < 0.05 ? "  " : " ") + pick([". ", ". ", "! ", "? ", ".\n", ".\n\n", ".\r\n", ".\t", ".\n \n", ":\n- "]);
  }
  return out;
}

/** Named texts for pinning chunker output; each stays small enough for the old chunker. */
export function syntheticTexts(): Record<string, string> {
  const p = (n: number, seed: number) => prose(n, seed);
  return {
    prose: p(30_000, 3),
    "long words in prose": [
      p(2000, 4),
      longWord(3000, "letters"),
      p(1500, 5),
      longWord(2500, "same"),
      p(800, 6),
      longWord(2000, "base64"),
      p(500, 7),
      longWord(1500, "url"),
      p(300, 8),
    ].join(" "),
    "single long word": longWord(4000, "letters", 9),
    "repeated paragraph": (p(700, 10) + "\n\n").repeat(25),
    "repeated sentence without breaks": "The tariff is reviewed every quarter by the board.".repeat(120),
    "punctuation run": "-=".repeat(600) + " " + "...!!!???".repeat(100) + "\n" + "|".repeat(900),
    "odd white space": [
      "  lead",
      "\t\ttabs\tinside",
      "\n\n\n\nmany breaks",
      "   \n   \n",
      "trailing   ",
      "\r\n\r\nwindows",
      " \u00a0non-breaking\u2003em space",
      "\n",
    ]
      .join("")
      .repeat(40),
    "no white space at all": p(6000, 11).replace(/\s+/g, ""),
  };
}
