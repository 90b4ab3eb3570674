import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "../../src/parsers/limits.js";

/**
 * The default parsing limits but for `min_text_characters`, which is 1: for tests whose subject is
 * how a parser reads a snippet of a few words (white space, markup, nesting), not whether a
 * document holds enough text (test/parsers/unreadable-text.test.ts).
 */
export const SNIPPET_LIMITS: ParseLimits = { ...DEFAULT_PARSE_LIMITS, minTextCharacters: 1 };
