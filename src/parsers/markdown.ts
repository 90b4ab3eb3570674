import type { Token, Tokens } from "marked";
import { lazyRequire } from "../lazy-require.js";
import { DocumentLimitError } from "../errors.js";
import { conciseReason, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import { htmlBlocks } from "./html.js";
import type { ParseLimits } from "./limits.js";

const markedLibrary = lazyRequire<typeof import("marked")>("marked");
import { decodeUtf8, extensionOf, isUtf8Text, singleSpacedSource } from "./text-family.js";
import { collapseWhitespace, SingleLineDraft } from "./whitespace.js";

const MARKDOWN_EXTENSIONS = [".md", ".markdown"];
/**
 * Longest inline run (a paragraph, heading, cell) given to marked's inline lexer with emphasis:
 * its emphasis matching is quadratic in the run (64 KB of "*a" took 0.5 s, 1 MB minutes), so a
 * longer run loses its emphasis markers (* ~ and word-edge _) first and is lexed without them.
 */
const MAX_EMPHASIS_RUN = 4096;

type HtmlLimits = Pick<ParseLimits, "maxHtmlElements" | "maxHtmlDepth">;

/** What the walk over the tokens needs besides them. */
interface Walk {
  filename: string;
  /** For the HTML reader (inline markup, HTML blocks). */
  limits: HtmlLimits;
  /** Whether marked read a single-spaced source without tabs, unchanged: see {@link inlineDraft}. */
  singleSpaced: boolean;
}

// includes() is a native character search; a regex replace scans as much to replace nothing.
const escapeText = (text: string) => (text.includes("<") ? text.replace(/</g, "&lt;") : text);
const escapeAll = (text: string) => (text.includes("&") || text.includes("<") ? text.replace(/&/g, "&amp;").replace(/</g, "&lt;") : text);

/**
 * Inline tokens as HTML whose text is the plain text: marked keeps entities (`&amp;`) and inline
 * tags in its tokens, so the markup is rebuilt and read back with the HTML reader, which decodes
 * entities and drops tags. Link and image text is kept, URLs are not; code spans are literal.
 */
function inlineHtml(tokens: Token[] | undefined): string {
  let out = "";
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "text":
      case "escape":
        out += "tokens" in t && t.tokens?.length ? inlineHtml(t.tokens) : t.type === "escape" ? escapeAll(t.text) : escapeText(t.text);
        break;
      case "codespan":
        out += escapeAll(t.text);
        break;
      case "html":
        out += t.text;
        break;
      case "br":
        out += " ";
        break;
      default:
        if ("tokens" in t && t.tokens) out += inlineHtml(t.tokens);
        else if ("text" in t && typeof t.text === "string" && t.type !== "space") out += escapeText(t.text);
    }
  }
  return out;
}

function plainText(tokens: Token[] | undefined, walk: Walk): string {
  const html = inlineHtml(tokens);
  if (!html.includes("<") && !html.includes("&")) return html;
  return htmlBlocks(`<p>${html}</p>`, walk.filename, walk.limits)
    .map((b) => b.text)
    .join(" ");
}

/**
 * A block of inline tokens, as a {@link SingleLineDraft} when it is known to be a single line
 * already, so that assembleDocument skips the two white-space scans of its text (most of a
 * Markdown file's text is such blocks: a heading, a paragraph or a list item of plain words).
 * That is known without a scan when the source is single-spaced and without tabs (see
 * singleSpacedSource) and the block is one text token whose text is its markup (no character
 * reference decoded, no "<" or "&" for the HTML reader): the token is then a piece of a block's
 * text, which marked cuts from the source's lines, changing only their starts (quote markers,
 * list indentation), so it holds no white space but single spaces and line feeds. Without a line
 * feed, and without a space at either end, it is a single line.
 */
function inlineDraft(kind: BlockDraft["kind"], level: number, tokens: Token[] | undefined, walk: Walk): BlockDraft {
  const text = plainText(tokens, walk);
  const only = tokens?.length === 1 ? tokens[0]! : undefined;
  const sourceSlice =
    walk.singleSpaced &&
    only?.type === "text" &&
    !(only as Tokens.Text).tokens?.length &&
    only.text === only.raw &&
    !only.text.includes("<") &&
    !only.text.includes("&") &&
    text === only.text; // as plainText returns it without markup
  return sourceSlice && text.length > 0 && text.charCodeAt(0) !== 0x20 && text.charCodeAt(text.length - 1) !== 0x20 && !text.includes("\n")
    ? new SingleLineDraft(kind, level, text)
    : { kind, level, text };
}

/** Blocks of a token list (the document, a blockquote, a list item's content). */
function tokenBlocks(tokens: Token[], listLevel: number, out: BlockDraft[], walk: Walk): void {
  for (const token of tokens) {
    switch (token.type) {
      case "heading":
        out.push(inlineDraft("heading", Math.min(6, Math.max(1, (token as Tokens.Heading).depth)), token.tokens, walk));
        break;
      case "paragraph":
        out.push(inlineDraft("paragraph", 0, token.tokens, walk));
        break;
      case "text": // a list item's own text (tight lists)
        out.push(inlineDraft(listLevel > 0 ? "list_item" : "paragraph", listLevel, token.tokens ?? [token], walk));
        break;
      case "code":
        out.push({ kind: "paragraph", level: 0, text: (token as Tokens.Code).text });
        break;
      case "blockquote":
        tokenBlocks((token as Tokens.Blockquote).tokens, listLevel, out, walk);
        break;
      case "list": {
        const list = token as Tokens.List;
        for (const item of list.items) listItemBlocks(item, listLevel + 1, out, walk, list.ordered ? orderedMarker(item) : null);
        break;
      }
      case "table": {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          const cells = row.map((c) => collapseWhitespace(plainText(c.tokens, walk))).filter((c) => c.length > 0);
          if (cells.length > 0) out.push(new SingleLineDraft("table_row", 0, cells.join(" | "))); // collapsed cells
        }
        break;
      }
      case "html":
        out.push(...htmlBlocks((token as Tokens.HTML).text, walk.filename, walk.limits));
        break;
      default: // space, hr, def (link definitions): no text
        break;
    }
  }
}

/**
 * An ordered list item's marker as the source writes it ("3." or "3)"): its number is part of the
 * text a reader sees and cites ("step 3"), whatever the list starts at.
 */
function orderedMarker(item: Tokens.ListItem): string | null {
  return /^[ \t]*(\d{1,9}[.)])/.exec(item.raw)?.[1] ?? null;
}

/**
 * A list item: its own text as a list_item at its depth (after its marker when the list is
 * ordered), then what it holds (nested lists one deeper).
 */
function listItemBlocks(item: Tokens.ListItem, level: number, out: BlockDraft[], walk: Walk, marker: string | null): void {
  let own: BlockDraft = { kind: "list_item", level, text: "" };
  const rest: Token[] = [];
  for (const t of item.tokens) {
    // The item's first text or paragraph is its own text; what follows (nested lists, more paragraphs) comes after it.
    if (!own.text && rest.length === 0 && (t.type === "text" || t.type === "paragraph")) own = inlineDraft("list_item", level, t.tokens ?? [t], walk);
    else if (t.type !== "checkbox") rest.push(t);
  }
  if (marker !== null) {
    // The marker holds no white space: prefixed with one space, a single-line text stays one.
    const text = own.text ? `${marker} ${own.text}` : marker;
    own = own instanceof SingleLineDraft ? new SingleLineDraft("list_item", level, text) : { kind: "list_item", level, text };
  }
  out.push(own);
  tokenBlocks(rest, level, out, walk);
}

/**
 * Checks, before marked reads the text, what its lexer cannot bound: quote and list nesting (it
 * recurses per level, and a list nested 2,000 deep exhausted a 512 MB heap) against
 * `max_html_depth`, and table cells ("|") against `max_html_elements` (100,000 columns over 20
 * rows did too). A refusal names the setting.
 */
function checkMarkdownShape(text: string, filename: string, limits: HtmlLimits): void {
  let pipes = 0;
  for (let at = text.indexOf("|"); at !== -1; at = text.indexOf("|", at + 1)) {
    if (++pipes > limits.maxHtmlElements) {
      throw new DocumentLimitError(`${filename}: the Markdown has more than max_html_elements (${limits.maxHtmlElements}) table cells`);
    }
  }
  // A line's depth is its quotes (">") plus, for a list item, one level per two columns of indent
  // (a tab is four) and one: at most twice its prefix of spaces, tabs and ">" plus one. Only a
  // line whose prefix is at least half the limit long can exceed it, so only lines that start
  // with one of those characters are looked at, and only long prefixes are measured.
  const deep = new RegExp(`^([ \t>]{${Math.floor(limits.maxHtmlDepth / 2)},})(?:([-*+]|\d{1,9}[.)])[ \t])?`, "my");
  const checkLine = (at: number) => {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x3e) return;
    deep.lastIndex = at;
    const m = deep.exec(text);
    if (m && depthOf(m[1]!, m[2] !== undefined) > limits.maxHtmlDepth) {
      throw new DocumentLimitError(`${filename}: the Markdown nests quotes or lists deeper than max_html_depth (${limits.maxHtmlDepth})`);
    }
  };
  checkLine(0);
  // Lines start after a line feed (decoding left no carriage return) and, as a multiline ^ sees them, after U+2028 and U+2029.
  for (const separator of LINE_SEPARATORS) {
    for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + 1)) checkLine(at + 1);
  }
}
const LINE_SEPARATORS = ["\n", "\u2028", "\u2029"];

/** The nesting depth of a line whose prefix of spaces, tabs and ">" is `prefix`, followed or not by a list marker. */
function depthOf(prefix: string, listItem: boolean): number {
  const quotes = prefix.split(">").length - 1;
  const indent = prefix.slice(prefix.lastIndexOf(">") + 1).replace(/\t/g, "    ").length;
  return quotes + (listItem ? Math.floor(indent / 2) + 1 : 0);
}

/**
 * The text without a leading YAML front matter block ("---" lines around metadata, as static
 * site generators write): marked would read its closing "---" as a setext underline and make
 * the metadata a heading.
 */
function withoutFrontMatter(text: string): string {
  const m = /^---[ \t]*\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  return m && m[0].length <= 64 * 1024 ? text.slice(m[0].length) : text;
}

/**
 * marked's lexing (block tokens, then each inline run), with runs past MAX_EMPHASIS_RUN lexed
 * without emphasis; `edited` when there was such a run (its tokens are not pieces of the source).
 */
function lexMarkdown(text: string): { tokens: Token[]; edited: boolean } {
  const { Lexer } = markedLibrary();
  const lexer = new Lexer({ gfm: true });
  const tokens = lexer.blockTokens(text, lexer.tokens);
  let edited = false;
  for (const run of lexer.inlineQueue) {
    lexer.state.inRawBlock = false;
    const long = run.src.length > MAX_EMPHASIS_RUN;
    edited ||= long;
    lexer.inlineTokens(long ? run.src.replace(/[*~]+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])/g, "") : run.src, run.tokens);
  }
  lexer.inlineQueue = [];
  return { tokens, edited };
}

/** Markdown (.md, .markdown): UTF-8 text whose name says it is Markdown, read with marked's lexer. */
export const markdownFormat: DocumentFormat = {
  name: "md",
  extension: ".md",
  extensions: [".markdown"],
  // Bytes cannot tell Markdown from plain text: within valid UTF-8 text, the name decides.
  detect: (bytes, filename) => MARKDOWN_EXTENSIONS.includes(extensionOf(filename)) && isUtf8Text(bytes),
  async parse(bytes, filename, limits) {
    const text = withoutFrontMatter(decodeUtf8(bytes));
    checkMarkdownShape(text, filename, limits);
    let lexed: ReturnType<typeof lexMarkdown>;
    try {
      lexed = lexMarkdown(text);
    } catch (error) {
      // marked recurses per nesting level: a hostile nesting of quotes or lists can exhaust the stack.
      unusable(filename, `the Markdown cannot be read (${conciseReason(error)})`, error);
    }
    const blocks: BlockDraft[] = [];
    try {
      // A tab is the one white space besides single spaces and line feeds that marked turns into others (spaces, to the next tab stop).
      const singleSpaced = !lexed.edited && singleSpacedSource(bytes) && bytes.indexOf(0x09) === -1;
      tokenBlocks(lexed.tokens, 0, blocks, { filename, limits, singleSpaced });
    } catch (error) {
      if (error instanceof DocumentLimitError) throw error;
      unusable(filename, `the Markdown cannot be read (${conciseReason(error)})`, error);
    }
    return blocks;
  },
};
