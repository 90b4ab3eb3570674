/**
 * Shapes shared by the four parts of the second evaluation corpus (examples/standard/, built by
 * examples/build-standard.ts): a fictional regional water authority's technical standard for
 * drinking-water works. Every fact, name and number in it is invented.
 * ASCII only: Part 1 is a PDF set in the standard Helvetica font with WinAnsi encoding. Generated
 * table rows (registers, the zone programme) come from a seeded generator, the same on every build.
 */
export type Part = string | { list: string[] } | { table: string[][] };
export interface Section {
  heading: string;
  /** 1: a numbered clause ("14. Raw water pumps"); 2: a sub-clause ("14.3 Inspection intervals for raw water pumps"). */
  level: 1 | 2;
  parts: Part[];
}
