import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AuthenticationError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { TenantDomain, TenantsRepo } from "../../domain/ports/tenants.js";

/** Scopes of /v1 keys (SPEC §5), plus `points:read` for the points surface (ours). */
export const SCOPES = ["files:write", "domains:read", "domains:write", "points:read"] as const;
export type Scope = (typeof SCOPES)[number];

export interface Principal {
  tenantId: string;
  keyId: string;
  scopes: string[];
}

/**
 * Keys are `cek_<key id>_<secret>` with 32 random bytes of secret; only HMAC-SHA256(salt,
 * secret) is stored. A fast keyed hash is enough for random secrets of this length (no
 * dictionary to guess from), and keeps per-request authentication cheap.
 */
function hashSecret(salt: string, secret: string): string {
  return createHmac("sha256", salt).update(secret).digest("hex");
}

export async function createTenant(repo: TenantsRepo, name: string) {
  const clean = name.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(clean)) throw new ValidationError("tenant names are 1-64 letters, digits, dots, dashes or underscores");
  if (await repo.tenantByName(clean)) throw new ConflictError(`tenant already exists: ${clean}`);
  const tenant = { id: newId("ten"), name: clean, createdAt: nowTimestamp() };
  await repo.createTenant(tenant);
  return tenant;
}

export async function createApiKey(repo: TenantsRepo, tenantName: string, scopes: string[]) {
  const tenant = await repo.tenantByName(tenantName);
  if (!tenant) throw new NotFoundError(`tenant not found: ${tenantName}`);
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (scopes.length === 0 || unknown.length > 0)
    throw new ValidationError(`scopes must be some of ${SCOPES.join(", ")}${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}`);
  const id = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const salt = randomBytes(16).toString("hex");
  await repo.createKey({
    id,
    tenantId: tenant.id,
    salt,
    hash: hashSecret(salt, secret),
    scopes: [...new Set(scopes)],
    createdAt: nowTimestamp(),
    revokedAt: null,
  });
  return { keyId: id, tenantId: tenant.id, scopes, secret: `cek_${id}_${secret}` };
}

/** The credentials of an `Authorization: Bearer <token>` header; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1];
}

/** Resolves `Authorization: Bearer <key>` to a tenant and its scopes, or 401. */
export async function authenticate(repo: TenantsRepo, header: string | undefined): Promise<Principal> {
  const token = bearerToken(header) ?? "";
  const match = /^cek_([0-9a-f]{12})_([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) throw new AuthenticationError("missing or malformed API key (Authorization: Bearer <key>)");
  const key = await repo.key(match[1]!);
  const expected = key ? Buffer.from(key.hash, "hex") : Buffer.alloc(32);
  const given = Buffer.from(hashSecret(key?.salt ?? "", match[2]!), "hex");
  if (!key || key.revokedAt || !timingSafeEqual(expected, given)) throw new AuthenticationError("unknown or revoked API key");
  return { tenantId: key.tenantId, keyId: key.id, scopes: key.scopes };
}

export function requireScope(principal: Principal, ...anyOf: Scope[]): void {
  if (!anyOf.some((s) => principal.scopes.includes(s))) throw new ForbiddenError(`this key lacks the scope ${anyOf.join(" or ")}`);
}

const DOMAIN_RE = /^[a-z0-9]([a-z0-9.-]{0,98}[a-z0-9])?$/;

export async function createDomain(repo: TenantsRepo, tenantId: string, domain: string, displayName: string): Promise<TenantDomain> {
  if (!DOMAIN_RE.test(domain))
    throw new ValidationError("domain must be 1-100 lower-case letters, digits, dots or dashes, starting and ending with a letter or digit");
  const at = nowTimestamp();
  const record: TenantDomain = { tenantId, domain, displayName, status: "active", createdAt: at, updatedAt: at };
  if (!(await repo.insertDomain(record))) throw new ConflictError(`domain already exists: ${domain}`);
  return record;
}

export async function updateDomain(
  repo: TenantsRepo,
  tenantId: string,
  domain: string,
  changes: { displayName?: string; status?: "active" | "disabled" },
): Promise<TenantDomain> {
  const updated = await repo.updateDomain(tenantId, domain, changes, nowTimestamp());
  if (!updated) throw new NotFoundError(`domain not found: ${domain}`);
  return updated;
}

/**
 * Tenants, keys and domains as the transports use them (the CLI's `tenants`/`keys` commands and
 * the /v1 plugin): the repository stays inside.
 */
export function tenantService(repo: TenantsRepo) {
  return {
    createTenant: (name: string) => createTenant(repo, name),
    listTenants: () => repo.listTenants(),
    createApiKey: (tenant: string, scopes: string[]) => createApiKey(repo, tenant, scopes),
    /** Keys without their salt and hash. */
    listKeys: async () => (await repo.listKeys()).map(({ salt: _salt, hash: _hash, ...visible }) => visible),
    async revokeKey(id: string): Promise<void> {
      if (!(await repo.revokeKey(id, nowTimestamp()))) throw new NotFoundError(`active key not found: ${id}`);
    },
    authenticate: (authorization: string | undefined) => authenticate(repo, authorization),
    listDomains: (tenantId: string, page: { offset: number; limit: number }) => repo.listDomains(tenantId, page.offset, page.limit),
    createDomain: (tenantId: string, domain: string, displayName: string) => createDomain(repo, tenantId, domain, displayName),
    updateDomain: (tenantId: string, domain: string, changes: { displayName?: string; status?: "active" | "disabled" }) =>
      updateDomain(repo, tenantId, domain, changes),
  };
}

export type TenantService = ReturnType<typeof tenantService>;
