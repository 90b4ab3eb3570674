/**
 * Shapes shared by the three parts of the second evaluation corpus (examples/standard/, built by
 * examples/build-standard.ts): a fictional regional water authority's technical standard for
 * drinking-water works. Every fact, name and number in it is invented.
 * ASCII only: Part 1 is a PDF set in the standard Helvetica font with WinAnsi encoding.
 */
export type Part = string | { list: string[] } | { table: string[][] };
export interface Section {
  heading: string;
  /** 1: a numbered clause ("14. Raw water pumps"); 2: a sub-clause ("14.3 Inspection intervals for raw water pumps"). */
  level: 1 | 2;
  parts: Part[];
}

/** A small seeded generator (mulberry32), so that generated table rows are the same on every build. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
