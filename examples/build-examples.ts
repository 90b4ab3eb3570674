/**
 * Builds the bundled example documents from examples/content/:
 *   harbor-light-handbook.docx  (16 chapters, each on a new page, with headings, lists and tables)
 *   greyhill-site-visit.doc     (legacy Word 97 format, converted by LibreOffice when available)
 * Run: node --import tsx examples/build-examples.ts
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, HeadingLevel, Packer, Paragraph, Table } from "docx";
import { docxTable } from "./layout.js";
import * as handbook from "./content/handbook.js";
import * as siteVisit from "./content/site-visit.js";

const here = dirname(fileURLToPath(import.meta.url));

export async function buildHandbookDocx(): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [new Paragraph({ text: handbook.title, heading: HeadingLevel.TITLE })];
  for (const section of handbook.sections) {
    children.push(
      new Paragraph({
        text: section.heading,
        heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
        pageBreakBefore: section.level === 1,
      }),
    );
    for (const part of section.parts) {
      if (typeof part === "string") children.push(new Paragraph({ text: part, spacing: { after: 160 } }));
      else if ("list" in part) for (const item of part.list) children.push(new Paragraph({ text: item, bullet: { level: 0 } }));
      else children.push(docxTable(part.table));
    }
  }
  return Packer.toBuffer(new Document({ title: handbook.title, sections: [{ children }] }));
}

export async function buildSiteVisitDocx(): Promise<Buffer> {
  const [first, ...rest] = siteVisit.paragraphs;
  const children = [new Paragraph({ text: first!, heading: HeadingLevel.HEADING_1 }), ...rest.map((p) => new Paragraph(p))];
  return Packer.toBuffer(new Document({ title: siteVisit.title, sections: [{ children }] }));
}

async function main(): Promise<void> {
  writeFileSync(join(here, "harbor-light-handbook.docx"), await buildHandbookDocx());
  const work = mkdtempSync(join(tmpdir(), "chunkeval-examples-"));
  const docx = join(work, "greyhill-site-visit.docx");
  writeFileSync(docx, await buildSiteVisitDocx());
  const soffice = ["/usr/bin/soffice", "/usr/bin/libreoffice"].find(existsSync);
  if (!soffice) {
    console.error("LibreOffice not found: greyhill-site-visit.doc left as it is (apt-get install libreoffice-writer-nogui)");
    return;
  }
  execFileSync(soffice, ["--headless", "--convert-to", "doc:MS Word 97", "--outdir", work, docx], { stdio: "ignore" });
  copyFileSync(join(work, "greyhill-site-visit.doc"), join(here, "greyhill-site-visit.doc"));
  console.log("wrote examples/harbor-light-handbook.docx and examples/greyhill-site-visit.doc");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
