/** The metadata database's file in the data directory (the default `metadata_store_uri`). */
export const DATABASE_FILE = "chunkeval.sqlite";

/** The cache's file in `cache_dir`. */
export const CACHE_FILE = "cache.sqlite";
