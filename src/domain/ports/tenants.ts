export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  salt: string;
  hash: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface TenantDomain {
  tenantId: string;
  domain: string;
  displayName: string;
  status: "active" | "disabled";
  createdAt: string;
  updatedAt: string;
}

/** Tenants, their API keys (salted hashes only) and their domains. Every read is by tenant. */
export interface TenantsRepo {
  createTenant(t: Tenant): Promise<void>;
  /** A tenant by name or id. */
  tenantByName(name: string): Promise<Tenant | null>;
  listTenants(): Promise<Tenant[]>;
  createKey(k: ApiKeyRecord): Promise<void>;
  key(id: string): Promise<ApiKeyRecord | null>;
  listKeys(): Promise<ApiKeyRecord[]>;
  revokeKey(id: string, at: string): Promise<boolean>;
  /** False when the tenant already has this domain. */
  insertDomain(d: TenantDomain): Promise<boolean>;
  domain(tenantId: string, domain: string): Promise<TenantDomain | null>;
  /** One page of a tenant's domains by name, with the total. */
  listDomains(tenantId: string, offset: number, limit: number): Promise<{ items: TenantDomain[]; total: number }>;
  updateDomain(tenantId: string, domain: string, changes: { displayName?: string; status?: "active" | "disabled" }, at: string): Promise<TenantDomain | null>;
}
