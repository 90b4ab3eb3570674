import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Owner } from "../domain/ports/owner.js";

export type { Owner };

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
