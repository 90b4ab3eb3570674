import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { InflatedPastCap, inflateRawCapped } from "../../src/parsers/inflate-raw.js";
import { inspectZip, verifyZipContents } from "../../src/parsers/zip-guard.js";
import { buildZip, deflated, NO_LIMITS } from "../helpers/zip.js";

const text = Buffer.from("Harbor Light staff take leave in whole days. ".repeat(5_000));
const packed = deflateRawSync(text);

test("raw deflate data unpacks to the bytes node:zlib packed, up to a cap of exactly its size", () => {
  const { data, corrupt, finished } = inflateRawCapped(packed, text.length);
  assert.deepEqual([corrupt, finished], [false, true]);
  assert.ok(data.equals(text));
  // An empty entry: nothing to unpack, under a cap of nothing.
  assert.deepEqual({ ...inflateRawCapped(deflateRawSync(Buffer.alloc(0)), 0), data: undefined }, { data: undefined, corrupt: false, finished: true });
});

test("data that unpacks past its cap is refused with InflatedPastCap, one byte over included", () => {
  assert.throws(() => inflateRawCapped(packed, text.length - 1), InflatedPastCap);
  // A bomb: 64 MB of one byte in about 64 KB, against a 1 MB cap.
  const bomb = deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 0x41));
  const before = process.memoryUsage().arrayBuffers;
  assert.throws(() => inflateRawCapped(bomb, 1024 * 1024), InflatedPastCap);
  // Refused while it unpacks, not after: what it took is about the cap (unpacking it all first would take 64 MB).
  const took = process.memoryUsage().arrayBuffers - before;
  assert.ok(took < 16 * 1024 * 1024, `${(took / 1024 / 1024).toFixed(1)} MB taken`);
});

test("a truncated stream gives what it holds, not finished; bytes that are not deflate are corrupt", () => {
  const truncated = inflateRawCapped(packed.subarray(0, Math.floor(packed.length / 2)), text.length);
  assert.deepEqual([truncated.corrupt, truncated.finished], [false, false]);
  assert.equal(inflateRawCapped(packed.subarray(0, packed.length - 1), text.length).finished, false, "one byte short");
  assert.ok(truncated.data.length > 0 && truncated.data.length < text.length, `${truncated.data.length} bytes`);
  assert.ok(text.subarray(0, truncated.data.length).equals(truncated.data), "a prefix of the text");
  // Block type 3 is reserved: no deflate stream starts with it.
  assert.equal(inflateRawCapped(Buffer.from([0xff, 0xff, 0xff, 0xff]), 1024).corrupt, true);
});

test("a .docx entry cut short by a byte, or unpacking to less than it declares, is refused; a whole one passes", () => {
  const whole = deflated("word/document.xml", text);
  const check = (entry: typeof whole) => {
    const zip = buildZip([entry]);
    verifyZipContents(zip, "cut.docx", inspectZip(zip, "cut.docx", NO_LIMITS));
  };
  check(whole);
  assert.throws(() => check({ ...whole, packed: whole.packed.subarray(0, -1) }), /entry word\/document\.xml cannot be unpacked: its data ends early/);
  assert.throws(
    () => check({ ...whole, declaredSize: text.length + 10 }),
    new RegExp(`entry word/document\\.xml unpacks to ${text.length} bytes, not its declared ${text.length + 10}`),
  );
});
