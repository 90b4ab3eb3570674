import type { ApiKeyRecord, Tenant, TenantDomain, TenantsRepo } from "../../domain/ports/tenants.js";
import type { Executor } from "./executor.js";
import { apiKeyFromRow, tenantDomainFromRow } from "../rows.js";

const toTenant = (r: Record<string, string>): Tenant => ({ id: r.id!, name: r.name!, createdAt: r.created_at! });

/** Tenants, their API keys (salted hashes only) and their domains. Every read is by tenant. */
export class PostgresTenantsRepo implements TenantsRepo {
  constructor(private readonly db: Executor) {}

  async createTenant(t: Tenant): Promise<void> {
    await this.db.query(`INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)`, [t.id, t.name, t.createdAt]);
  }

  async tenantByName(name: string): Promise<Tenant | null> {
    const { rows } = await this.db.query<Record<string, string>>(`SELECT id, name, created_at FROM tenants WHERE name = $1 OR id = $1 ORDER BY seq LIMIT 1`, [
      name,
    ]);
    return rows[0] ? toTenant(rows[0]) : null;
  }

  async listTenants(): Promise<Tenant[]> {
    return (await this.db.query<Record<string, string>>(`SELECT id, name, created_at FROM tenants ORDER BY created_at COLLATE "C", seq`)).rows.map(toTenant);
  }

  async createKey(k: ApiKeyRecord): Promise<void> {
    await this.db.query(`INSERT INTO api_keys (id, tenant_id, salt, hash, scopes_json, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      k.id,
      k.tenantId,
      k.salt,
      k.hash,
      JSON.stringify(k.scopes),
      k.createdAt,
    ]);
  }

  async key(id: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.db.query<Record<string, string | null>>(`SELECT * FROM api_keys WHERE id = $1`, [id]);
    return rows[0] ? apiKeyFromRow(rows[0]) : null;
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (await this.db.query<Record<string, string | null>>(`SELECT * FROM api_keys ORDER BY created_at COLLATE "C", seq`)).rows.map(apiKeyFromRow);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return (await this.db.query(`UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, [at, id])).rowCount > 0;
  }

  async insertDomain(d: TenantDomain): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO tenant_domains (tenant_id, domain, display_name, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, domain) DO NOTHING`,
      [d.tenantId, d.domain, d.displayName, d.status, d.createdAt, d.updatedAt],
    );
    return rowCount > 0;
  }

  async domain(tenantId: string, domain: string): Promise<TenantDomain | null> {
    const { rows } = await this.db.query<Record<string, string>>(`SELECT * FROM tenant_domains WHERE tenant_id = $1 AND domain = $2`, [tenantId, domain]);
    return rows[0] ? tenantDomainFromRow(rows[0]) : null;
  }

  async listDomains(tenantId: string, offset: number, limit: number): Promise<{ items: TenantDomain[]; total: number }> {
    const { rows } = await this.db.query<Record<string, string>>(
      `SELECT * FROM tenant_domains WHERE tenant_id = $1 ORDER BY domain COLLATE "C" LIMIT $2 OFFSET $3`,
      [tenantId, limit, offset],
    );
    const total = (await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM tenant_domains WHERE tenant_id = $1`, [tenantId])).rows[0]!.n;
    return { items: rows.map(tenantDomainFromRow), total };
  }

  /** One statement: a change that names neither field keeps the stored values. */
  async updateDomain(
    tenantId: string,
    domain: string,
    changes: { displayName?: string; status?: "active" | "disabled" },
    at: string,
  ): Promise<TenantDomain | null> {
    const { rows } = await this.db.query<Record<string, string>>(
      `UPDATE tenant_domains SET display_name = COALESCE($1, display_name), status = COALESCE($2, status), updated_at = $3
       WHERE tenant_id = $4 AND domain = $5 RETURNING *`,
      [changes.displayName ?? null, changes.status ?? null, at, tenantId, domain],
    );
    return rows[0] ? tenantDomainFromRow(rows[0]) : null;
  }
}
