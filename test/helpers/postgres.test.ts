import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { INSTALL_POSTGRES, postgresBinaries, startPostgres } from "./postgres.js";

test("without PostgreSQL's binaries the harness fails with the command that installs them", () => {
  const root = mkdtempSync(join(tmpdir(), "chunkeval-nopg-"));
  mkdirSync(join(root, "15", "bin"), { recursive: true });
  assert.throws(
    () => postgresBinaries(root),
    (error: Error) => error.message.includes(INSTALL_POSTGRES),
  );
  assert.throws(
    () => postgresBinaries(join(root, "missing")),
    (error: Error) => error.message.includes(INSTALL_POSTGRES),
  );
});

test("a throwaway server gives fresh databases on 127.0.0.1 and leaves nothing when stopped", async () => {
  const server = await startPostgres();
  const port = Number(new URL(server.uri).port);
  const folder = await (async () => {
    const client = new pg.Client({ connectionString: server.uri });
    await client.connect();
    try {
      const { rows } = await client.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'data_directory'");
      const fsync = await client.query<{ fsync: string }>("SHOW fsync");
      assert.equal(fsync.rows[0]!.fsync, "off");
      return join(rows[0]!.setting, "..");
    } finally {
      await client.end();
    }
  })();
  try {
    const first = await server.createDatabase();
    const second = await server.createDatabase();
    assert.notEqual(first, second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    await client.query("CREATE TABLE t (x INTEGER)");
    await client.end();
    const other = new pg.Client({ connectionString: second });
    await other.connect();
    const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
    await other.end();
    assert.equal(rows[0].n, 0, "a new database starts empty");
    assert.ok(existsSync(folder));
  } finally {
    await server.stop();
  }
  assert.ok(!existsSync(folder), "the temporary folder is deleted");
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(true));
  });
  assert.ok(refused, "the server no longer listens");
});
