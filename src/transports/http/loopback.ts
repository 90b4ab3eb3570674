import { isIP } from "node:net";

/**
 * Whether an address is this machine's own (127.0.0.0/8, ::1, an IPv4-mapped loopback, or the
 * name localhost): what only local processes can reach. Anything else, 0.0.0.0 and :: included,
 * is reachable from the network.
 */
export function isLoopback(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  const v4 = host.startsWith("::ffff:") ? host.slice("::ffff:".length) : host;
  return isIP(v4) === 4 && v4.startsWith("127.");
}
