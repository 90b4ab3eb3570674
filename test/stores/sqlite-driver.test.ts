import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Database } from "../../src/stores/sqlite/driver.js";

const require = createRequire(import.meta.url);

test("the SQLite driver is better-sqlite3 13 on Node 22 and later, 12 (better-sqlite3-12) on Node 20, and it works", () => {
  const major = Number(process.versions.node.split(".")[0]);
  const expected = major >= 22 ? "better-sqlite3" : "better-sqlite3-12";
  assert.equal(Database, require(expected));
  assert.equal(Number((require(`${expected}/package.json`) as { version: string }).version.split(".")[0]), major >= 22 ? 13 : 12);
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (x INTEGER)");
  const insert = db.prepare("INSERT INTO t VALUES (?)");
  for (let i = 0; i < 100; i++) insert.run(i);
  assert.deepEqual(db.prepare("SELECT count(*) AS n, sum(x) AS total FROM t").get(), { n: 100, total: 4950 });
  db.close();
});
