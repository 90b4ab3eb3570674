import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

test("tenants and keys from the CLI: the secret is printed once, listed never, and revocable", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-tenants-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data") };
  try {
    assert.equal((await runCli(["tenants", "create", "acme"], env)).code, 0);
    const dup = await runCli(["tenants", "create", "acme"], env);
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /tenant already exists: acme/);
    assert.deepEqual(
      JSON.parse((await runCli(["tenants", "list", "--json"], env)).stdout).items.map((t: any) => t.name),
      ["acme"],
    );

    const created = await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,domains:read"], env);
    assert.equal(created.code, 0, created.stderr);
    const secret = created.stdout.trim().split("\n").at(-1)!;
    assert.match(secret, /^cek_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const listed = await runCli(["keys", "list", "--json"], env);
    // The secret part is everything after the id (it may itself hold "_", so not a split on it).
    const secretPart = secret.slice("cek_".length + 12 + 1);
    assert.equal(secretPart.length, 43);
    assert.ok(!listed.stdout.includes(secretPart), "the secret is never shown again");
    const key = JSON.parse(listed.stdout).items[0];
    assert.deepEqual(key.scopes, ["files:write", "domains:read"]);
    assert.equal("hash" in key || "salt" in key, false);

    const badScope = await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,admin"], env);
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /unknown: admin/);
    assert.equal((await runCli(["keys", "create", "--tenant", "nobody", "--scopes", "files:write"], env)).code, 3);

    assert.equal((await runCli(["keys", "revoke", key.id], env)).code, 0);
    assert.equal(JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout).items[0].revoked_at !== null, true);
    assert.equal((await runCli(["keys", "revoke", key.id], env)).code, 3, "already revoked");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
