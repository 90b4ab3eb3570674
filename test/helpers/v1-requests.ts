// Requests of the /v1 tests (test/http/v1*.test.ts): keys of two tenants, a file upload, and a
// count read until the work that failed has cleaned up.
import type { TestServer } from "./server.js";

/**
 * A count that failed work brings to 0 once it has cleaned up, read until it is 0 or 10 s have
 * passed: the answer can come first (on PostgreSQL the process that ran the ingestion job removes
 * what it wrote after the replica that waited has answered).
 */
export async function settled(read: () => Promise<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const n = await read();
    if (n === 0) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

export async function keysFor(t: TestServer) {
  const tenants = t.ws.app.tenants;
  await tenants.createTenant("acme");
  await tenants.createTenant("globex");
  const mk = async (tenant: string, scopes: string[]) => `Bearer ${(await tenants.createApiKey(tenant, scopes)).secret}`;
  return {
    admin: await mk("acme", ["files:write", "domains:read", "domains:write"]),
    uploader: await mk("acme", ["files:write"]),
    reader: await mk("acme", ["domains:read"]),
    other: await mk("globex", ["files:write", "domains:read", "domains:write"]),
  };
}

export async function uploadFile(t: TestServer, auth: string, domain: string | null, filename: string, bytes: Buffer, extra: Record<string, string> = {}) {
  const form = new FormData();
  if (domain !== null) form.append("domain", domain);
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append("file", new Blob([bytes]), filename);
  const r = await fetch(`${t.url}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
  return { status: r.status, body: (await r.json()) as any, headers: r.headers };
}
