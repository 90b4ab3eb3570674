import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import CFB from "cfb";

export const HANDBOOK_PATH = fileURLToPath(new URL("../../examples/harbor-light-handbook.docx", import.meta.url));
export const SITE_VISIT_PATH = fileURLToPath(new URL("../../examples/greyhill-site-visit.doc", import.meta.url));

export function handbookBytes(): Buffer {
  return readFileSync(HANDBOOK_PATH);
}

export type Element = { h: string; level?: 1 | 2 } | { p: string } | { li: string; level?: number } | { table: string[][] };

/** Builds a real .docx in memory with the `docx` package. */
export async function buildDocx(elements: Element[]): Promise<Buffer> {
  const children = elements.map((e) => {
    if ("h" in e) return new Paragraph({ text: e.h, heading: e.level === 2 ? HeadingLevel.HEADING_2 : HeadingLevel.HEADING_1 });
    if ("p" in e) return new Paragraph(e.p);
    if ("li" in e) return new Paragraph({ text: e.li, bullet: { level: e.level ?? 0 } });
    return new Table({
      rows: e.table.map((r) => new TableRow({ children: r.map((c) => new TableCell({ children: [new Paragraph(c)] })) })),
    });
  });
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** An OLE compound file with the given streams, as Office writes them. */
export function buildOleFile(streams: Record<string, Buffer>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(container, `/${name}`, content);
  return Buffer.from(CFB.write(container, { type: "buffer" }) as Uint8Array);
}

/** A password-protected .docx: Office stores the encrypted package inside an OLE container. */
export function buildEncryptedDocx(): Buffer {
  return buildOleFile({ EncryptionInfo: Buffer.alloc(64, 1), EncryptedPackage: Buffer.alloc(512, 7) });
}

/** A .doc whose File Information Block has the fEncrypted flag set (MS-DOC FibBase). */
export function buildEncryptedDoc(): Buffer {
  const fib = Buffer.alloc(1024);
  fib.writeUInt16LE(0xa5ec, 0); // wIdent of a Word binary file
  fib.writeUInt16LE(0x0100, 0x0a); // fEncrypted
  return buildOleFile({ WordDocument: fib, "1Table": Buffer.alloc(512) });
}
