import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { parseDocument } from "../../src/parsers/parser.js";
import { createStrategyRegistry } from "../../src/strategies/registry.js";
import type { StoredDocument } from "../../src/domain/types.js";
import { normalize } from "../../src/domain/vectors.js";
import { handbookBytes } from "../helpers/documents.js";
import { syntheticTexts } from "../helpers/synthetic-texts.js";

/**
 * Pins the chunkers' output: a digest of every chunk's text, offsets, token count, role and
 * parent, for the handbook and the synthetic stress texts. The digests were printed by the
 * chunkers before they moved to a single tokenisation of the text (commit "Pin chunker
 * output"), so a change here means the chunks changed, not just how fast they are made.
 * The semantic strategies get a character-trigram embedder defined here, so that changes to
 * the project's text analysis (stemming) do not move these digests; contextual retrieval is
 * recursive's spans plus a context from that analysis, so recursive stands for it.
 * To see the digests, run this file with PRINT_DIGESTS=1.
 */
const registry = createStrategyRegistry();
const OPTIONS: Record<string, Array<Record<string, number>>> = {
  recursive: [{}, { chunk_size: 64, chunk_overlap: 8 }, { chunk_size: 8, chunk_overlap: 2 }],
  fixed_size: [{}, { chunk_size: 64, chunk_overlap: 8 }, { chunk_size: 8, chunk_overlap: 2 }],
  semantic: [{}, { min_tokens: 8, max_tokens: 40 }],
  semantic_parent_child: [{}, { child_size: 16, child_overlap: 4 }],
  structure: [{}, { max_tokens: 64, min_tokens: 8 }],
};

function documentOf(name: string, text: string): StoredDocument {
  return { id: "doc_pin", filename: `${name}.docx`, title: name, text, format: "docx", blocks: [], paragraphCount: 0, chunkCounts: {}, createdAt: "" };
}

function trigramEmbed(text: string): Float32Array {
  const vector = new Float32Array(64);
  const lower = text.toLowerCase();
  for (let i = 0; i + 3 <= lower.length; i++) vector[(lower.charCodeAt(i) * 31 * 31 + lower.charCodeAt(i + 1) * 31 + lower.charCodeAt(i + 2)) % 64]! += 1;
  vector[0]! += 1e-3; // never the zero vector
  return normalize(vector);
}

async function digest(strategy: string, options: Record<string, number>, document: StoredDocument): Promise<string> {
  const drafts = await (await registry.get(strategy).create(options)).chunk({ document, embed: async (texts) => texts.map(trigramEmbed) });
  const hash = createHash("sha256");
  for (const d of drafts) hash.update(JSON.stringify([d.text, d.start, d.end, d.tokenCount, d.role, d.parentIndex, d.context]));
  return `${drafts.length}:${hash.digest("hex").slice(0, 16)}`;
}

async function documents(): Promise<Array<[string, StoredDocument]>> {
  const parsed = await parseDocument(handbookBytes(), "harbor-light-handbook.docx");
  const handbook: StoredDocument = { id: "doc_pin", filename: "h.docx", paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: "", ...parsed };
  return [["handbook", handbook], ...Object.entries(syntheticTexts()).map(([name, text]): [string, StoredDocument] => [name, documentOf(name, text)])];
}

const PINNED: Record<string, string> = {
  "recursive {} handbook": "20:0ab961adfd3cf40e",
  'recursive {"chunk_size":64,"chunk_overlap":8} handbook': "88:7f4e42a43171ebc0",
  'recursive {"chunk_size":8,"chunk_overlap":2} handbook': "750:e8ea12d2c2b1f846",
  "fixed_size {} handbook": "20:fa5aa62ee6573bb0",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} handbook': "77:8a86c30bb4580c0a",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} handbook': "742:1fff3b4cfca26bf1",
  "semantic {} handbook": "15:88f1bd9ea05675f7",
  'semantic {"min_tokens":8,"max_tokens":40} handbook': "147:37d2196e781378c5",
  "semantic_parent_child {} handbook": "72:0fb548b7b223bf82",
  'semantic_parent_child {"child_size":16,"child_overlap":4} handbook': "380:23167d0eaff5be36",
  "recursive {} prose": "40:a1d8f0d95205716c",
  'recursive {"chunk_size":64,"chunk_overlap":8} prose': "171:21e93192d9ae9944",
  'recursive {"chunk_size":8,"chunk_overlap":2} prose': "1424:2c15ab960a06b0f8",
  "fixed_size {} prose": "37:6b22186c377460e0",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} prose': "145:ea0caa9f40931533",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} prose': "1403:f1b15c2e19a4fd7a",
  "semantic {} prose": "31:0d85d9a58f918fe0",
  'semantic {"min_tokens":8,"max_tokens":40} prose': "271:45e5e4602190d6ab",
  "semantic_parent_child {} prose": "140:5fac3f4bf1815f9b",
  'semantic_parent_child {"child_size":16,"child_overlap":4} prose': "740:1d3b619404311a73",
  "recursive {} long words in prose": "25:bff3eb5a05441743",
  'recursive {"chunk_size":64,"chunk_overlap":8} long words in prose': "104:0d108ec6c4d987b6",
  'recursive {"chunk_size":8,"chunk_overlap":2} long words in prose': "818:5f2be075c7a5dae4",
  "fixed_size {} long words in prose": "25:b4a8d5738b8c6aa9",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} long words in prose': "97:b5e8105e9458c9b3",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} long words in prose': "800:7762190e307cf0d3",
  "semantic {} long words in prose": "17:75d7193498a1334e",
  'semantic {"min_tokens":8,"max_tokens":40} long words in prose': "168:c7e7668df29ee1d8",
  "semantic_parent_child {} long words in prose": "89:4fb2ec89d254c6e9",
  'semantic_parent_child {"child_size":16,"child_overlap":4} long words in prose': "426:d72abc6c32dc83e3",
  "recursive {} single long word": "9:7d839edb9aa45fda",
  'recursive {"chunk_size":64,"chunk_overlap":8} single long word': "33:5713fa50e5a37c14",
  'recursive {"chunk_size":8,"chunk_overlap":2} single long word': "256:d388b495cfd56c97",
  "fixed_size {} single long word": "9:7d839edb9aa45fda",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} single long word': "33:5713fa50e5a37c14",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} single long word': "256:d388b495cfd56c97",
  "semantic {} single long word": "5:53eb33ea81b99a0d",
  'semantic {"min_tokens":8,"max_tokens":40} single long word': "52:1ce02722d3f30fdc",
  "semantic_parent_child {} single long word": "30:b0f0f7ca877c0e07",
  'semantic_parent_child {"child_size":16,"child_overlap":4} single long word': "135:f56f502c132786e0",
  "recursive {} repeated paragraph": "25:b0b85e73dd5ef402",
  'recursive {"chunk_size":64,"chunk_overlap":8} repeated paragraph': "125:3234e13c129fca31",
  'recursive {"chunk_size":8,"chunk_overlap":2} repeated paragraph': "874:e9f175246ca13921",
  "fixed_size {} repeated paragraph": "23:fd3f0a2eb43dd4ce",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} repeated paragraph': "92:069c7e6ea2f89eb4",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} repeated paragraph': "849:6af09a8e8358c0d5",
  "semantic {} repeated paragraph": "26:3048efdddd14d598",
  'semantic {"min_tokens":8,"max_tokens":40} repeated paragraph': "175:eae65dd4ed0c7470",
  "semantic_parent_child {} repeated paragraph": "101:f8c3c28bcbc4c383",
  'semantic_parent_child {"child_size":16,"child_overlap":4} repeated paragraph': "476:abcae9622756dfea",
  "recursive {} repeated sentence without breaks": "5:80070791c96e935b",
  'recursive {"chunk_size":64,"chunk_overlap":8} repeated sentence without breaks': "20:b46c0a71a26ed14a",
  'recursive {"chunk_size":8,"chunk_overlap":2} repeated sentence without breaks': "180:72d01a4137d6174c",
  "fixed_size {} repeated sentence without breaks": "5:80070791c96e935b",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} repeated sentence without breaks': "20:b46c0a71a26ed14a",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} repeated sentence without breaks': "180:72d01a4137d6174c",
  "semantic {} repeated sentence without breaks": "3:95a425d1d7076919",
  'semantic {"min_tokens":8,"max_tokens":40} repeated sentence without breaks': "28:f8328c92c7fa1b91",
  "semantic_parent_child {} repeated sentence without breaks": "18:eda2d23ff8286881",
  'semantic_parent_child {"child_size":16,"child_overlap":4} repeated sentence without breaks': "99:30238c5d645e6293",
  "recursive {} punctuation run": "4:7713c8f00b437cab",
  'recursive {"chunk_size":64,"chunk_overlap":8} punctuation run': "11:08fbc3829cbada69",
  'recursive {"chunk_size":8,"chunk_overlap":2} punctuation run': "79:0f3973e810816deb",
  "fixed_size {} punctuation run": "4:7713c8f00b437cab",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} punctuation run': "11:d6bf23727013f603",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} punctuation run': "79:2185b73bfd9de910",
  "semantic {} punctuation run": "2:d3f5479a6fd69e6e",
  'semantic {"min_tokens":8,"max_tokens":40} punctuation run': "16:65e45cff780e44fa",
  "semantic_parent_child {} punctuation run": "10:2b544640817a57ab",
  'semantic_parent_child {"child_size":16,"child_overlap":4} punctuation run': "42:04db8ef189a91d6b",
  "recursive {} odd white space": "5:06efb9906b1406e6",
  'recursive {"chunk_size":64,"chunk_overlap":8} odd white space': "20:b7d2d79e71a2c118",
  'recursive {"chunk_size":8,"chunk_overlap":2} odd white space': "160:9949c3982ea54acd",
  "fixed_size {} odd white space": "5:a5838af8376197ea",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} odd white space': "18:47b849435b488047",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} odd white space': "161:59b93ad11ba24d66",
  "semantic {} odd white space": "3:629d80bc43d101c0",
  'semantic {"min_tokens":8,"max_tokens":40} odd white space': "28:c74a1939e5171871",
  "semantic_parent_child {} odd white space": "17:d9180554db84cdb0",
  'semantic_parent_child {"child_size":16,"child_overlap":4} odd white space': "84:4326eb43c2df6720",
  "recursive {} no white space at all": "8:caf143a05d2414dc",
  'recursive {"chunk_size":64,"chunk_overlap":8} no white space at all': "34:fd904126c83ee6ea",
  'recursive {"chunk_size":8,"chunk_overlap":2} no white space at all': "234:d63348b17f08a8e4",
  "fixed_size {} no white space at all": "7:ab6c20a44eec5763",
  'fixed_size {"chunk_size":64,"chunk_overlap":8} no white space at all': "27:72c72b984c0b8bbe",
  'fixed_size {"chunk_size":8,"chunk_overlap":2} no white space at all': "216:e7c4ad3792850ba2",
  "semantic {} no white space at all": "6:59a55c92d852d442",
  'semantic {"min_tokens":8,"max_tokens":40} no white space at all': "54:4892d5a5df46128a",
  "semantic_parent_child {} no white space at all": "27:292c5f3be0f22ba8",
  'semantic_parent_child {"child_size":16,"child_overlap":4} no white space at all': "114:8be41d3400314ba8",
  // structure: pinned when it was added (no earlier output to compare with).
  "structure {} handbook": "16:25252f0f7580871a",
  'structure {"max_tokens":64,"min_tokens":8} handbook': "94:ed667d5ab63887e0",
  "structure {} prose": "20:50e8b9563faab2f8",
  'structure {"max_tokens":64,"min_tokens":8} prose': "166:a1394da5820c155c",
  "structure {} long words in prose": "14:9cca9b2f3f2b8ce5",
  'structure {"max_tokens":64,"min_tokens":8} long words in prose': "103:72cd8d0e92ab1896",
  "structure {} single long word": "5:53eb33ea81b99a0d",
  'structure {"max_tokens":64,"min_tokens":8} single long word': "33:5713fa50e5a37c14",
  "structure {} repeated paragraph": "13:d45f2b4a8b4f3712",
  'structure {"max_tokens":64,"min_tokens":8} repeated paragraph': "125:3234e13c129fca31",
  "structure {} repeated sentence without breaks": "3:95a425d1d7076919",
  'structure {"max_tokens":64,"min_tokens":8} repeated sentence without breaks': "18:4c00bf61678df861",
  "structure {} punctuation run": "2:d3f5479a6fd69e6e",
  'structure {"max_tokens":64,"min_tokens":8} punctuation run': "11:08fbc3829cbada69",
  "structure {} odd white space": "3:200b1ccd45d9ef2a",
  'structure {"max_tokens":64,"min_tokens":8} odd white space': "20:b7d2d79e71a2c118",
  "structure {} no white space at all": "4:79ef2d1377591f4b",
  'structure {"max_tokens":64,"min_tokens":8} no white space at all': "34:d9cf0e468d51a1d3",
};

test("chunkers produce exactly the pinned chunks on the handbook and the stress texts", async () => {
  const seen: Record<string, string> = {};
  for (const [name, document] of await documents()) {
    for (const [strategy, optionSets] of Object.entries(OPTIONS)) {
      for (const options of optionSets) {
        const key = `${strategy} ${JSON.stringify(options)} ${name}`;
        seen[key] = await digest(strategy, options, document);
      }
    }
  }
  if (process.env.PRINT_DIGESTS) console.log(JSON.stringify(seen, null, 2));
  assert.deepEqual(seen, PINNED);
});
