import type { Command } from "commander";
import { withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable } from "../output.js";
import { SCOPES } from "../../../api/v1.js";

export function registerTenantCommands(program: Command): void {
  const tenants = program.command("tenants").description("manage tenants of the /v1 ingestion surface");
  tenants
    .command("create")
    .description("create a tenant")
    .argument("<name>", "tenant name (letters, digits, . _ -)")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, _o, command: Command) => {
      await withChunkeval(command, async (app) => {
        const tenant = await app.tenants.createTenant(name);
        if (command.optsWithGlobals<GlobalOptions>().json) printJson(tenant);
        else printLine(`created tenant ${tenant.name} (${tenant.id})`);
      });
    });
  tenants
    .command("list")
    .description("list tenants")
    .option("--json", "print only JSON on stdout")
    .action(async (_o, command: Command) => {
      await withChunkeval(command, async (app) => {
        const all = await app.tenants.listTenants();
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson({ items: all, total: all.length });
        printTable(
          ["id", "name", "created_at"],
          all.map((t) => [t.id, t.name, t.createdAt]),
        );
      });
    });

  const keys = program.command("keys").description("manage API keys of the /v1 ingestion surface");
  keys
    .command("create")
    .description("create an API key; the secret is printed once and only a salted hash is stored")
    .requiredOption("--tenant <name>", "tenant name or id")
    .requiredOption("--scopes <list>", `comma-separated: ${SCOPES.join(", ")}`)
    .option("--json", "print only JSON on stdout")
    .action(async (options: { tenant: string; scopes: string }, command: Command) => {
      await withChunkeval(command, async (app) => {
        const key = await app.tenants.createApiKey(
          options.tenant,
          options.scopes
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        );
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson(key);
        printLine(`key ${key.keyId} for tenant ${options.tenant}, scopes ${key.scopes.join(", ")}`);
        printLine(`secret (shown once; send as "Authorization: Bearer <secret>"):`);
        printLine(key.secret);
      });
    });
  keys
    .command("list")
    .description("list API keys (never their secrets)")
    .option("--json", "print only JSON on stdout")
    .action(async (_o, command: Command) => {
      await withChunkeval(command, async (app) => {
        const all = await app.tenants.listKeys();
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson({ items: all, total: all.length });
        printTable(
          ["key id", "tenant", "scopes", "created_at", "revoked_at"],
          all.map((k) => [k.id, k.tenantId, k.scopes.join(","), k.createdAt, k.revokedAt ?? "-"]),
        );
      });
    });
  keys
    .command("revoke")
    .description("revoke an API key")
    .argument("<key_id>", "key id")
    .action(async (id: string, _o, command: Command) => {
      await withChunkeval(command, async (app) => {
        await app.tenants.revokeKey(id);
        printLine(`revoked ${id}`);
      });
    });
}
