import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeChunkeval, type Chunkeval, type ChunkevalInternals, type CompositionExtensions } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { sharedCacheDir } from "./cli.js";
import { testMetadataStoreUri } from "./test-metadata-store.js";

export interface Workspace {
  dir: string;
  /** The facade, as the transports see it. */
  app: Chunkeval;
  /** The stores behind it, for tests that check what was written. */
  internals: ChunkevalInternals;
  /**
   * Closes the app and reopens it over the same data directory and metadata store (a process restart), with `flags`
   * changed if given, composed with `extensions` (default: the workspace's).
   */
  reopen(flags?: Record<string, string | number>, extensions?: CompositionExtensions): Promise<Chunkeval>;
  cleanup(): Promise<void>;
}

/**
 * A chunkeval instance over a fresh temporary data directory (real SQLite file, or with
 * CHUNKEVAL_TEST_METADATA_STORE=postgres a real PostgreSQL database; real LanceDB folder). The
 * hash embedder keeps tests fast unless a test asks for another; the embedding cache is the test
 * run's warm one unless the test names its own cache_dir.
 */
export async function createWorkspace(
  flags: Record<string, string | number> = {},
  env: NodeJS.ProcessEnv = {},
  options: { ownCache?: boolean; extensions?: CompositionExtensions } = {},
): Promise<Workspace> {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-test-"));
  // CHUNKEVAL_TEST_METADATA_STORE=postgres: a fresh PostgreSQL database instead of the data directory's SQLite file.
  const metadataStoreUri = "metadata_store_uri" in flags ? undefined : await testMetadataStoreUri();
  // ownCache: the default cache folder under this data directory (a test whose subject is what gets cached).
  const cacheDir = options.ownCache ? undefined : sharedCacheDir(flags.cache_dir === undefined ? env.CHUNKEVAL_CACHE_DIR : String(flags.cache_dir));
  const load = (changed: Record<string, string | number> = {}) =>
    loadConfig({
      cwd: dir,
      env: { CHUNKEVAL_EMBEDDER_WORKERS: "0", ...env },
      flags: {
        data_dir: join(dir, "data"),
        embedder: "hash",
        questions_dir: join(dir, "questions"),
        ...(metadataStoreUri ? { metadata_store_uri: metadataStoreUri } : {}),
        ...(cacheDir ? { cache_dir: cacheDir } : {}),
        ...flags,
        ...changed,
      },
    }).config;
  const first = await composeChunkeval(load(), options.extensions);
  const ws: Workspace = {
    dir,
    app: first.app,
    internals: first.internals,
    async reopen(changed, extensions = options.extensions) {
      await ws.app.close();
      const next = await composeChunkeval(load(changed), extensions);
      ws.app = next.app;
      ws.internals = next.internals;
      return ws.app;
    },
    async cleanup() {
      await ws.app.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return ws;
}
