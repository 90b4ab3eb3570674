/**
 * Builds the second evaluation corpus (examples/standard/) from its text in examples/content/:
 * a fictional regional water authority's technical standard for drinking-water works, in parts
 * that share look-alike clauses (inspection intervals for pumps, for valves, for reservoirs...),
 * many figures and tables:
 *   fenmoor-ws7-part1-treatment.pdf    (general provisions and treatment processes: a text PDF in
 *                                       Helvetica, clause and sub-clause headings set larger)
 *   fenmoor-ws7-part2-assets.docx      (pumping, storage and distribution assets, with registers)
 *   fenmoor-ws7-part3-monitoring.md    (water quality monitoring and reporting: pipe tables)
 *   fenmoor-ws7-part4-guidance.html    (guidance notes and worked examples: an HTML page)
 * and questions/standard.json from examples/content/standard-questions.ts, each question given a
 * `split` (dev or heldout) by a seeded random draw, so that the halves are not chosen by hand.
 * The PDF bytes come from the test suite's PDF writer (test/helpers/pdf.ts); this script is not shipped.
 * Run: npm run examples:standard:build
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, HeadingLevel, Packer, Paragraph, Table } from "docx";
import { buildPdf } from "../test/helpers/pdf.js";
import { BODY, HEADING, PdfLayout, TITLE, docxTable } from "./layout.js";
import { random as seeded } from "../test/helpers/synthetic-texts.js";
import type { Section } from "./content/standard-common.js";
import * as part1 from "./content/standard-part1.js";
import * as part2 from "./content/standard-part2.js";
import * as part3 from "./content/standard-part3.js";
import * as part4 from "./content/standard-part4.js";
import { standardQuestions } from "./content/standard-questions.js";

const here = dirname(fileURLToPath(import.meta.url));

interface Content {
  title: string;
  preamble: string[];
  sections: Section[];
}

export const STANDARD_FILES = {
  part1: "fenmoor-ws7-part1-treatment.pdf",
  part2: "fenmoor-ws7-part2-assets.docx",
  part3: "fenmoor-ws7-part3-monitoring.md",
  part4: "fenmoor-ws7-part4-guidance.html",
} as const;

const SUBHEADING = 13;

/** Pages as the PDF writer lays them out: A4, 11-point body, clause headings 15 points, sub-clauses 13. */
export function buildPart1Pdf(content: Content = part1): Buffer {
  return buildPdf(layoutPdf(content).pages);
}

export function layoutPdf(content: Content): PdfLayout {
  const layout = new PdfLayout();
  layout.paragraph(content.title, TITLE, 14);
  for (const p of content.preamble) layout.paragraph(p);
  const keepWith = 4 * Math.round(BODY * 1.25);
  for (const section of content.sections) {
    if (section.level === 1) layout.paragraph(section.heading, HEADING + 1, 8, 0, keepWith);
    else layout.paragraph(section.heading, SUBHEADING, 6, 0, keepWith);
    for (const part of section.parts) {
      if (typeof part === "string") layout.paragraph(part);
      else if ("list" in part) part.list.forEach((item, i) => layout.paragraph(item, BODY, i === part.list.length - 1 ? 12 : 6, 14));
      else layout.table(part.table);
    }
  }
  return layout;
}

export async function buildPart2Docx(content: Content = part2): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [new Paragraph({ text: content.title, heading: HeadingLevel.TITLE })];
  for (const p of content.preamble) children.push(new Paragraph({ text: p, spacing: { after: 160 } }));
  for (const section of content.sections) {
    children.push(new Paragraph({ text: section.heading, heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2 }));
    for (const part of section.parts) {
      if (typeof part === "string") children.push(new Paragraph({ text: part, spacing: { after: 160 } }));
      else if ("list" in part) for (const item of part.list) children.push(new Paragraph({ text: item.replace(/^- /, ""), bullet: { level: 0 } }));
      else children.push(docxTable(part.table));
    }
  }
  return Packer.toBuffer(new Document({ title: content.title, sections: [{ children }] }));
}

/** Markdown: `#` title, `##` clauses, `###` sub-clauses, `-` lists and pipe tables. */
export function buildPart3Markdown(content: Content = part3): string {
  const out: string[] = [`# ${content.title}`, ...content.preamble];
  for (const section of content.sections) {
    out.push(`${section.level === 1 ? "##" : "###"} ${section.heading}`);
    for (const part of section.parts) {
      if (typeof part === "string") out.push(part);
      else if ("list" in part) out.push(part.list.join("\n"));
      else {
        const [head, ...rows] = part.table;
        const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
        out.push([line(head!), line(head!.map(() => "---")), ...rows.map(line)].join("\n"));
      }
    }
  }
  return out.join("\n\n") + "\n";
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** HTML: a page with `h1` title, `h2` clauses, `h3` sub-clauses, paragraphs, lists and tables. */
export function buildPart4Html(content: Content = part4): string {
  const body: string[] = [`<h1>${escapeHtml(content.title)}</h1>`, ...content.preamble.map((p) => `<p>${escapeHtml(p)}</p>`)];
  for (const section of content.sections) {
    const tag = section.level === 1 ? "h2" : "h3";
    body.push(`<${tag}>${escapeHtml(section.heading)}</${tag}>`);
    for (const part of section.parts) {
      if (typeof part === "string") body.push(`<p>${escapeHtml(part)}</p>`);
      else if ("list" in part) body.push(`<ul>\n${part.list.map((item) => `  <li>${escapeHtml(item.replace(/^- /, ""))}</li>`).join("\n")}\n</ul>`);
      else {
        const [head, ...rows] = part.table;
        const row = (cells: string[], cell: "th" | "td") => `  <tr>${cells.map((c) => `<${cell}>${escapeHtml(c)}</${cell}>`).join("")}</tr>`;
        body.push(`<table>\n${row(head!, "th")}\n${rows.map((r) => row(r, "td")).join("\n")}\n</table>`);
      }
    }
  }
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<title>${escapeHtml(content.title)}</title>`,
    "</head>",
    "<body>",
    "<main>",
    ...body,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * The questions file: each question's `split` comes from a seeded shuffle (half dev, half
 * heldout), so that nobody picks which questions the judge may be tuned on.
 */
export function buildQuestionsJson(): string {
  const random = seeded(25);
  const order = standardQuestions.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const dev = new Set(order.slice(0, Math.ceil(order.length / 2)));
  const items = standardQuestions.map((q, i) => ({
    question: q.question,
    expected_answer: q.expected_answer,
    references: q.references.map((r) => ({ document: STANDARD_FILES[r.part], text: r.text })),
    split: dev.has(i) ? "dev" : "heldout",
  }));
  return `[\n${items.map((item) => `  ${JSON.stringify(item)}`).join(",\n")}\n]\n`;
}

async function main(): Promise<void> {
  const dir = join(here, "standard");
  const layout = layoutPdf(part1);
  writeFileSync(join(dir, STANDARD_FILES.part1), buildPdf(layout.pages));
  writeFileSync(join(dir, STANDARD_FILES.part2), await buildPart2Docx());
  writeFileSync(join(dir, STANDARD_FILES.part3), buildPart3Markdown());
  writeFileSync(join(dir, STANDARD_FILES.part4), buildPart4Html());
  writeFileSync(join(here, "..", "questions", "standard.json"), buildQuestionsJson());
  console.log(`wrote examples/standard/ (${Object.values(STANDARD_FILES).join(", ")}; the PDF has ${layout.pages.length} pages) and questions/standard.json`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
