import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { InflatedPastCap, inflateRawCapped } from "../../src/parsers/inflate-raw.js";

const text = Buffer.from("Harbor Light staff take leave in whole days. ".repeat(5_000));
const packed = deflateRawSync(text);

test("raw deflate data unpacks to the bytes node:zlib packed, up to a cap of exactly its size", () => {
  const { data, corrupt } = inflateRawCapped(packed, text.length);
  assert.equal(corrupt, false);
  assert.ok(data.equals(text));
});

test("data that unpacks past its cap is refused with InflatedPastCap, one byte over included", () => {
  assert.throws(() => inflateRawCapped(packed, text.length - 1), InflatedPastCap);
  // A bomb: 64 MB of one byte in about 64 KB, against a 1 MB cap.
  const bomb = deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 0x41));
  assert.throws(() => inflateRawCapped(bomb, 1024 * 1024), InflatedPastCap);
});

test("a truncated stream gives what it holds; bytes that are not deflate are corrupt", () => {
  const truncated = inflateRawCapped(packed.subarray(0, Math.floor(packed.length / 2)), text.length);
  assert.equal(truncated.corrupt, false);
  assert.ok(truncated.data.length > 0 && truncated.data.length < text.length, `${truncated.data.length} bytes`);
  assert.ok(text.subarray(0, truncated.data.length).equals(truncated.data), "a prefix of the text");
  // Block type 3 is reserved: no deflate stream starts with it.
  assert.equal(inflateRawCapped(Buffer.from([0xff, 0xff, 0xff, 0xff]), 1024).corrupt, true);
});
