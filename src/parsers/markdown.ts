import { Lexer, type Token, type Tokens } from "marked";
import { DocumentLimitError } from "../errors.js";
import { conciseReason, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import { htmlBlocks } from "./html.js";
import type { ParseLimits } from "./limits.js";
import { decodeUtf8, extensionOf, isUtf8Text } from "./text-family.js";
import { collapseWhitespace, SingleLineDraft } from "./whitespace.js";

const MARKDOWN_EXTENSIONS = [".md", ".markdown"];
/**
 * Longest inline run (a paragraph, heading, cell) given to marked's inline lexer with emphasis:
 * its emphasis matching is quadratic in the run (64 KB of "*a" took 0.5 s, 1 MB minutes), so a
 * longer run loses its emphasis markers (* ~ and word-edge _) first and is lexed without them.
 */
const MAX_EMPHASIS_RUN = 4096;

type HtmlLimits = Pick<ParseLimits, "maxHtmlElements" | "maxHtmlDepth">;

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

function plainText(tokens: Token[] | undefined, filename: string, limits: HtmlLimits): string {
  const html = inlineHtml(tokens);
  if (!html.includes("<") && !html.includes("&")) return html;
  return htmlBlocks(`<p>${html}</p>`, filename, limits)
    .map((b) => b.text)
    .join(" ");
}

/** Blocks of a token list (the document, a blockquote, a list item's content). */
function tokenBlocks(tokens: Token[], listLevel: number, out: BlockDraft[], filename: string, limits: HtmlLimits): void {
  for (const token of tokens) {
    switch (token.type) {
      case "heading":
        out.push({ kind: "heading", level: Math.min(6, Math.max(1, (token as Tokens.Heading).depth)), text: plainText(token.tokens, filename, limits) });
        break;
      case "paragraph":
        out.push({ kind: "paragraph", level: 0, text: plainText(token.tokens, filename, limits) });
        break;
      case "text": // a list item's own text (tight lists)
        out.push({ kind: listLevel > 0 ? "list_item" : "paragraph", level: listLevel, text: plainText(token.tokens ?? [token], filename, limits) });
        break;
      case "code":
        out.push({ kind: "paragraph", level: 0, text: (token as Tokens.Code).text });
        break;
      case "blockquote":
        tokenBlocks((token as Tokens.Blockquote).tokens, listLevel, out, filename, limits);
        break;
      case "list":
        for (const item of (token as Tokens.List).items) listItemBlocks(item, listLevel + 1, out, filename, limits);
        break;
      case "table": {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          const cells = row.map((c) => collapseWhitespace(plainText(c.tokens, filename, limits))).filter((c) => c.length > 0);
          if (cells.length > 0) out.push(new SingleLineDraft("table_row", 0, cells.join(" | "))); // collapsed cells
        }
        break;
      }
      case "html":
        out.push(...htmlBlocks((token as Tokens.HTML).text, filename, limits));
        break;
      default: // space, hr, def (link definitions): no text
        break;
    }
  }
}

/** A list item: its own text as a list_item at its depth, then what it holds (nested lists one deeper). */
function listItemBlocks(item: Tokens.ListItem, level: number, out: BlockDraft[], filename: string, limits: HtmlLimits): void {
  const own: BlockDraft = { kind: "list_item", level, text: "" };
  out.push(own);
  const rest: Token[] = [];
  for (const t of item.tokens) {
    // The item's first text or paragraph is its own text; what follows (nested lists, more paragraphs) comes after it.
    if (!own.text && rest.length === 0 && (t.type === "text" || t.type === "paragraph")) own.text = plainText(t.tokens ?? [t], filename, limits);
    else if (t.type !== "checkbox") rest.push(t);
  }
  tokenBlocks(rest, level, out, filename, limits);
}

/**
 * Checks, before marked reads the text, what its lexer cannot bound: quote and list nesting (it
 * recurses per level, and a list nested 2,000 deep exhausted a 512 MB heap) against
 * `max_html_depth`, and table cells ("|") against `max_html_elements` (100,000 columns over 20
 * rows did too). Both are counted per line in one pass; a refusal names the setting.
 */
function checkMarkdownShape(text: string, filename: string, limits: HtmlLimits): void {
  let pipes = 0;
  for (let at = text.indexOf("|"); at !== -1; at = text.indexOf("|", at + 1)) {
    if (++pipes > limits.maxHtmlElements) {
      throw new DocumentLimitError(`${filename}: the Markdown has more than max_html_elements (${limits.maxHtmlElements}) table cells`);
    }
  }
  const nesting = /^([ \t>]*)(?:([-*+]|\d{1,9}[.)])[ \t])?/gm;
  let m: RegExpExecArray | null;
  while ((m = nesting.exec(text)) !== null) {
    const prefix = m[1]!;
    const quotes = prefix.split(">").length - 1;
    const indent = prefix.slice(prefix.lastIndexOf(">") + 1).replace(/\t/g, "    ").length;
    const depth = quotes + (m[2] ? Math.floor(indent / 2) + 1 : 0);
    if (depth > limits.maxHtmlDepth) {
      throw new DocumentLimitError(`${filename}: the Markdown nests quotes or lists deeper than max_html_depth (${limits.maxHtmlDepth})`);
    }
    if (m[0].length === 0) nesting.lastIndex++;
  }
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

/** marked's lexing (block tokens, then each inline run), with runs past MAX_EMPHASIS_RUN lexed without emphasis. */
function lexMarkdown(text: string): Token[] {
  const lexer = new Lexer({ gfm: true });
  const tokens = lexer.blockTokens(text, lexer.tokens);
  for (const run of lexer.inlineQueue) {
    lexer.state.inRawBlock = false;
    const src = run.src.length > MAX_EMPHASIS_RUN ? run.src.replace(/[*~]+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])/g, "") : run.src;
    lexer.inlineTokens(src, run.tokens);
  }
  lexer.inlineQueue = [];
  return tokens;
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
    let tokens: Token[];
    try {
      tokens = lexMarkdown(text);
    } catch (error) {
      // marked recurses per nesting level: a hostile nesting of quotes or lists can exhaust the stack.
      unusable(filename, `the Markdown cannot be read (${conciseReason(error)})`, error);
    }
    const blocks: BlockDraft[] = [];
    try {
      tokenBlocks(tokens, 0, blocks, filename, limits);
    } catch (error) {
      if (error instanceof DocumentLimitError) throw error;
      unusable(filename, `the Markdown cannot be read (${conciseReason(error)})`, error);
    }
    return blocks;
  },
};
