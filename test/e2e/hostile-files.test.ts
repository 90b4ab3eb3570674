import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as httpRequest } from "node:http";
import { buildDocx } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { buildOverlappingZip, buildZip, deflated, packDocx, repeatedDeflate, unpackDocx } from "../helpers/zip.js";
import { startServe } from "../../scripts/load-helpers.js";
import { storedPointRows } from "../helpers/stored-points.js";
import {
  buildEncryptedPdf,
  buildFlateBomb,
  flateBombStream,
  buildGraphicsStateBomb,
  buildImageOnlyPdf,
  buildLzwBomb,
  buildPageTreeBomb,
  buildPdf,
  layoutParagraphs,
} from "../helpers/pdf.js";

const MB = 1024 * 1024;
const PARAGRAPH = Buffer.from("<w:p><w:r><w:t>a</w:t></w:r></w:p>");

/** A document.xml of `size` bytes of tiny paragraphs, wrapped as Word writes it. */
function bodyBlock(size: number): Buffer {
  return Buffer.concat(Array.from({ length: Math.ceil(size / PARAGRAPH.length) }, () => PARAGRAPH)).subarray(0, size);
}

/** `n` pseudo-random lower-case letters (xorshift32): text that compresses like prose, not like a bomb. */
function seededLetters(n: number): string {
  let x = 2463534242;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = 97 + ((x >>> 0) % 26);
  }
  return out.toString("latin1");
}

/** What one hostile file must produce on each upload route. */
interface HostileCase {
  name: string;
  filename: string;
  bytes: () => Promise<Buffer>;
  documents: { status: number; type: string; message?: RegExp };
  v1: { status: number | number[]; code?: string | string[]; message?: RegExp };
  /** A successful /documents upload is stored; check what was recorded (and the stored original's name). */
  stored?: (doc: any, storedFiles: string[]) => void;
  /** Also upload it with `chunkeval upload`, which must exit 2 with this message on stderr (refused cases). */
  cli?: RegExp;
}

async function docxWithDocumentXml(xml: string | Buffer): Promise<Buffer> {
  const parts = unpackDocx(await buildDocx([{ p: "placeholder" }]));
  parts.set("word/document.xml", Buffer.isBuffer(xml) ? xml : Buffer.from(xml));
  return packDocx(parts);
}

const NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** `n` bytes of seeded noise: no format's signature, not UTF-8. */
function noise(n: number): Buffer {
  let x = 88172645;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 0) & 255;
  }
  out[0] = 0xc3; // a UTF-8 lead byte followed by no continuation byte
  out[1] = 0x28;
  return out;
}

const CASES: HostileCase[] = [
  {
    name: "zip bomb: document.xml of 200 MB in a small file",
    filename: "bomb-size.docx",
    bytes: async () => buildZip([{ name: "word/document.xml", packed: repeatedDeflate(bodyBlock(MB), 200), declaredSize: 200 * MB }]),
    documents: { status: 413, type: "DocumentLimitError", message: /max_unpacked_mb/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_unpacked_mb/ },
  },
  {
    name: "zip bomb: 50 MB entry, compression ratio over 1000",
    filename: "bomb-ratio.docx",
    bytes: async () => buildZip([{ name: "word/document.xml", packed: repeatedDeflate(bodyBlock(MB), 50), declaredSize: 50 * MB }]),
    documents: { status: 413, type: "DocumentLimitError", message: /max_compression_ratio/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_compression_ratio/ },
  },
  {
    name: "zip bomb: sizes that lie (declares 1 MB, unpacks to 64 MB)",
    filename: "bomb-liar.docx",
    bytes: async () => buildZip([{ name: "word/document.xml", packed: repeatedDeflate(bodyBlock(MB), 64), declaredSize: 1000 * 1000 }]),
    documents: { status: 400, type: "ChunkingError", message: /more than its declared size/ },
    v1: { status: 400, code: "unprocessable_document", message: /more than its declared size/ },
  },
  {
    name: "zip bomb: 5,000 entries",
    filename: "bomb-entries.docx",
    bytes: async () => buildZip(Array.from({ length: 5000 }, (_, i) => deflated(`word/media/e${i}.xml`, Buffer.from("<x/>")))),
    documents: { status: 413, type: "DocumentLimitError", message: /max_zip_entries/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_zip_entries/ },
  },
  {
    name: "zip bomb: 90 overlapping entries share one block",
    filename: "bomb-overlap.docx",
    bytes: async () => buildOverlappingZip({ name: "word/document.xml", packed: repeatedDeflate(bodyBlock(1000 * 1000), 1), declaredSize: 1000 * 1000 }, 90),
    documents: { status: 400, type: "ChunkingError", message: /overlap/ },
    v1: { status: 400, code: "unprocessable_document", message: /overlap/ },
  },
  {
    name: "billion laughs (nested entities)",
    filename: "laughs.docx",
    bytes: () =>
      docxWithDocumentXml(
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
          Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`).join("") +
          `]><w:document ${NS}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`,
      ),
    documents: { status: 400, type: "ChunkingError", message: /DTD/ },
    v1: { status: 400, code: "unprocessable_document", message: /DTD/ },
  },
  {
    name: "external entity (file:///etc/passwd)",
    filename: "xxe.docx",
    bytes: () =>
      docxWithDocumentXml(
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
          `<w:document ${NS}><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>`,
      ),
    documents: { status: 400, type: "ChunkingError", message: /DTD/ },
    v1: { status: 400, code: "unprocessable_document", message: /DTD/ },
  },
  {
    name: "50,000 paragraphs",
    filename: "long.docx",
    bytes: () => buildDocx(Array.from({ length: 50_000 }, (_, i) => ({ p: `Paragraph ${i} of a very long handbook about harbor lights and member shares.` }))),
    documents: { status: 201, type: "" },
    // More chunks than the ceiling (413) on a quiet machine; beside the test lanes, parsing 50,000
    // paragraphs took the whole 15 s window once (504). Either way nothing is indexed.
    v1: { status: [413, 504], code: ["chunk_limit_exceeded", "ingestion_timeout"] },
    stored: (doc) => assert.equal(doc.paragraph_count, 50_000),
  },
  {
    name: "a 5 MB unbroken word",
    filename: "word.docx",
    bytes: () => buildDocx([{ p: seededLetters(5 * MB) }]),
    documents: { status: 201, type: "" },
    // Chunking is linear, but 5 MB of one word takes about 14 s (README, bench:chunking): on a
    // quiet machine it yields more chunks than the ceiling (413); on a loaded one the 15 s window
    // of this test runs out first (504). Either way the server keeps answering and nothing is indexed.
    v1: { status: [413, 504], code: ["chunk_limit_exceeded", "ingestion_timeout"] },
    stored: (doc) => assert.equal(doc.paragraph_count, 1),
  },
  {
    name: "invalid UTF-8 in document.xml",
    filename: "bad-utf8.docx",
    bytes: () =>
      docxWithDocumentXml(
        Buffer.concat([
          Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${NS}><w:body><w:p><w:r><w:t>caf`),
          Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
          // Enough text after it to be a document (min_text_characters).
          Buffer.from(" au lait, served at the harbour cafe</w:t></w:r></w:p></w:body></w:document>"),
        ]),
      ),
    documents: { status: 201, type: "" },
    v1: { status: 201 },
    stored: (doc) => assert.equal(doc.paragraph_count, 1),
  },
  {
    name: "NUL, BEL and a bidi override in the file name",
    filename: "re\u0000po\u0007rt\u202e.docx",
    bytes: () => buildDocx([{ p: "A report whose name hides control characters." }]),
    documents: { status: 201, type: "" },
    v1: { status: 201 },
    stored: (doc) => assert.equal(doc.filename, "report.docx"),
  },
  {
    name: "a 10,000-character file name",
    filename: `${"n".repeat(10_000)}.docx`,
    bytes: () => buildDocx([{ p: "A report with a very long name." }]),
    documents: { status: 201, type: "" },
    v1: { status: 201 },
    stored: (doc) => {
      assert.equal(doc.filename.length, 255);
      assert.ok(doc.filename.endsWith(".docx"));
    },
  },
  // The formats beside Word: PDF, HTML, Markdown, text (after the Word cases, whose figures stay comparable).
  {
    name: "encrypted PDF (RC4, user password)",
    filename: "locked.pdf",
    bytes: async () => buildEncryptedPdf(),
    documents: { status: 400, type: "ChunkingError", message: /^locked\.pdf: the PDF is encrypted \(password-protected\)/ },
    v1: { status: 400, code: "unprocessable_document", message: /the PDF is encrypted/ },
    cli: /locked\.pdf: the PDF is encrypted/,
  },
  {
    name: "image-only PDF (no text layer)",
    filename: "scan.pdf",
    bytes: async () => buildImageOnlyPdf(3),
    documents: { status: 400, type: "ChunkingError", message: /^scan\.pdf: no text layer: run OCR first/ },
    v1: { status: 400, code: "unprocessable_document", message: /no text layer: run OCR first/ },
    cli: /scan\.pdf: no text layer: run OCR first/,
  },
  {
    name: "PDF page bomb: a page tree of a million pages in 8 KB",
    filename: "pages.pdf",
    bytes: async () => buildPageTreeBomb(1000),
    documents: { status: 413, type: "DocumentLimitError", message: /the PDF has 1000000 pages, more than max_pdf_pages \(2000\)/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_pdf_pages/ },
    cli: /pages\.pdf: the PDF has 1000000 pages, more than max_pdf_pages/,
  },
  {
    name: "PDF stream bomb: a content stream inflating to 300 MB",
    filename: "stream.pdf",
    bytes: async () => buildFlateBomb(300),
    documents: { status: 413, type: "DocumentLimitError", message: /compressed streams unpack to more than max_unpacked_mb \(100 MB\)/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_unpacked_mb/ },
    cli: /stream\.pdf: the PDF's compressed streams unpack to more than max_unpacked_mb/,
  },
  {
    name: "PDF stream bomb inside AES-256 encryption that opens without a password",
    filename: "restricted.pdf",
    bytes: async () => buildEncryptedPdf({ cipher: "aes-256", userPassword: "", content: flateBombStream(300) }),
    documents: { status: 413, type: "DocumentLimitError", message: /compressed streams unpack to more than max_unpacked_mb/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_unpacked_mb/ },
  },
  {
    name: "PDF stream bomb: LZW inflating to 300 MB",
    filename: "lzw.pdf",
    bytes: async () => buildLzwBomb(300),
    documents: { status: 413, type: "DocumentLimitError", message: /compressed streams unpack to more than max_unpacked_mb/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_unpacked_mb/ },
  },
  {
    name: "PDF nesting bomb: 100,000 nested graphics states",
    filename: "nested.pdf",
    bytes: async () => buildGraphicsStateBomb(100_000),
    documents: { status: 400, type: "ChunkingError", message: /nests graphics states \(q operators\) more than 256 deep/ },
    v1: { status: 400, code: "unprocessable_document", message: /nests graphics states/ },
  },
  {
    name: "HTML bomb: 100,000 nested divs",
    filename: "deep.html",
    bytes: async () => Buffer.from(`<!DOCTYPE html><html><body>${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}</body></html>`),
    documents: { status: 413, type: "DocumentLimitError", message: /deeper than max_html_depth \(256\)/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_html_depth/ },
    cli: /deep\.html: the HTML nests elements deeper than max_html_depth/,
  },
  {
    name: "HTML bomb: 2 million elements",
    filename: "wide.htm",
    bytes: async () => Buffer.from(`<html><body>${"<p>x</p>".repeat(2_000_000)}</body></html>`),
    documents: { status: 413, type: "DocumentLimitError", message: /more than max_html_elements \(200000\)/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_html_elements/ },
    cli: /wide\.htm: the HTML has more than max_html_elements/,
  },
  {
    name: "Markdown bomb: quotes nested a million deep",
    filename: "quotes.md",
    bytes: async () => Buffer.from(`${">".repeat(1_000_000)} deep`),
    documents: { status: 413, type: "DocumentLimitError", message: /nests quotes or lists deeper than max_html_depth \(256\)/ },
    v1: { status: 413, code: "document_limit_exceeded", message: /max_html_depth/ },
  },
  {
    name: "text in Latin-1, not UTF-8",
    filename: "latin1.txt",
    bytes: async () => Buffer.from("Caf\xe9 cr\xe8me: the menu of the harbour caf\xe9, written in Latin-1.\n", "latin1"),
    documents: { status: 400, type: "ChunkingError", message: /^latin1\.txt: not a supported document .*not UTF-8 text\?/ },
    v1: { status: 400, code: "unprocessable_document", message: /not UTF-8 text\?/ },
    cli: /latin1\.txt: not a supported document .*not UTF-8 text\?/,
  },
  {
    name: "bytes of no format",
    filename: "blob.docx",
    bytes: async () => noise(64 * 1024),
    documents: { status: 400, type: "ChunkingError", message: /^blob\.docx: not a supported document \(\.docx, \.doc, \.pdf, \.html, \.md or \.txt\)/ },
    v1: { status: 400, code: "unprocessable_document", message: /not a supported document/ },
    cli: /blob\.docx: not a supported document/,
  },
  {
    name: "a PDF named x.docx",
    filename: "x.docx",
    bytes: async () => buildPdf([layoutParagraphs([{ lines: ["A PDF whose name says Word."] }])]),
    documents: { status: 201, type: "" },
    v1: { status: 201 },
    stored: (doc, storedFiles) => {
      assert.equal(doc.filename, "x.docx");
      assert.ok(storedFiles.includes(`${doc.id}.pdf`), `stored as ${doc.id}.pdf: ${storedFiles.join(", ")}`);
    },
  },
];

/** A multipart upload with the name exactly as given (fetch's FormData would escape it). */
function upload(url: string, path: string, filename: string, bytes: Buffer, fields: Record<string, string>, headers: Record<string, string>) {
  const boundary = "hostile-boundary-7d1";
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("");
  const body = Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="`),
    Buffer.from(filename, "utf8"),
    Buffer.from(`"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, url),
      // A connection of its own: building the next file can take longer than the server's 5 s
      // keep-alive, and a pooled socket the server closes as it is reused ends in "socket hang up".
      {
        method: "POST",
        agent: false,
        headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length) },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Polls /healthz while `work` runs; returns the slowest answer (ms), whether every probe succeeded, and what the first that did not got. */
async function probeHealth<T>(url: string, work: Promise<T>): Promise<{ result: T; slowestMs: number; probes: number; allOk: boolean; firstFailure: string }> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  let allOk = true;
  let firstFailure = "";
  const prober = (async () => {
    while (!done) {
      const started = performance.now();
      const probe = () => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
      // A pooled keep-alive socket that the server closed as idle just as the probe was sent fails
      // with UND_ERR_SOCKET after a few ms (seen beside the lanes): the probe is sent again once, on
      // a new connection, as an HTTP client does; a server that does not answer fails both.
      const r = await probe()
        .catch((error: Error & { cause?: { code?: string } }) => (error.cause?.code === "UND_ERR_SOCKET" ? probe() : Promise.reject(error)))
        .catch((error: Error & { cause?: { code?: string } }) => {
          firstFailure ||= `probe ${probes + 1} after ${(performance.now() - started).toFixed(0)} ms: ${error.message} ${error.cause?.code ?? ""}`;
          return null;
        });
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes++;
      if (r && r.status !== 200) firstFailure ||= `probe ${probes}: status ${r.status}`;
      if (r?.status !== 200) allOk = false;
      await r?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  let result: T;
  try {
    result = await work;
  } finally {
    done = true;
    await prober;
  }
  return { result, slowestMs, probes, allOk, firstFailure };
}

/** Peak resident memory of a process since the last reset (Linux: VmHWM; "5" > clear_refs resets it). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m![1]) / 1024;
}
function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/**
 * The server's peak RSS allowed while the cases run back to back. Node 22 and 24 give freed heap
 * pages back to the system later than Node 20: after the 50,000-paragraph upload a Node 22.23
 * server held 636 MB for six seconds, 588 MB for eight more and 227 MB from then on (Node 20.20: 373 MB
 * after three), so what the earlier cases left weighs more there. Peaks measured over the whole
 * run: 795 MB on Node 20.20, 1,043-1,137 MB on 22.23 and 1,029-1,074 MB on 24.21. A bomb that
 * got past the checks would still cross either limit: pdfjs decoding one 200 MB LZW stream
 * reached 920 MB resident on its own (README, PDF safety).
 */
const PEAK_RSS_LIMIT_MB = Number(process.versions.node.split(".")[0]) >= 22 ? 1400 : 1024;

test("hostile files: the right error, bounded memory, the server answering throughout, nothing stored", { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-hostile-"));
  const dataDir = join(dir, "data");
  const env = { ...process.env, CHUNKEVAL_DATA_DIR: dataDir, CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_EMBEDDER_WORKERS: "0", INGESTION_TIMEOUT_SECONDS: "15" };
  const tenant = await runCli(["tenants", "create", "acme"], env);
  assert.equal(tenant.code, 0, tenant.stderr);
  const key = JSON.parse((await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,domains:read,domains:write", "--json"], env)).stdout)
    .secret as string;
  const server = await startServe(env);
  const auth = { authorization: `Bearer ${key}` };
  const rows: string[] = [];
  try {
    const domain = await fetch(`${server.url}/v1/domains`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ domain: "docs", display_name: "Docs" }),
    });
    assert.equal(domain.status, 201);
    let storedDocuments = 0;
    let livePoints = 0;
    let storedV1Files = 0;
    for (const c of CASES) {
      const bytes = await c.bytes();
      resetPeakRss(server.pid);
      const measured = await probeHealth(
        server.url,
        (async () => ({
          documents: await upload(server.url, "/documents", c.filename, bytes, {}, {}),
          v1: await upload(server.url, "/v1/files", c.filename, bytes, { domain: "docs" }, auth),
        }))(),
      );
      const { documents, v1 } = measured.result;
      const peak = peakRssMb(server.pid);
      const label = `${c.name}: /documents ${documents.status} ${documents.body.type ?? ""}, /v1/files ${v1.status} ${v1.body.error?.code ?? ""}`;
      const shownName = c.filename.length > 40 ? `${c.filename.slice(0, 12)}… (${c.filename.length} chars)` : JSON.stringify(c.filename);
      rows.push(
        `| ${c.name} | ${shownName} | ${(bytes.length / 1024).toFixed(0)} KB | ${documents.status} ${documents.body.type ?? ""} | ` +
          `${v1.status} ${v1.body.error?.code ?? ""} | ${peak.toFixed(0)} MB | ${measured.slowestMs.toFixed(0)} ms (${measured.probes} probes) |`,
      );

      assert.equal(documents.status, c.documents.status, label + " " + JSON.stringify(documents.body).slice(0, 300));
      if (c.documents.status >= 400) {
        assert.equal(documents.body.type, c.documents.type, label);
        if (c.documents.message) assert.match(documents.body.detail, c.documents.message, label);
      } else {
        storedDocuments++;
        c.stored?.(documents.body, readdirSync(join(dataDir, "files")));
      }
      const v1Statuses = ([] as number[]).concat(c.v1.status);
      assert.ok(v1Statuses.includes(v1.status), label + " " + JSON.stringify(v1.body).slice(0, 300));
      if (v1.status >= 400) {
        if (c.v1.code) assert.ok(([] as string[]).concat(c.v1.code).includes(v1.body.error.code), label);
        if (c.v1.message) assert.match(v1.body.error.message, c.v1.message, label);
      } else {
        livePoints += v1.body.points_created;
        storedV1Files++;
        if (c.stored) assert.ok(!/[\u0000-\u001f]/.test(v1.body.filename) && v1.body.filename.length <= 255, label);
      }

      if (c.cli) {
        const path = join(dir, c.filename);
        writeFileSync(path, bytes);
        const cli = await runCli(["upload", path], env);
        rmSync(path);
        assert.equal(cli.code, 2, `${label}: chunkeval upload ${cli.stderr}`);
        assert.match(cli.stderr, c.cli, label);
      }

      assert.ok(peak < PEAK_RSS_LIMIT_MB, `${label}: server peak RSS ${peak.toFixed(0)} MB (limit ${PEAK_RSS_LIMIT_MB} MB)`);
      assert.ok(measured.allOk, `${label}: /healthz failed while the file was processed (${measured.firstFailure})`);
      // What load cannot break: a file parsed on the server's event loop stops /healthz for
      // seconds; off it, the slowest probe is scheduling (the target is 100 ms, measured here at
      // most 66 ms on an idle machine; a test beside other tests on two cores saw 278 ms). The
      // figure is printed in the table below; the precise bound is the load scripts'.
      assert.ok(measured.slowestMs < 1500, `${label}: /healthz took ${measured.slowestMs.toFixed(0)} ms`);
      const docs = (await (await fetch(`${server.url}/documents?limit=1`)).json()) as { total: number };
      assert.equal(docs.total, storedDocuments, `${label}: documents stored`);
      const points = (await (await fetch(`${server.url}/v1/points?limit=1`, { headers: auth })).json()) as { total: number };
      assert.equal(points.total, livePoints, `${label}: live points`);
      // In the stores themselves: no hidden point and no /v1 object left by a refused file.
      assert.equal(await storedPointRows(dataDir), livePoints, `${label}: points in LanceDB, hidden ones included`);
      const files = existsSync(join(dataDir, "files")) ? readdirSync(join(dataDir, "files")).length : 0;
      assert.equal(files, storedDocuments, `${label}: stored originals`);
      const objects = existsSync(join(dataDir, "objects")) ? readdirSync(join(dataDir, "objects")).length : 0;
      assert.equal(objects, storedV1Files, `${label}: stored /v1 objects`);
    }
  } finally {
    console.log(
      ["| file | name | size | POST /documents | POST /v1/files | server peak RSS | slowest /healthz |", "|---|---|---|---|---|---|---|", ...rows].join("\n"),
    );
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
