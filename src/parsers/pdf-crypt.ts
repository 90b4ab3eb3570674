import { createDecipheriv, createCipheriv, createHash } from "node:crypto";

/**
 * Decryption of a PDF's streams for the pre-read checks of pdf-streams.ts, when the PDF is
 * encrypted with the standard security handler but opens without a password (an empty user
 * password: "restrictions only" files, which pdfjs opens as readily as plain ones). Without
 * this, a bomb inside such a file would be checked as ciphertext, found not to inflate, and
 * reach pdfjs unchecked. A file that needs a password is left alone here: pdfjs refuses it as
 * encrypted (it does not try an empty owner password either). PDF 1.7 7.6.3 (RC4 and AES-128,
 * R2-R4) and ISO 32000-2 7.6.4 (AES-256, R5-R6).
 */

/** Decrypts stream `num gen`'s data; null when it cannot (the stream is then checked as it is). */
export type StreamDecryptor = (num: number, gen: number, data: Buffer) => Buffer | null;

const PAD = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");

const md5 = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), createHash("md5")).digest();

/** RC4, written out: OpenSSL 3 no longer offers it by default. */
export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.allocUnsafe(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

/** AES-CBC with the IV as the data's first 16 bytes (PDF's layout), padding stripped when valid. */
function aesDecrypt(key: Buffer, data: Buffer): Buffer | null {
  if (data.length < 32) return null;
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  const decipher = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16)).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(body), decipher.final()]);
  const pad = plain[plain.length - 1]!;
  return pad >= 1 && pad <= 16 ? plain.subarray(0, plain.length - pad) : plain;
}

/** A PDF string value of `key` in a dictionary's text (hex or literal), or null. */
function pdfString(dict: string, key: string): Buffer | null {
  const m = new RegExp(`/${key}(?![A-Za-z0-9])\\s*([<(])`).exec(dict);
  if (!m) return null;
  let i = m.index + m[0].length;
  if (m[1] === "<") {
    const hex = dict.slice(i, dict.indexOf(">", i)).replace(/[^0-9a-fA-F]/g, "");
    return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
  }
  const out: number[] = [];
  for (let depth = 1; i < dict.length;) {
    const c = dict[i++]!;
    if (c === "\\") {
      const n = dict[i++] ?? "";
      const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
      if (n in escapes) out.push(escapes[n]!);
      else if (/[0-7]/.test(n)) {
        let octal = n;
        while (octal.length < 3 && /[0-7]/.test(dict[i] ?? "")) octal += dict[i++];
        out.push(parseInt(octal, 8) & 255);
      } else if (n === "\r") {
        if (dict[i] === "\n") i++;
      } else if (n !== "\n") out.push(n.charCodeAt(0));
    } else if (c === "(") {
      depth++;
      out.push(40);
    } else if (c === ")") {
      if (--depth === 0) break;
      out.push(41);
    } else out.push(c.charCodeAt(0));
  }
  return Buffer.from(out);
}

const intOf = (dict: string, key: string, fallback: number) => {
  const m = new RegExp(`/${key}\\s+(-?\\d+)`).exec(dict);
  return m ? Number(m[1]) : fallback;
};

/** Algorithm 2.B (R6): the iterated SHA-2 hash of a password with a salt (and, for the owner, U). */
function hashR6(password: Buffer, salt: Buffer, udata: Buffer): Buffer {
  let k = createHash("sha256").update(password).update(salt).update(udata).digest();
  for (let i = 0; ; i++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, udata])));
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let j = 0; j < 16; j++) sum += e[j]!;
    k = createHash(["sha256", "sha384", "sha512"][sum % 3]!)
      .update(e)
      .digest();
    if (i >= 63 && e[e.length - 1]! <= i - 31) break;
  }
  return k.subarray(0, 32);
}

/** The file key of an R5/R6 file whose user password is empty, or null. */
function aes256FileKey(dict: string, revision: number): Buffer | null {
  const u = pdfString(dict, "U");
  const ue = pdfString(dict, "UE");
  if (!u || u.length < 48) return null;
  const empty = Buffer.alloc(0);
  const hash = (salt: Buffer, udata: Buffer) => (revision >= 6 ? hashR6(empty, salt, udata) : createHash("sha256").update(salt).update(udata).digest());
  const unwrap = (key: Buffer, wrapped: Buffer | null) => {
    if (!wrapped || wrapped.length < 32) return null;
    const decipher = createDecipheriv("aes-256-cbc", key, Buffer.alloc(16)).setAutoPadding(false);
    return Buffer.concat([decipher.update(wrapped.subarray(0, 32)), decipher.final()]);
  };
  return hash(u.subarray(32, 40), empty).equals(u.subarray(0, 32)) ? unwrap(hash(u.subarray(40, 48), empty), ue) : null;
}

/** The file key of an R2-R4 file whose user password is empty, or null. */
function rc4EraFileKey(dict: string, revision: number, id0: Buffer): Buffer | null {
  const o = pdfString(dict, "O");
  const u = pdfString(dict, "U");
  if (!o || !u || o.length < 32 || u.length < 16) return null;
  const length = revision === 2 ? 5 : Math.max(5, Math.min(16, intOf(dict, "Length", 40) / 8));
  const p = Buffer.alloc(4);
  p.writeInt32LE(intOf(dict, "P", -4) | 0);
  const noMetadata = revision >= 4 && /\/EncryptMetadata\s+false/.test(dict);
  const keyFor = (paddedUser: Buffer) => {
    let h: Buffer = md5(paddedUser, o.subarray(0, 32), p, id0, noMetadata ? Buffer.from([255, 255, 255, 255]) : Buffer.alloc(0));
    if (revision >= 3) for (let i = 0; i < 50; i++) h = md5(h.subarray(0, length));
    return h.subarray(0, length);
  };
  const userMatches = (key: Buffer) => {
    if (revision === 2) return rc4(key, PAD).equals(u.subarray(0, 32));
    let x: Buffer = md5(PAD, id0);
    for (let i = 0; i < 20; i++) x = rc4(Buffer.from(key.map((b) => b ^ i)), x);
    return x.equals(u.subarray(0, 16));
  };
  const key = keyFor(PAD);
  return userMatches(key) ? key : null;
}

/**
 * The decryptor of a PDF's streams, from its last trailer's /Encrypt and /ID; null when the file
 * is not encrypted, needs a password, or uses a security handler other than the standard one.
 */
export function streamDecryptor(text: string, objectText: (num: string, gen: string) => string): StreamDecryptor | null {
  const refs = [...text.matchAll(/\/Encrypt\s*(?:(\d+)\s+(\d+)\s+R|(<<))/g)];
  const last = refs[refs.length - 1];
  if (!last) return null;
  const dict = last[3] ? text.slice(last.index!, last.index! + 4096) : objectText(last[1]!, last[2]!);
  if (!/\/Filter\s*\/Standard/.test(dict)) return null;
  const version = intOf(dict, "V", 0);
  const revision = intOf(dict, "R", 2);
  const cipherName = version >= 4 ? (/\/CFM\s*\/(\w+)/.exec(dict)?.[1] ?? "None") : "V2";
  if (/\/StmF\s*\/Identity/.test(dict) || cipherName === "None") return null;
  if (version >= 5) {
    const key = aes256FileKey(dict, revision);
    return key ? (_num, _gen, data) => aesDecrypt(key, data) : null;
  }
  const ids = [...text.matchAll(/\/ID\s*\[\s*(<[0-9a-fA-F\s]*>|\((?:\\[\s\S]|[^\\)])*\))/g)];
  const id = ids[ids.length - 1];
  const id0 = id ? (pdfString(`/ID ${id[1]}`, "ID") ?? Buffer.alloc(0)) : Buffer.alloc(0);
  const fileKey = rc4EraFileKey(dict, revision, id0);
  if (!fileKey) return null;
  const aes = cipherName === "AESV2";
  return (num, gen, data) => {
    const ref = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, gen & 255, (gen >> 8) & 255]);
    const objectKey = md5(fileKey, ref, aes ? Buffer.from("sAlT") : Buffer.alloc(0)).subarray(0, Math.min(fileKey.length + 5, 16));
    return aes ? aesDecrypt(objectKey, data) : rc4(objectKey, data);
  };
}
