/**
 * What scripts/run-tests.mjs makes once per test run, before the lanes start, and hands to every
 * test process by environment:
 * - one PostgreSQL server (./postgres.ts) with a database migrated to the metadata store's schema,
 *   kept as a template: each test database is a copy of it, or empty for the tests that migrate;
 * - one embedding cache folder for every test process, loaded with the bundled model's vectors
 *   kept in the repository (./vector-fixture.ts). The runner warms it in the lanes
 *   (./warm-cache.ts) while the files that need no model run; a test whose subject is the cache
 *   or the embedder names a folder of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { metadataBackendFor } from "../../src/stores/metadata/registry.js";
import { RUN_CACHE_DIR } from "./cli.js";
import { RUN_POSTGRES_TEMPLATE, RUN_POSTGRES_URI, postgresBinaries, startPostgres } from "./postgres.js";
import { COLD_CACHE, VECTOR_FIXTURE, cacheVectors, cachedVectorCount, seedCache, writeVectorFixture } from "./vector-fixture.js";

/** Set to a path by scripts/refresh-test-vectors.mjs: the run's bundled-model vectors are written there as a fixture when it stops. */
export const EXPORT_VECTORS = "CHUNKEVAL_TEST_EXPORT_VECTORS";

export interface RunFixtures {
  /** The variables that point test processes at the fixtures. */
  env: Record<string, string>;
  /** One line saying what was made. */
  summary: string;
  stop(): Promise<void>;
}

const TEMPLATE = "chunkeval_template";
export async function startRunFixtures(options: { postgres: boolean }): Promise<RunFixtures> {
  const cacheDir = mkdtempSync(join(tmpdir(), "chunkeval-test-cache-"));
  const env: Record<string, string> = { [RUN_CACHE_DIR]: cacheDir };
  const said: string[] = [];
  const seeded = process.env[COLD_CACHE] ? 0 : seedCache(cacheDir);
  // Without PostgreSQL's binaries the run goes on: the files that need a server fail, each with
  // the command that installs them, and the rest pass or fail on their own.
  let installed = true;
  try {
    postgresBinaries();
  } catch (error) {
    installed = false;
    said.push(`no PostgreSQL server: ${(error as Error).message}`);
  }
  const postgres = options.postgres && installed ? await startPostgres() : undefined;
  try {
    if (postgres) {
      const uri = await postgres.createDatabase();
      const store = await metadataBackendFor(uri).open(uri, { cacheDir });
      await store.close();
      // The template is the migrated database renamed: CREATE DATABASE … TEMPLATE copies it, which
      // needs no session on it (nothing connects to it after this).
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: postgres.uri });
      await client.connect();
      try {
        await client.query(`ALTER DATABASE ${new URL(uri).pathname.slice(1)} RENAME TO ${TEMPLATE}`);
      } finally {
        await client.end();
      }
      env[RUN_POSTGRES_URI] = postgres.uri;
      env[RUN_POSTGRES_TEMPLATE] = TEMPLATE;
      said.push(`PostgreSQL at ${postgres.uri} with template ${TEMPLATE}`);
    }
    said.push(
      `embedding cache ${cacheDir} (${seeded > 0 ? `${seeded} vectors of the bundled model from ${relative(process.cwd(), VECTOR_FIXTURE)}` : "empty"})`,
    );
  } catch (error) {
    await postgres?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
    throw error;
  }
  return {
    env,
    summary: said.join("; "),
    async stop() {
      await postgres?.stop();
      try {
        const exportTo = process.env[EXPORT_VECTORS];
        const kept = exportTo ? cacheVectors(cacheDir, "use") : undefined;
        const count = cachedVectorCount(cacheDir, "use");
        if (exportTo && kept) {
          writeVectorFixture(kept, exportTo);
          console.log(`${kept.vectors.size} vectors of the bundled model written to ${exportTo}`);
        } else if (count > seeded && seeded > 0) {
          // Texts the fixture lacks were embedded afresh (a strategy's chunks changed): correct, only slower.
          const fixture = relative(process.cwd(), VECTOR_FIXTURE);
          console.log(`the run embedded ${count - seeded} texts that ${fixture} lacks: npm run test:refresh-vectors makes it again`);
        }
      } finally {
        rmSync(cacheDir, { recursive: true, force: true });
      }
    },
  };
}
