/**
 * Deterministic, realistic-looking documents for the scale benchmark, in any format chunkeval
 * reads (Word by default; a collection's scale run writes every format in turn): each one is a manual
 * of a fictional organisation in one of several fields, 1 to 50 pages long (log-uniform, so most
 * are short and a few long, as in real collections), with headings, paragraphs, bulleted lists
 * and tables, and sentences built from the field's own vocabulary so retrieval has real work.
 */
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import { buildPdf, layoutParagraphs, type PdfPage } from "../test/helpers/pdf.js";

/** Words of running text per printed page of a typical manual. */
const WORDS_PER_PAGE = 420;

const FIELDS = [
  {
    org: "cooperative",
    nouns: [
      "member share",
      "turbine",
      "grid connection",
      "dividend",
      "board seat",
      "annual meeting",
      "solar array",
      "meter reading",
      "tariff",
      "maintenance window",
    ],
    verbs: ["approves", "inspects", "publishes", "refunds", "schedules", "records"],
  },
  {
    org: "clinic",
    nouns: [
      "patient record",
      "triage nurse",
      "appointment slot",
      "referral letter",
      "vaccine batch",
      "consent form",
      "waiting list",
      "discharge note",
      "lab result",
      "on-call rota",
    ],
    verbs: ["reviews", "signs", "archives", "notifies", "books", "escalates"],
  },
  {
    org: "logistics firm",
    nouns: [
      "pallet",
      "bill of lading",
      "loading dock",
      "customs form",
      "delivery window",
      "forklift licence",
      "cold chain",
      "route plan",
      "freight invoice",
      "damage report",
    ],
    verbs: ["dispatches", "weighs", "seals", "tracks", "invoices", "returns"],
  },
  {
    org: "school",
    nouns: [
      "term report",
      "field trip",
      "exam board",
      "timetable",
      "library card",
      "parent evening",
      "lab safety sheet",
      "uniform grant",
      "detention slip",
      "bus pass",
    ],
    verbs: ["assigns", "marks", "collects", "announces", "grants", "supervises"],
  },
  {
    org: "municipality",
    nouns: [
      "building permit",
      "waste collection",
      "parking zone",
      "council motion",
      "street light",
      "tree survey",
      "noise complaint",
      "market stall",
      "water main",
      "voter register",
    ],
    verbs: ["issues", "repairs", "surveys", "fines", "renews", "consults"],
  },
  {
    org: "software team",
    nouns: [
      "release branch",
      "incident ticket",
      "code review",
      "feature flag",
      "on-call handover",
      "backup job",
      "access token",
      "change request",
      "load test",
      "error budget",
    ],
    verbs: ["merges", "rotates", "deploys", "reverts", "audits", "monitors"],
  },
];
const ACTORS = [
  "the coordinator",
  "each team lead",
  "the treasurer",
  "a duty officer",
  "the secretary",
  "every new member",
  "the safety officer",
  "the auditor",
];
const WHEN = [
  "within five working days",
  "before the end of each quarter",
  "every Monday morning",
  "after the annual review",
  "no later than noon",
  "once a month",
  "at least twice a year",
  "on request",
];
const WHY = [
  "so that nothing is lost between shifts",
  "to keep the records complete",
  "because the insurer requires it",
  "as the statutes prescribe",
  "to avoid double bookings",
  "so that costs stay predictable",
  "to protect personal data",
  "unless the board decides otherwise",
];

/** A small seeded generator (mulberry32): the same seed always builds the same corpus. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedDocument {
  filename: string;
  pages: number;
  bytes: Buffer;
  /** Questions a reader of this document could ask, from its own sentences. */
  questions: string[];
}

/** A document's content before it is written in a format. */
type Element = { heading: string; level: 1 | 2 } | { paragraph: string } | { list: string[] } | { table: string[][] };

interface Content {
  name: string;
  pages: number;
  elements: Element[];
  questions: string[];
}

/** The content of document `index` of a corpus: same index and seed, same content. */
function generateContent(index: number, seed: number): Content {
  const rnd = seeded(seed * 100003 + index);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const field = FIELDS[index % FIELDS.length]!;
  const pages = Math.max(1, Math.min(50, Math.round(Math.exp(rnd() * Math.log(50)))));
  const name = `${pick(["North", "Harbor", "Greyhill", "Elm", "Riverside", "Summit", "Lakeside", "Old Town"])} ${field.org} ${index}`;
  const sentence = () => {
    const noun = pick(field.nouns);
    const other = pick(field.nouns);
    return `${pick(ACTORS).replace(/^./, (c) => c.toUpperCase())} ${pick(field.verbs)} the ${noun} ${pick(WHEN)}, ${pick(WHY)}; the ${other} is kept with it for ${2 + Math.floor(rnd() * 9)} years.`;
  };
  const elements: Element[] = [{ heading: `${name} handbook`, level: 1 }];
  const questions: string[] = [];
  let words = 0;
  let section = 0;
  while (words < pages * WORDS_PER_PAGE) {
    if (words >= section * 2 * WORDS_PER_PAGE) {
      section++;
      const topic = pick(field.nouns);
      elements.push({ heading: `${section}. Handling the ${topic}`, level: 2 });
      questions.push(`Who handles the ${topic} and when?`);
    }
    const kind = rnd();
    if (kind < 0.12) {
      const items = Array.from({ length: 4 }, sentence);
      elements.push({ list: items });
      words += items.join(" ").split(" ").length;
    } else if (kind < 0.17) {
      elements.push({ table: [["Item", "Owner", "Deadline"], ...Array.from({ length: 5 }, () => [pick(field.nouns), pick(ACTORS), pick(WHEN)])] });
      words += 45;
    } else {
      const text = Array.from({ length: 3 + Math.floor(rnd() * 4) }, sentence).join(" ");
      elements.push({ paragraph: text });
      words += text.split(" ").length;
      if (rnd() < 0.1) questions.push(`Why does ${text.split(" ").slice(0, 6).join(" ").toLowerCase()}?`);
    }
  }
  return { name, pages, elements, questions };
}

async function renderDocx(content: Content): Promise<Buffer> {
  const children = content.elements.flatMap((e): Array<Paragraph | Table> => {
    if ("heading" in e) return [new Paragraph({ text: e.heading, heading: e.level === 1 ? HeadingLevel.TITLE : HeadingLevel.HEADING_1 })];
    if ("list" in e) return e.list.map((item) => new Paragraph({ text: item, bullet: { level: 0 } }));
    if ("table" in e)
      return [new Table({ rows: e.table.map((r) => new TableRow({ children: r.map((c) => new TableCell({ children: [new Paragraph(c)] })) })) })];
    return [new Paragraph(e.paragraph)];
  });
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

function renderMarkdown(content: Content): string {
  return content.elements
    .map((e) => {
      if ("heading" in e) return `${"#".repeat(e.level)} ${e.heading}`;
      if ("list" in e) return e.list.map((item) => `- ${item}`).join("\n");
      if ("table" in e)
        return [`| ${e.table[0]!.join(" | ")} |`, `|${e.table[0]!.map(() => "---|").join("")}`, ...e.table.slice(1).map((r) => `| ${r.join(" | ")} |`)].join(
          "\n",
        );
      return e.paragraph;
    })
    .join("\n\n");
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function renderHtml(content: Content): string {
  const body = content.elements
    .map((e) => {
      if ("heading" in e) return `<h${e.level}>${escapeHtml(e.heading)}</h${e.level}>`;
      if ("list" in e) return `<ul>${e.list.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
      if ("table" in e) return `<table>${e.table.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("")}</table>`;
      return `<p>${escapeHtml(e.paragraph)}</p>`;
    })
    .join("\n");
  return `<!DOCTYPE html>\n<html><head><title>${escapeHtml(content.name)}</title></head><body>\n${body}\n</body></html>\n`;
}

function renderText(content: Content): string {
  return content.elements
    .map((e) => {
      if ("heading" in e) return e.heading;
      if ("list" in e) return e.list.map((item) => `- ${item}`).join("\n");
      if ("table" in e) return e.table.map((r) => r.join("\t")).join("\n");
      return e.paragraph;
    })
    .join("\n\n");
}

/** Words wrapped into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A text PDF (Helvetica), headings in a larger font, paragraphs wrapped and laid out page by page. */
function renderPdf(content: Content): Buffer {
  const blocks = content.elements.flatMap((e): Array<{ lines: string[]; size: number }> => {
    if ("heading" in e) return [{ lines: [e.heading], size: e.level === 1 ? 20 : 15 }];
    if ("list" in e) return e.list.map((item) => ({ lines: wrap(`- ${item}`, 95), size: 10 }));
    if ("table" in e) return [{ lines: e.table.map((r) => r.join("    ")), size: 10 }];
    return [{ lines: wrap(e.paragraph, 95), size: 10 }];
  });
  const pages: PdfPage[] = [];
  let page: Array<{ lines: string[]; size: number }> = [];
  let height = 0;
  for (const block of blocks) {
    const needed = block.lines.length * Math.round(block.size * 1.25) + 14;
    if (height + needed > 700 && page.length > 0) {
      pages.push(layoutParagraphs(page));
      page = [];
      height = 0;
    }
    page.push(block);
    height += needed;
  }
  if (page.length > 0) pages.push(layoutParagraphs(page));
  return buildPdf(pages);
}

/** The formats the scale corpus is written in, in turn. */
export const SCALE_FORMATS = ["docx", "pdf", "md", "html", "txt"] as const;
export type ScaleFormat = (typeof SCALE_FORMATS)[number];

/** Builds document `index` of a corpus in a format (Word by default): same index, seed and format, same bytes. */
export async function generateDocument(index: number, seed = 13, format: ScaleFormat = "docx"): Promise<GeneratedDocument> {
  const content = generateContent(index, seed);
  const bytes =
    format === "docx"
      ? await renderDocx(content)
      : format === "pdf"
        ? renderPdf(content)
        : Buffer.from(format === "md" ? renderMarkdown(content) : format === "html" ? renderHtml(content) : renderText(content));
  const filename = `${content.name.toLowerCase().replace(/\s+/g, "-")}.${format}`;
  return { filename, pages: content.pages, bytes, questions: content.questions };
}
