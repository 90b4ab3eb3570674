/**
 * Text of the example corpus's PDF (examples/corpus/tidewater-quay-lease.pdf): a commercial
 * lease of a bakery unit, written for chunkeval. Every fact, name and number is invented.
 * ASCII only: the PDF is set in the standard Helvetica font with WinAnsi encoding.
 */
export type Part = string | { list: string[] } | { table: string[][] };
export interface Section {
  heading: string;
  parts: Part[];
}

export const title = "Commercial Lease: Unit 4, Tidewater Quay";

export const preamble: string[] = [
  "Lease reference TQ-2025-014, dated 3 February 2025, between Halvorsen Property Trust (the Landlord) and Marrow & Rye Bakery Ltd (the Tenant).",
  "This lease is written in plain language. The numbered clauses are the binding terms; the schedules form part of the lease.",
];

export const sections: Section[] = [
  {
    heading: "1. Parties and Premises",
    parts: [
      "The Landlord is Halvorsen Property Trust, whose registered office is at 9 Customs House Lane, Wrenmouth. The Tenant is Marrow & Rye Bakery Ltd, company number 11840327, represented by its director Ines Okafor.",
      "The Premises are Unit 4 on the ground floor of the Tidewater Quay building, 22 Harbour Road, Wrenmouth, with a net internal area of 148 square metres, together with the rear yard marked in green on the plan in Schedule 1 and the right to use two of the loading bays behind the building between 05:00 and 10:00 each day.",
      "The Premises may be used as a bakery with a retail counter and up to 24 seats for customers eating on the premises. Any other use needs the Landlord's written consent, which will not be unreasonably withheld for a use of a similar kind.",
    ],
  },
  {
    heading: "2. Term and Break Option",
    parts: [
      "The lease runs for a term of seven years from 1 March 2025 to 29 February 2032.",
      "The Tenant may end the lease on 29 February 2028 (the break date) by giving the Landlord at least six months' written notice, so that the notice is received no later than 31 August 2027. The break only takes effect if, on the break date, the Tenant has paid all rent due and has handed back the Premises empty of people and goods.",
      "If the Tenant does not use the break option, the lease continues to its end. Neither party may end the lease early for any other reason, except under clause 9 (default and forfeiture) or clause 6 (damage).",
    ],
  },
  {
    heading: "3. Rent",
    parts: [
      "The Tenant has a rent-free period of three months, from 1 March 2025 to 31 May 2025, to fit out the Premises. After that the rent is payable monthly in advance on the first working day of each month by bank transfer to the account named in the rent demand. The first payment is due on 1 June 2025.",
      "The rent in each year of the term is set out in the schedule below.",
      {
        table: [
          ["Lease year", "Period", "Monthly rent"],
          ["Year 1", "1 March 2025 to 28 February 2026", "EUR 2,150 from June 2025"],
          ["Year 2", "1 March 2026 to 28 February 2027", "EUR 2,150"],
          ["Year 3", "1 March 2027 to 29 February 2028", "EUR 2,280"],
          ["Years 4 to 7", "1 March 2028 to 29 February 2032", "set at the rent review"],
        ],
      },
      "The rent for the fourth year onward is reviewed on 1 March 2028 to the open market rent for the Premises, and the review can raise the rent but never lower it below EUR 2,280. If the parties have not agreed the new rent by 1 December 2027, either of them may ask the president of the Wrenmouth Chamber of Surveyors to appoint an independent expert, whose decision binds both parties and whose fee they share equally.",
      "Rent that is not paid within 14 days of its due date carries interest at 4 percent above the main refinancing rate of the European Central Bank, from the due date until the day it is paid. The Landlord may also charge a fee of EUR 35 for each written reminder it has to send.",
    ],
  },
  {
    heading: "4. Deposit and Service Charge",
    parts: [
      "On signing this lease the Tenant pays a rent deposit of EUR 6,450, equal to three months' rent at the first-year rate. The Landlord holds the deposit in a separate account at Wrenmouth Savings Bank, and any interest it earns belongs to the Tenant. The deposit is returned within 30 days after the lease ends, less any unpaid rent and the cost of any repairs the Tenant should have carried out.",
      "In addition to the rent, the Tenant pays a service charge towards the running costs of the common parts of the building: cleaning of the shared corridor, the lift, the fire alarm system, the shared waste compound and the building insurance. The service charge for the first year is estimated at EUR 310 per month and is paid together with the rent.",
      "The service charge year runs with the calendar year. Within four months after the end of each service charge year the Landlord sends the Tenant a statement of the actual costs, and any balance owed by either side is paid within 28 days of the statement.",
      "The service charge never includes:",
      {
        list: [
          "- repairs to the roof, the foundations or the outside walls, which the Landlord pays for itself;",
          "- management fees above 10 percent of the other service costs;",
          "- the cost of finding tenants for empty units in the building;",
          "- any cost caused by the Landlord's own breach of this lease.",
        ],
      },
    ],
  },
  {
    heading: "5. Repairs, Alterations and Fit-Out",
    parts: [
      "The Tenant keeps the inside of the Premises in good repair, including the shop front glass, internal doors, floor coverings and the Tenant's own equipment. The Landlord repairs the structure, the roof, the outside walls and the drains up to the point where they leave the Premises.",
      "The Tenant may carry out its fit-out works once the Landlord has approved the drawings. The Landlord must answer a request for approval within 15 working days; a request left unanswered after that time counts as approved. The approved fit-out consists of:",
      {
        list: [
          "- a bakery kitchen with two deck ovens and a proving cabinet;",
          "- an extraction system venting through the rear wall above the yard;",
          "- a retail counter and a seating area for up to 24 customers;",
          "- a customer toilet accessible to wheelchair users.",
        ],
      },
      "Structural alterations, including any new opening in a wall, are not allowed. When the lease ends the Tenant removes its ovens and extraction equipment and makes good any damage, unless the Landlord agrees in writing to take them over.",
    ],
  },
  {
    heading: "6. Insurance and Damage",
    parts: [
      "The Landlord insures the building against fire, flood, storm and the other usual risks for its full rebuilding cost, and recovers the premium through the service charge. The Tenant insures its own stock, equipment and fit-out, and holds public liability insurance of at least EUR 2 million for each claim.",
      "If the Premises are damaged by an insured risk so badly that they cannot be used, the rent and the service charge stop until the Premises are fit for use again. If they are still not fit for use 18 months after the damage, either party may end the lease by written notice.",
    ],
  },
  {
    heading: "7. Trading Hours, Noise and Deliveries",
    parts: [
      "The Tenant may trade between 06:00 and 20:00 on every day of the year. Baking may start at 04:30, provided that the extraction fan runs at its night setting until 07:00 and that no deliveries are taken before 05:00.",
      "Waste is kept in the shared compound and collected on Tuesdays and Fridays. Deliveries of more than 500 kilograms of flour are made through the loading bays, never from Harbour Road.",
    ],
  },
  {
    heading: "8. Notices and Contacts",
    parts: [
      "Notices under this lease must be in writing and delivered by hand or sent by registered post to the other party's address below, or to another address a party has given by notice. A notice sent by registered post counts as received on the second working day after posting. Email alone is not valid notice, but a copy should also be sent by email.",
      {
        list: [
          "- Landlord: Halvorsen Property Trust, for the attention of the Estates Manager, 9 Customs House Lane, Wrenmouth; estates@halvorsen-trust.example; telephone 0412 558 190.",
          "- Tenant: Marrow & Rye Bakery Ltd, for the attention of Ines Okafor, Unit 4, Tidewater Quay, 22 Harbour Road, Wrenmouth; hello@marrowandrye.example; telephone 0412 770 316.",
        ],
      },
      "For emergencies in the building outside office hours, such as a water leak, a fault in the fire alarm or a broken shop front, the Tenant calls the Landlord's 24-hour facilities line on 0800 614 227.",
    ],
  },
  {
    heading: "9. Default, Forfeiture and Assignment",
    parts: [
      "If rent remains unpaid for 21 days after it is due, or the Tenant breaks another obligation and does not put it right within 30 days of a written notice from the Landlord, the Landlord may end the lease by taking the Premises back. Before doing so the Landlord must give the Tenant 14 days' written warning, so that the Tenant can still pay or put the breach right.",
      "The Tenant may assign the whole lease to another business with the Landlord's consent, which will not be unreasonably withheld, provided that the new tenant's accounts show a net profit in each of its last two financial years. Subletting part of the Premises is not allowed.",
      "Signed for the Landlord by Pieter Halvorsen, trustee, and for the Tenant by Ines Okafor, director, at Wrenmouth on 3 February 2025.",
    ],
  },
];
