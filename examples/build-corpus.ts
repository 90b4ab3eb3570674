/**
 * Builds the binary documents of the example corpus (examples/corpus/) from their text in
 * examples/content/:
 *   tidewater-quay-lease.pdf       (a commercial lease: a real text PDF set in Helvetica, headings
 *                                   in larger type, a rent table in columns, several pages)
 *   alder-street-trip-policy.docx  (a school's educational visits policy: headings, lists, two tables)
 * The Markdown, HTML and text documents of the corpus are their own source and are edited in place.
 * The PDF bytes come from the test suite's PDF writer (test/helpers/pdf.ts, `buildPdf`): this
 * script only lays the text out (wrapping, page breaks, table columns) and is not shipped.
 * Run: npm run examples:corpus:build
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, HeadingLevel, Packer, Paragraph, Table } from "docx";
import { buildPdf } from "../test/helpers/pdf.js";
import { BODY, HEADING, PdfLayout, TITLE, docxTable } from "./layout.js";
import * as lease from "./content/corpus-lease.js";
import * as tripPolicy from "./content/corpus-trip-policy.js";

const here = dirname(fileURLToPath(import.meta.url));

export function buildLeasePdf(): Buffer {
  const layout = new PdfLayout();
  layout.paragraph(lease.title, TITLE, 14);
  for (const p of lease.preamble) layout.paragraph(p);
  for (const section of lease.sections) {
    layout.paragraph(section.heading, HEADING, 8, 0, 4 * Math.round(BODY * 1.25));
    for (const part of section.parts) {
      if (typeof part === "string") layout.paragraph(part);
      else if ("list" in part) part.list.forEach((item, i) => layout.paragraph(item, BODY, i === part.list.length - 1 ? 12 : 6, 14));
      else layout.table(part.table);
    }
  }
  return buildPdf(layout.pages);
}

export async function buildTripPolicyDocx(): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [new Paragraph({ text: tripPolicy.title, heading: HeadingLevel.TITLE })];
  for (const section of tripPolicy.sections) {
    children.push(new Paragraph({ text: section.heading, heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2 }));
    for (const part of section.parts) {
      if (typeof part === "string") children.push(new Paragraph({ text: part, spacing: { after: 160 } }));
      else if ("list" in part) for (const item of part.list) children.push(new Paragraph({ text: item, bullet: { level: 0 } }));
      else children.push(docxTable(part.table));
    }
  }
  return Packer.toBuffer(new Document({ title: tripPolicy.title, sections: [{ children }] }));
}

async function main(): Promise<void> {
  const dir = join(here, "corpus");
  const pdf = buildLeasePdf();
  writeFileSync(join(dir, "tidewater-quay-lease.pdf"), pdf);
  writeFileSync(join(dir, "alder-street-trip-policy.docx"), await buildTripPolicyDocx());
  console.log("wrote examples/corpus/tidewater-quay-lease.pdf and examples/corpus/alder-street-trip-policy.docx");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
