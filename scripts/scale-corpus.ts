/**
 * Deterministic, realistic-looking Word documents for the scale benchmark: each one is a manual
 * of a fictional organisation in one of several fields, 1 to 50 pages long (log-uniform, so most
 * are short and a few long, as in real collections), with headings, paragraphs, bulleted lists
 * and tables, and sentences built from the field's own vocabulary so retrieval has real work.
 */
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";

/** Words of running text per printed page of a typical manual. */
const WORDS_PER_PAGE = 420;

const FIELDS = [
  {
    org: "cooperative",
    nouns: [
      "member share",
      "turbine",
      "grid connection",
      "dividend",
      "board seat",
      "annual meeting",
      "solar array",
      "meter reading",
      "tariff",
      "maintenance window",
    ],
    verbs: ["approves", "inspects", "publishes", "refunds", "schedules", "records"],
  },
  {
    org: "clinic",
    nouns: [
      "patient record",
      "triage nurse",
      "appointment slot",
      "referral letter",
      "vaccine batch",
      "consent form",
      "waiting list",
      "discharge note",
      "lab result",
      "on-call rota",
    ],
    verbs: ["reviews", "signs", "archives", "notifies", "books", "escalates"],
  },
  {
    org: "logistics firm",
    nouns: [
      "pallet",
      "bill of lading",
      "loading dock",
      "customs form",
      "delivery window",
      "forklift licence",
      "cold chain",
      "route plan",
      "freight invoice",
      "damage report",
    ],
    verbs: ["dispatches", "weighs", "seals", "tracks", "invoices", "returns"],
  },
  {
    org: "school",
    nouns: [
      "term report",
      "field trip",
      "exam board",
      "timetable",
      "library card",
      "parent evening",
      "lab safety sheet",
      "uniform grant",
      "detention slip",
      "bus pass",
    ],
    verbs: ["assigns", "marks", "collects", "announces", "grants", "supervises"],
  },
  {
    org: "municipality",
    nouns: [
      "building permit",
      "waste collection",
      "parking zone",
      "council motion",
      "street light",
      "tree survey",
      "noise complaint",
      "market stall",
      "water main",
      "voter register",
    ],
    verbs: ["issues", "repairs", "surveys", "fines", "renews", "consults"],
  },
  {
    org: "software team",
    nouns: [
      "release branch",
      "incident ticket",
      "code review",
      "feature flag",
      "on-call handover",
      "backup job",
      "access token",
      "change request",
      "load test",
      "error budget",
    ],
    verbs: ["merges", "rotates", "deploys", "reverts", "audits", "monitors"],
  },
];
const ACTORS = [
  "the coordinator",
  "each team lead",
  "the treasurer",
  "a duty officer",
  "the secretary",
  "every new member",
  "the safety officer",
  "the auditor",
];
const WHEN = [
  "within five working days",
  "before the end of each quarter",
  "every Monday morning",
  "after the annual review",
  "no later than noon",
  "once a month",
  "at least twice a year",
  "on request",
];
const WHY = [
  "so that nothing is lost between shifts",
  "to keep the records complete",
  "because the insurer requires it",
  "as the statutes prescribe",
  "to avoid double bookings",
  "so that costs stay predictable",
  "to protect personal data",
  "unless the board decides otherwise",
];

/** A small seeded generator (mulberry32): the same seed always builds the same corpus. */
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

export interface GeneratedDocument {
  filename: string;
  pages: number;
  bytes: Buffer;
  /** Questions a reader of this document could ask, from its own sentences. */
  questions: string[];
}

/** Builds document `index` of a corpus: same index and seed, same bytes. */
export async function generateDocument(index: number, seed = 13): Promise<GeneratedDocument> {
  const rnd = seeded(seed * 100003 + index);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const field = FIELDS[index % FIELDS.length]!;
  const pages = Math.max(1, Math.min(50, Math.round(Math.exp(rnd() * Math.log(50)))));
  const name = `${pick(["North", "Harbor", "Greyhill", "Elm", "Riverside", "Summit", "Lakeside", "Old Town"])} ${field.org} ${index}`;
  const sentence = () => {
    const noun = pick(field.nouns);
    const other = pick(field.nouns);
    return `${pick(ACTORS).replace(/^./, (c) => c.toUpperCase())} ${pick(field.verbs)} the ${noun} ${pick(WHEN)}, ${pick(WHY)}; the ${other} is kept with it for ${2 + Math.floor(rnd() * 9)} years.`;
  };
  const children: Array<Paragraph | Table> = [new Paragraph({ text: `${name} handbook`, heading: HeadingLevel.TITLE })];
  const questions: string[] = [];
  let words = 0;
  let section = 0;
  while (words < pages * WORDS_PER_PAGE) {
    if (words >= section * 2 * WORDS_PER_PAGE) {
      section++;
      const topic = pick(field.nouns);
      children.push(new Paragraph({ text: `${section}. Handling the ${topic}`, heading: HeadingLevel.HEADING_1 }));
      questions.push(`Who handles the ${topic} and when?`);
    }
    const kind = rnd();
    if (kind < 0.12) {
      for (let i = 0; i < 4; i++) {
        const s = sentence();
        children.push(new Paragraph({ text: s, bullet: { level: 0 } }));
        words += s.split(" ").length;
      }
    } else if (kind < 0.17) {
      const rows = [["Item", "Owner", "Deadline"], ...Array.from({ length: 5 }, () => [pick(field.nouns), pick(ACTORS), pick(WHEN)])];
      children.push(new Table({ rows: rows.map((r) => new TableRow({ children: r.map((c) => new TableCell({ children: [new Paragraph(c)] })) })) }));
      words += 45;
    } else {
      const text = Array.from({ length: 3 + Math.floor(rnd() * 4) }, sentence).join(" ");
      children.push(new Paragraph(text));
      words += text.split(" ").length;
      if (rnd() < 0.1) questions.push(`Why does ${text.split(" ").slice(0, 6).join(" ").toLowerCase()}?`);
    }
  }
  const bytes = await Packer.toBuffer(new Document({ sections: [{ children }] }));
  return { filename: `${name.toLowerCase().replace(/\s+/g, "-")}.docx`, pages, bytes, questions };
}
