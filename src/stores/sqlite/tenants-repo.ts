import type { Db } from "./database.js";
import { apiKeyFromRow, tenantDomainFromRow } from "../rows.js";
import type { ApiKeyRecord, Tenant, TenantDomain } from "../../domain/ports/tenants.js";
export type { ApiKeyRecord, Tenant, TenantDomain };

/** Tenants, their API keys (salted hashes only) and their domains. Every read is by tenant. */
export class SqliteTenantsRepo {
  constructor(private readonly db: Db) {}

  createTenant(t: Tenant): void {
    this.db.prepare(`INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)`).run(t.id, t.name, t.createdAt);
  }

  tenantByName(name: string): Tenant | null {
    const r = this.db.prepare(`SELECT id, name, created_at FROM tenants WHERE name = ? OR id = ?`).get(name, name) as Record<string, string> | undefined;
    return r ? { id: r.id!, name: r.name!, createdAt: r.created_at! } : null;
  }

  listTenants(): Tenant[] {
    return (this.db.prepare(`SELECT id, name, created_at FROM tenants ORDER BY created_at, rowid`).all() as Array<Record<string, string>>).map((r) => ({
      id: r.id!,
      name: r.name!,
      createdAt: r.created_at!,
    }));
  }

  createKey(k: ApiKeyRecord): void {
    this.db
      .prepare(`INSERT INTO api_keys (id, tenant_id, salt, hash, scopes_json, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(k.id, k.tenantId, k.salt, k.hash, JSON.stringify(k.scopes), k.createdAt);
  }

  key(id: string): ApiKeyRecord | null {
    const r = this.db.prepare(`SELECT * FROM api_keys WHERE id = ?`).get(id) as Record<string, string | null> | undefined;
    return r ? apiKeyFromRow(r) : null;
  }

  listKeys(): ApiKeyRecord[] {
    return (this.db.prepare(`SELECT * FROM api_keys ORDER BY created_at, rowid`).all() as Array<Record<string, string | null>>).map(apiKeyFromRow);
  }

  revokeKey(id: string, at: string): boolean {
    return this.db.prepare(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`).run(at, id).changes > 0;
  }

  insertDomain(d: TenantDomain): boolean {
    return (
      this.db
        .prepare(`INSERT OR IGNORE INTO tenant_domains (tenant_id, domain, display_name, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(d.tenantId, d.domain, d.displayName, d.status, d.createdAt, d.updatedAt).changes > 0
    );
  }

  domain(tenantId: string, domain: string): TenantDomain | null {
    const r = this.db.prepare(`SELECT * FROM tenant_domains WHERE tenant_id = ? AND domain = ?`).get(tenantId, domain) as Record<string, string> | undefined;
    return r ? tenantDomainFromRow(r) : null;
  }

  /** One page of a tenant's domains by name, with the total: paged in SQL, whatever the count. */
  listDomains(tenantId: string, offset: number, limit: number): { items: TenantDomain[]; total: number } {
    const rows = this.db
      .prepare(`SELECT *, COUNT(*) OVER () AS total FROM tenant_domains WHERE tenant_id = ? ORDER BY domain LIMIT ? OFFSET ?`)
      .all(tenantId, limit, offset) as Array<Record<string, string> & { total: number }>;
    const total = rows[0]?.total ?? (this.db.prepare(`SELECT COUNT(*) AS n FROM tenant_domains WHERE tenant_id = ?`).get(tenantId) as { n: number }).n;
    return { items: rows.map(tenantDomainFromRow), total };
  }

  updateDomain(tenantId: string, domain: string, changes: { displayName?: string; status?: "active" | "disabled" }, at: string): TenantDomain | null {
    const current = this.domain(tenantId, domain);
    if (!current) return null;
    this.db
      .prepare(`UPDATE tenant_domains SET display_name = ?, status = ?, updated_at = ? WHERE tenant_id = ? AND domain = ?`)
      .run(changes.displayName ?? current.displayName, changes.status ?? current.status, at, tenantId, domain);
    return this.domain(tenantId, domain);
  }
}
