// A complete chunkeval strategy module: windows of N sentences, optionally overlapping.
//
//   chunkeval bench handbook.docx --questions q.json \
//     --strategy-module examples/strategy-module/sentence-window.mjs \
//     --strategies recursive,sentence_window,sentence_window@sentences=8:overlap=2
//
// A module is plain JavaScript (ES module; no build step) and imports nothing from chunkeval.
// With TypeScript checking (`// @ts-check` in an editor, or a .ts source you compile), the
// interface is `import type { StrategyModule } from "chunkeval"`.

// @ts-check

/** @type {import("chunkeval").StrategyModule<"sentences" | "overlap">} */
const strategy = {
  // The name used on the command line, in variants (`sentence_window@sentences=8`) and in reports:
  // lowercase letters, digits and _, starting with a letter, and not a built-in strategy's name.
  name: "sentence_window",
  description: "Windows of `sentences` consecutive sentences, neighbours sharing `overlap` sentences.",

  // Every parameter is a number with a default; chunkeval lists them in `chunkeval strategies`
  // and GET /strategies, accepts them in variants and sweeps (`--sweep sentence_window:sentences=3,5,8`)
  // and in the config file (`strategies: {sentence_window: {sentences: 6}}`), and rejects unknown ones.
  parameters: [
    { name: "sentences", description: "sentences per chunk", default: 5 },
    { name: "overlap", description: "sentences a chunk shares with the one before it", default: 1 },
  ],

  // Optional: refuse bad values before any document is chunked. What it throws becomes a usage
  // error (exit 2, HTTP 422) naming the strategy, e.g. for `sentence_window@sentences=0`.
  validate({ sentences, overlap }) {
    if (!Number.isInteger(sentences) || sentences < 1) throw new Error("sentences must be a whole number >= 1");
    if (!Number.isInteger(overlap) || overlap < 0 || overlap >= sentences) throw new Error("overlap must be a whole number with 0 <= overlap < sentences");
  },

  // Called once per document, in a worker thread, with the extracted text, its blocks (headings,
  // paragraphs, list items, table rows with offsets into `text`), the title, the format and the
  // options in effect. It may be async. It returns chunks in reading order, each either
  //   - a span {start, end} of `text` (end exclusive; whole numbers, 0 <= start < end <= text.length), or
  //   - a string, which chunkeval finds in `text` (see README "Your own chunker" for how).
  // chunkeval counts the tokens of every chunk itself; a chunk's text is always text.slice(start, end).
  chunk({ text, blocks, options }) {
    const sentences = [];
    // Sentences never cross a block: a heading or a table row is a sentence of its own.
    for (const block of blocks) {
      const pattern = /[^.!?]+(?:[.!?]+["')\]]*|$)/g;
      for (const match of text.slice(block.start, block.end).matchAll(pattern)) {
        const lead = match[0].length - match[0].trimStart().length;
        const start = block.start + match.index + lead;
        const end = block.start + match.index + match[0].trimEnd().length;
        if (end > start) sentences.push({ start, end });
      }
    }
    // A document without blocks (plain text handed to the library) is one run of sentences.
    if (sentences.length === 0 && text.trim() !== "") sentences.push({ start: text.length - text.trimStart().length, end: text.trimEnd().length });

    const chunks = [];
    const step = options.sentences - options.overlap;
    for (let first = 0; first < sentences.length; first += step) {
      const last = Math.min(first + options.sentences, sentences.length) - 1;
      chunks.push({ start: sentences[first].start, end: sentences[last].end });
      if (last === sentences.length - 1) break;
    }
    return chunks;
  },
};

export default strategy;
