import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/**
 * Who is doing a piece of work that other processes sharing the data directory can see: a
 * pending generation, a background job, an ingestion job. Several chunkeval processes (a
 * server and any number of CLI commands) may use one data directory at once, so cleanup may
 * only remove work whose owner is provably gone (stores/README.md, "Several processes").
 */
export interface Owner {
  /** Random per opened chunkeval instance: tells two instances inside one process apart. */
  instance: string;
  pid: number;
  host: string;
}

export function currentOwner(): Owner {
  return { instance: `ins_${randomBytes(8).toString("hex")}`, pid: process.pid, host: hostname() };
}

/** True when `pid` names a running process on this machine (EPERM: it exists, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * An owner is gone when it ran on this machine and its process no longer exists. Owners on
 * other machines are never judged by process id; their work is reclaimed only by age (see
 * the callers' bounds).
 */
export function ownerGone(owner: { pid: number | null; host: string | null }, me: Owner): boolean {
  if (owner.pid === null || owner.host === null) return true; // rows written before owners were recorded
  if (owner.host !== me.host) return false;
  return !processAlive(owner.pid);
}
