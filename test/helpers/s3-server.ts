/**
 * A local S3-compatible server (s3rver) on 127.0.0.1 with one bucket, standing in for a cloud
 * object store in tests. s3rver 3.7 drops the common prefixes of keys nested two or more levels
 * below the listed prefix (its directory walk prunes them before it sees an object), so a
 * delimiter listing of `lancedb/` misses `lancedb/t.lance/`: LanceDB then reports no tables.
 * The listing is corrected here by listing without the delimiter and folding keys into prefixes,
 * as S3 itself does.
 */
import type { Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
// @ts-expect-error s3rver ships no types for its internal store module
import FilesystemStore from "s3rver/lib/stores/filesystem.js";

interface ListOptions {
  delimiter?: string;
  prefix?: string;
  startAfter?: string;
  maxKeys?: number;
}
interface ListResult {
  objects: Array<{ key: string }>;
  commonPrefixes: string[];
  isTruncated: boolean;
}
type ListObjects = (this: unknown, bucket: string, options: ListOptions) => Promise<ListResult>;

let patched = false;
function fixDelimiterListing(): void {
  if (patched) return;
  patched = true;
  const proto = (FilesystemStore as { prototype: { listObjects: ListObjects } }).prototype;
  const original = proto.listObjects;
  proto.listObjects = async function (bucket, options) {
    const { delimiter, prefix = "", maxKeys = Infinity } = options;
    if (!delimiter) return original.call(this, bucket, options);
    const all = await original.call(this, bucket, { ...options, delimiter: undefined, maxKeys: Infinity });
    const commonPrefixes = new Set<string>();
    const objects = all.objects.filter((o) => {
      const idx = o.key.slice(prefix.length).indexOf(delimiter);
      if (idx === -1) return true;
      commonPrefixes.add(o.key.slice(0, prefix.length + idx + 1));
      return false;
    });
    return { objects: objects.slice(0, maxKeys), commonPrefixes: [...commonPrefixes].sort(), isTruncated: objects.length > maxKeys };
  };
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The environment LanceDB's object store reads (endpoint, region, credentials, plain HTTP). */
  env: Record<string, string>;
  /** Stops listening but keeps the objects: clients see the store gone. */
  pause(): Promise<void>;
  /** Listens again on the same port with the same objects. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = "chunkeval"): Promise<S3Server> {
  fixDelimiterListing();
  const directory = mkdtempSync(join(tmpdir(), "chunkeval-s3-"));
  const listen = async (onPort: number) => {
    const server = new S3rver({ port: onPort, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    const { port } = (await server.run()) as { port: number };
    return { server, port };
  };
  let { server, port } = await listen(0);
  let paused = false;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_ALLOW_HTTP: "true",
    },
    async pause() {
      if (paused) return;
      paused = true;
      // close() alone drops idle connections but waits for those in use to end, and the
      // replicas' object-store clients had requests under way: a pause once took three minutes.
      // An outage drops every connection at once.
      const closed = server.close();
      (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await closed;
    },
    async resume() {
      if (!paused) return;
      ({ server, port } = await listen(port));
      paused = false;
    },
    async close() {
      if (!paused) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
