/**
 * Part 3 of the second evaluation corpus (examples/standard/fenmoor-ws7-part3-monitoring.md):
 * water quality monitoring and reporting under the fictional Fenmoor Regional Water Authority's
 * Standard WS-7. Every fact, name and number is invented.
 */
import { random as seeded } from "../../test/helpers/synthetic-texts.js";
import type { Section } from "./standard-common.js";

export const title = "Fenmoor Regional Water Authority - Standard WS-7, Part 3: Water Quality Monitoring and Reporting";

export const preamble: string[] = [
  "Part 3 of Standard WS-7, edition 3, issued 14 March 2026. It sets the sampling programme for works, storage and supply zones, the limits each parameter must meet, what the operator does when a result exceeds a limit, and what is reported to whom. Clause numbers continue from Parts 1 and 2.",
  "The figures in this Part are the Authority's own. Where the national drinking water regulations set a stricter limit or a more frequent sampling, the regulations prevail; the Authority's limits are in several cases tighter than the regulations so that action starts earlier.",
];

/** The supply zones of Table 26.4: invented names, with populations drawn from a seeded generator. */
const ZONE_NAMES = [
  "Abbots Reach North",
  "Abbots Reach South",
  "Barrowmere",
  "Beacon Hill",
  "Blackwater",
  "Brindle",
  "Carrow",
  "Castle Marsh",
  "Coldharbour",
  "Crane Fen",
  "Dunmore",
  "Eastgate",
  "Fairholme",
  "Fenmoor Central",
  "Fenmoor East",
  "Fenmoor West",
  "Gallows Hill",
  "Greywell",
  "Hallow End",
  "Harrowby",
  "Hatherley",
  "Holm",
  "Kettle Green",
  "Kingsdyke",
  "Little Sedge",
  "Long Drove",
  "Marram",
  "Middlefield",
  "Mill Hythe",
  "Northwold",
  "Oakhanger",
  "Pike Fen",
  "Redbarn",
  "Saltings",
  "Sedgecombe",
  "Southery",
  "Stow",
  "Thornham",
  "Upwell",
  "Westfield",
];
const WORKS = ["Lower Sedge WTW", "Greywell WTW", "Northwold boreholes", "Castle Marsh WTW", "Pike Fen WTW"];

/** Zones the prose describes (Part 4: G1, W1, W4, W5, W9, G9.2): their rows must agree with it. */
const ZONE_FACTS: Record<string, { population?: number; works?: string; lead?: string }> = {
  "Fenmoor Central": { population: 32400, works: "Lower Sedge WTW", lead: "yes" },
  "Fenmoor West": { works: "Lower Sedge WTW" },
  Greywell: { works: "Greywell WTW" },
  "Hallow End": { works: "Greywell WTW" },
  "Kettle Green": { population: 18600, works: "Greywell WTW" },
  "Pike Fen": { population: 7900, works: "Pike Fen WTW" },
  Redbarn: { population: 11400, works: "Pike Fen WTW" },
  Saltings: { works: "Lower Sedge WTW" },
  Northwold: { works: "Northwold boreholes" },
  "Castle Marsh": { works: "Castle Marsh WTW" },
};

/** Routine tap samples a year for a zone's population (the bands of Table 26.3). */
export function routineSamples(population: number): number {
  if (population <= 500) return 4;
  if (population <= 5000) return 12;
  if (population <= 20000) return 24;
  return 24 + Math.ceil((population - 20000) / 5000) * 4;
}

function zoneProgramme(): string[][] {
  const random = seeded(31);
  const rows = ZONE_NAMES.map((name, i) => {
    const fixed = ZONE_FACTS[name] ?? {};
    const population = fixed.population ?? 200 + Math.round(random() ** 2 * 480) * 100;
    const works = fixed.works ?? WORKS[Math.floor(random() * WORKS.length)]!;
    const lead = fixed.lead ?? (random() < 0.35 ? "yes" : "no");
    return [`Z${String(i + 1).padStart(2, "0")}`, name, population.toLocaleString("en-GB"), works, String(routineSamples(population)), lead];
  });
  return [["Zone", "Name", "Residents", "Main source", "Tap samples a year", "Lead pipes present"], ...rows];
}

export const sections: Section[] = [
  {
    heading: "25. Sampling Points",
    level: 1,
    parts: [],
  },
  {
    heading: "25.1 Works outlet sampling points",
    level: 2,
    parts: [
      "Every treatment works shall have a sampling tap on the treated water main after the last treatment stage and before the first customer connection. The tap shall be of stainless steel, without a hose or an internal plastic insert, mounted in a clean cabinet that is locked and used for nothing else. The sample line shall run continuously at a flow of at least 1 litre per minute, so that the water at the tap is never stagnant.",
      "Where a works has more than one treated water main, each main shall have its own sampling tap. A sample from the contact tank or from a treated water tank does not count as a works outlet sample.",
    ],
  },
  {
    heading: "25.2 Storage sampling points",
    level: 2,
    parts: [
      "Every service reservoir cell and every water tower shall have a sampling tap on its outlet main, fed from within 5 metres of the cell's outlet. Where two cells share an outlet main, each cell shall nonetheless be sampled separately, from a tap on its own outlet pipe before the two pipes join, so that a fault in one cell is not hidden by dilution with the other.",
    ],
  },
  {
    heading: "25.3 Customer tap sampling points",
    level: 2,
    parts: [
      "Samples in supply zones are taken at customers' kitchen taps, chosen at random from the zone's property list each year by the Laboratory Services Manager, with no property sampled twice in the same year. Where a customer declines, the next property on the random list is used; a customer's refusal is never a reason to sample a fixed public building instead.",
      "Besides the random taps, each zone has fixed sampling points at the zone's extremities, at hydrants or dedicated sampling kiosks, used for chlorine residual and for the follow-up samples of clause 31.2.",
    ],
  },
  {
    heading: "25.4 Sampling technique",
    level: 2,
    parts: [
      "Samples for microbiological analysis shall be taken after removing any attachment from the tap, flaming or disinfecting the tap mouth with a 1,000 mg/l hypochlorite solution, and running the water for 2 to 3 minutes until its temperature is steady. Samples for lead, copper and nickel are instead taken as the first 1 litre drawn at random daytime, without running the tap first, since they must reflect what the customer drinks.",
      "Bottles for microbiological samples contain sodium thiosulphate to neutralise the chlorine. The sampler shall record the free and total chlorine, the temperature and the time on the sample form at the tap.",
    ],
  },
  {
    heading: "25.5 Sample identification and custody",
    level: 2,
    parts: [
      "Every sample bottle shall carry a label printed before the sampling round, with a unique sample number, the sampling point code, the parameters to be analysed and the planned date. The sampler adds the time and signs the label at the tap; a bottle whose label is handwritten, missing or illegible shall be rejected by the laboratory in the same way as a sample kept too long.",
      "Samples pass from the sampler to the laboratory in sealed cool boxes with a custody form listing the sample numbers. The form is signed each time the box changes hands, so that a result used in an investigation or in court can be traced from the tap to the analyst.",
    ],
  },
  {
    heading: "25.6 Sampling within works",
    level: 2,
    parts: [
      "Besides the works outlet, each works shall be sampled at the raw water, after clarification and after filtration, so that a change in quality can be traced to the stage that caused it. These process samples are the operator's own and do not count towards compliance. At class A and B works they are taken daily, at class C works twice a week and at class D works at each visit.",
      "Raw water samples from river intakes are also analysed monthly for pesticides and every 3 months for the full chemical suite, so that a rising trend is seen before it reaches the treated water. The results are sent to the Process Science Manager, who reviews the treatment of any works where a pesticide in the raw water exceeds 0.5 micrograms per litre.",
    ],
  },
  {
    heading: "26. Sampling Frequencies",
    level: 1,
    parts: [],
  },
  {
    heading: "26.1 Sampling frequency at works outlets",
    level: 2,
    parts: [
      "The table gives the least number of samples from each works outlet sampling tap. The frequency follows the works class of clause 4, so that a works raised a class for source risk under clause 4.2 is also sampled as the higher class.",
      {
        table: [
          ["Works class", "Coliforms and E. coli", "Full chemical suite", "Turbidity, chlorine and pH (online)"],
          ["A", "daily", "weekly", "continuous, logged every minute"],
          ["B", "5 days a week", "monthly", "continuous, logged every minute"],
          ["C", "twice a week", "every 3 months", "continuous, logged every 5 minutes"],
          ["D", "weekly", "every 6 months", "continuous, logged every 5 minutes"],
        ],
      },
      "Online monitors at the works outlet shall be checked against a laboratory measurement at least once a week at class A and B works and once a month at class C and D works; a monitor reading more than 10 percent or 0.05 units (whichever is greater) away from the laboratory value shall be recalibrated the same day.",
    ],
  },
  {
    heading: "26.2 Sampling frequency at service reservoirs and water towers",
    level: 2,
    parts: [
      "Each service reservoir cell and each water tower shall be sampled for coliforms, E. coli, free chlorine and turbidity at least once a week. Cells holding more than 10,000 cubic metres, and every water tower in summer (1 June to 30 September), shall be sampled twice a week.",
      "In addition, every cell shall be sampled for the indicator parameters of clause 29 once a month, and after every return to service under clause 21.5. A cell that has had two coliform detections in any 12 months shall be sampled twice a week for the following 6 months, whatever its size.",
    ],
  },
  {
    heading: "26.3 Sampling frequency in supply zones",
    level: 2,
    parts: [
      "Routine tap samples in each supply zone are analysed for coliforms, E. coli, turbidity, colour, taste, odour, free chlorine, iron, manganese, aluminium and the other indicator parameters of clause 29. The number a year depends on the zone's resident population.",
      {
        table: [
          ["Residents in the zone", "Routine tap samples a year", "Lead, copper and nickel samples a year"],
          ["500 or fewer", "4", "1"],
          ["501 to 5,000", "12", "4"],
          ["5,001 to 20,000", "24", "8"],
          ["more than 20,000", "24 plus 4 for each 5,000 (or part) above 20,000", "8 plus 2 for each 10,000 (or part) above 20,000"],
        ],
      },
      "Samples shall be spread evenly over the year, with no more than a quarter of a zone's routine samples taken in any one quarter, and over the days of the week from Monday to Friday. Lead, copper and nickel samples are doubled in a zone where lead pipes are present and orthophosphate dosing (clause 12.2) has been interrupted for more than 24 hours in the year.",
    ],
  },
  {
    heading: "26.4 Supply zone programme for 2026",
    level: 2,
    parts: [
      "The table lists the supply zones in the 2026 programme with their resident population on 1 January 2026, the works or source that mainly feeds them, the number of routine tap samples that follows from clause 26.3, and whether lead pipes are known to be present. A zone whose population changes band during the year keeps its programme until the next 1 January.",
      { table: zoneProgramme() },
    ],
  },
  {
    heading: "26.5 Sampling after network work",
    level: 2,
    parts: [
      "Besides the routine programme, samples are taken after work on the network that could let contamination in. After a burst repair, the nearest hydrant downstream is sampled for coliforms, E. coli and turbidity before the excavation is closed (clause 23.2). After a new main is connected, its sampling point and the first customer tap beyond it are sampled within 7 days of connection. These samples are additional and do not count towards the zone's routine tap samples.",
      "After a reservoir cell returns to service under clause 21.5, the zone it feeds is sampled at two customer taps within 3 days, and at the far end of the zone for free chlorine daily for the first week, since a cell refilled with freshly chlorinated water can change the residual across the zone.",
    ],
  },
  {
    heading: "26.6 Sampling during an incident",
    level: 2,
    parts: [
      "During a water quality incident the routine programme continues, and the Head of Water Quality sets an incident sampling plan on top of it. The plan shall cover the works outlet, every storage point between the works and the affected area, and enough taps to show the extent of the problem: at least one tap for every 500 affected properties, and never fewer than five taps.",
      "Incident samples are marked as such on the sample label so that the laboratory analyses them first. Their results are reported to the incident team as soon as each is available, without waiting for the batch, and are included in the investigation report of clause 31.5.",
    ],
  },
  {
    heading: "27. Microbiological Parameters",
    level: 1,
    parts: [],
  },
  {
    heading: "27.1 Microbiological limits",
    level: 2,
    parts: [
      "The limits below apply to every sample, at the works outlet, at storage and at customer taps, except where the table says otherwise.",
      {
        table: [
          ["Parameter", "Limit", "Point of compliance"],
          ["E. coli", "0 per 100 ml", "all samples"],
          ["Enterococci", "0 per 100 ml", "all samples"],
          ["Coliform bacteria", "0 per 100 ml", "works outlet and storage"],
          ["Coliform bacteria", "0 per 100 ml in 95 percent of samples in a year", "customer taps, per zone"],
          ["Clostridium perfringens", "0 per 100 ml", "works outlet, surface water works only"],
          ["Colony counts at 22 deg C", "no abnormal change", "works outlet and storage"],
          ["Cryptosporidium oocysts", "fewer than 1 per 10 litres", "works outlet, where monitored"],
        ],
      },
      "No abnormal change in colony counts means a count no more than ten times the median of the previous 12 months' results at the same point. A count above this is treated as an exceedance of clause 31.",
    ],
  },
  {
    heading: "27.2 Cryptosporidium monitoring",
    level: 2,
    parts: [
      "Works whose raw water has a Cryptosporidium risk under clause 4.2 shall filter a continuous sample of at least 1,000 litres of treated water a day through a cartridge, which is changed daily and analysed by the laboratory. A result of 1 or more oocysts per 10 litres is an exceedance and shall be notified under clause 31.1 within 1 hour of the laboratory reporting it.",
    ],
  },
  {
    heading: "27.3 Coliforms at storage",
    level: 2,
    parts: [
      "A coliform detection in a sample from a service reservoir cell or a water tower, even without E. coli, is treated as a sign that the structure may have been breached. Besides the resampling of clause 31.2, the cell shall be inspected externally within 24 hours, with particular attention to hatches, vents, overflows and the roof, and its contents shall be turned over or its chlorine residual raised while the investigation proceeds.",
      "Where a second coliform detection follows at the same cell within 12 months, the cell shall be drained and inspected internally within 3 months, whatever the date of its last internal inspection under clause 21.3.",
    ],
  },
  {
    heading: "27.4 Follow-up of enterococci and Clostridium perfringens",
    level: 2,
    parts: [
      "Enterococci are a sign of faecal contamination that survives longer than E. coli, and their detection is handled exactly as an E. coli detection under clauses 31.1 to 31.3. Clostridium perfringens, whose spores resist chlorine, is a sign that surface water has passed the treatment barriers without enough removal; a detection at the works outlet of a surface water works shall lead the Process Science Manager to review the coagulation and filtration of the works within 24 hours, even where no E. coli has been found.",
      "Where Clostridium perfringens is found in two works outlet samples within 30 days, the works shall be sampled for Cryptosporidium under clause 27.2 for the following 3 months, whether or not it has a Cryptosporidium risk under clause 4.2.",
    ],
  },
  {
    heading: "28. Chemical Parameters",
    level: 1,
    parts: [],
  },
  {
    heading: "28.1 Chemical limits",
    level: 2,
    parts: [
      "The limits below apply at customer taps unless the table says otherwise. Results are compared with the limit as reported by the laboratory, without subtracting the uncertainty of measurement.",
      {
        table: [
          ["Parameter", "Limit", "Unit"],
          ["Antimony", "5", "micrograms per litre"],
          ["Arsenic", "10", "micrograms per litre"],
          ["Benzene", "1", "micrograms per litre"],
          ["Boron", "1.5", "milligrams per litre"],
          ["Bromate", "10", "micrograms per litre"],
          ["Cadmium", "5", "micrograms per litre"],
          ["Chlorate", "0.25", "milligrams per litre"],
          ["Chromium", "25", "micrograms per litre"],
          ["Copper", "2.0", "milligrams per litre"],
          ["Cyanide", "50", "micrograms per litre"],
          ["Fluoride", "1.5", "milligrams per litre"],
          ["Lead", "10", "micrograms per litre"],
          ["Mercury", "1", "micrograms per litre"],
          ["Nickel", "20", "micrograms per litre"],
          ["Nitrate", "50", "milligrams per litre as NO3"],
          ["Nitrite", "0.1", "milligrams per litre as NO2, at the works outlet"],
          ["Pesticides, each", "0.1", "micrograms per litre"],
          ["Pesticides, total", "0.5", "micrograms per litre"],
          ["Selenium", "20", "micrograms per litre"],
          ["Trihalomethanes, total", "80", "micrograms per litre"],
        ],
      },
      "For nitrate and nitrite together, the sum of the nitrate concentration divided by 50 and the nitrite concentration divided by 3, both in milligrams per litre, shall not exceed 1.",
    ],
  },
  {
    heading: "28.2 Disinfection by-products",
    level: 2,
    parts: [
      "Trihalomethanes form when chlorine reacts with the organic matter left in the water, and they increase with the time the water spends in the network. They shall therefore be sampled at the far end of each zone, not at the works, at least every 3 months, and monthly in zones fed from a works treating coloured upland water.",
      "Chlorate forms in stored hypochlorite (clause 10.4). Every works dosing hypochlorite shall sample its treated water for chlorate monthly, and after every delivery that has been stored for more than 30 days before use.",
    ],
  },
  {
    heading: "28.3 Radioactivity",
    level: 2,
    parts: [
      "Radioactivity is monitored at the works outlet of every works drawing from groundwater once a year, and of every surface water works once every 3 years. The parameters are radon, tritium and the indicative dose. The limits are 100 becquerels per litre for radon, 100 becquerels per litre for tritium and an indicative dose of 0.10 millisieverts a year.",
      "Where a screening measurement of gross alpha activity exceeds 0.1 becquerels per litre or gross beta activity exceeds 1.0 becquerel per litre, the sample shall be analysed for the individual radionuclides so that the indicative dose can be calculated. The Northwold boreholes, which draw from granite, are sampled for radon every 3 months.",
    ],
  },
  {
    heading: "28.4 Lead sampling and plumbosolvency",
    level: 2,
    parts: [
      "Lead samples are taken at random daytime from customer taps chosen at random within the zone, as the first litre drawn without flushing (clause 25.4). A result above the limit of 10 micrograms per litre leads to a visit within 10 working days to check whether the property has a lead service pipe or lead in its internal plumbing, and to offer the customer a free replacement of the Authority's part of a lead service pipe.",
      "The plumbosolvency assessment of a zone, which sets the orthophosphate target of clause 12.2, is repeated every 5 years and after any change of source or treatment that alters the pH or alkalinity of the water by more than 0.3 pH units or 20 percent. It uses at least 20 lead samples from properties known to have lead pipes, as well as the random samples of Table 26.3.",
    ],
  },
  {
    heading: "29. Indicator Parameters",
    level: 1,
    parts: [],
  },
  {
    heading: "29.1 Indicator limits",
    level: 2,
    parts: [
      "Indicator parameters do not themselves threaten health at the values below, but a result above them shows that treatment or the network is not working as it should. An exceedance of an indicator limit is investigated like any other, but the notification times of clause 31.1 are longer.",
      {
        table: [
          ["Parameter", "Limit", "Point of compliance"],
          ["Aluminium", "200 micrograms per litre", "customer taps"],
          ["Ammonium", "0.5 milligrams per litre", "customer taps"],
          ["Chloride", "250 milligrams per litre", "customer taps"],
          ["Colour", "20 mg/l Pt/Co", "customer taps"],
          ["Conductivity", "2,500 microsiemens per cm at 20 deg C", "customer taps"],
          ["Hydrogen ion (pH)", "6.5 to 9.5", "customer taps"],
          ["Iron", "200 micrograms per litre", "customer taps"],
          ["Manganese", "50 micrograms per litre", "customer taps"],
          ["Odour and taste", "acceptable to consumers, no abnormal change", "customer taps"],
          ["Sodium", "200 milligrams per litre", "customer taps"],
          ["Sulphate", "250 milligrams per litre", "customer taps"],
          ["Total organic carbon", "no abnormal change", "works outlet"],
          ["Turbidity", "1 NTU", "works outlet"],
          ["Turbidity", "4 NTU", "customer taps"],
        ],
      },
    ],
  },
  {
    heading: "29.2 Taste and odour assessment",
    level: 2,
    parts: [
      "Taste and odour are assessed at the laboratory by a panel of at least three trained assessors, who compare the sample with odour-free reference water at 25 deg C and describe any taste or odour found, such as earthy, musty, chlorinous, medicinal or fuel-like. A sample is abnormal when two or more assessors find a taste or odour that the same point did not show in the previous 12 months.",
      "During the taste and odour watch that clause 5.6 starts when algae multiply in bankside storage, the treated water of the works concerned shall be assessed daily, and geosmin and 2-methylisoborneol measured twice a week. A concentration of either above 10 nanograms per litre in the treated water shall lead the operator to dose powdered activated carbon or to change the source, and to warn the customer centre of possible complaints.",
    ],
  },
  {
    heading: "30. Action Levels",
    level: 1,
    parts: [
      "Action levels are set below the limits of clauses 27 to 29, so that the operator starts to investigate before a limit is breached. A result at or above an action level is not an exceedance and is not notified to the regulator, but it shall be entered in the works or network log with the action taken, and reviewed at the monthly water quality meeting.",
      {
        table: [
          ["Parameter", "Action level", "Where", "First action"],
          ["Turbidity", "0.5 NTU", "works outlet", "check filters and clarifiers"],
          ["Turbidity", "2 NTU", "customer taps", "flush the main locally"],
          ["Free chlorine", "below 0.2 mg/l", "works outlet", "check the dose and the analyser"],
          ["Free chlorine", "below 0.05 mg/l", "zone extremities", "resample and consider booster dosing"],
          ["Aluminium", "100 micrograms per litre", "works outlet", "review coagulation pH"],
          ["Iron", "150 micrograms per litre", "customer taps", "review mains cleaning plan"],
          ["Manganese", "20 micrograms per litre", "works outlet", "review oxidation and filtration"],
          ["Nitrate", "40 milligrams per litre", "works outlet", "review blending of sources"],
          ["Trihalomethanes", "60 micrograms per litre", "zone extremities", "review organic removal and residence time"],
          ["Lead", "7 micrograms per litre", "customer taps", "check orthophosphate dose"],
        ],
      },
      "Two results at or above an action level for the same parameter at the same point within 30 days shall be reported to the Process Science Manager, who decides whether a treatment or network change is needed.",
    ],
  },
  {
    heading: "31. Exceedances",
    level: 1,
    parts: [],
  },
  {
    heading: "31.1 Notification of exceedances",
    level: 2,
    parts: [
      "An exceedance is notified by the duty water quality scientist to the people in the table, within the time shown from the moment the laboratory reports the result, by telephone first and then in writing within 24 hours. The time runs at night and at weekends.",
      {
        table: [
          ["Kind of exceedance", "Head of Water Quality", "Regulator", "Local health authority"],
          ["E. coli or enterococci in any sample", "within 1 hour", "within 3 hours", "within 3 hours"],
          ["Cryptosporidium at the works outlet", "within 1 hour", "within 3 hours", "within 3 hours"],
          ["Coliforms at a works outlet or storage", "within 2 hours", "within 24 hours", "not required"],
          ["Coliforms at a customer tap", "within 24 hours", "within 5 working days", "not required"],
          ["Chemical parameter of clause 28", "within 4 hours", "within 24 hours", "within 24 hours"],
          ["Indicator parameter of clause 29", "within 24 hours", "within 5 working days", "not required"],
          ["UV off-specification under clause 11.4", "within 2 hours", "within 24 hours", "not required"],
        ],
      },
      "A second exceedance of the same kind in the same zone within 7 days of the first is notified as a new event, with a reference to the first, and not as part of it.",
    ],
  },
  {
    heading: "31.2 Resampling after an exceedance",
    level: 2,
    parts: [
      "After any microbiological exceedance, the sampling point shall be resampled within 24 hours, together with the works outlet feeding it, the storage between the works and the point, and two further taps in the same zone on either side of the point along the main. After a chemical or indicator exceedance the point shall be resampled within 5 working days, together with the works outlet.",
      "An exceedance is closed when two consecutive resamples taken at least 24 hours apart are within the limit and the cause has been found, or, where no cause can be found, when four consecutive resamples over at least 14 days are within the limit. The Head of Water Quality signs off the closure.",
    ],
  },
  {
    heading: "31.3 Boil water notices",
    level: 2,
    parts: [
      "A boil water notice is issued to the affected properties when E. coli is found in a works outlet sample, when E. coli is found in two or more customer taps in the same zone within 48 hours, when disinfection has failed and water with a CT below 50 percent of the value of Table 10.2 has entered supply, or when the local health authority asks for one.",
      "The decision is taken by the Head of Water Quality together with the local health authority's consultant in communicable disease control, and the notice shall reach every affected property within 12 hours of the decision, by hand delivery, by text message to registered numbers and on the Authority's website. A notice is lifted only when the samples of clause 31.2 are clear on two consecutive days and the health authority agrees.",
    ],
  },
  {
    heading: "31.4 Sampling of temporary supplies",
    level: 2,
    parts: [
      "Water supplied by bowser or from a temporary tank during an incident shall be sampled for coliforms, E. coli and free chlorine when the bowser is first filled, and then every day it remains in use. The free chlorine in a bowser shall be at least 0.5 mg/l at filling; a bowser left in place for more than 48 hours shall be emptied, disinfected and refilled.",
    ],
  },
  {
    heading: "31.5 Investigation reports",
    level: 2,
    parts: [
      "Every exceedance of a microbiological or chemical parameter is followed by a written investigation report, prepared by the water quality scientist who led the investigation and approved by the Head of Water Quality. The report is due within 20 working days of the exceedance for a microbiological parameter and within 30 working days for a chemical parameter, and within 60 working days for an exceedance of an indicator parameter when the Head of Water Quality asks for one.",
      "The report states the results and the sampling that followed them, the cause found or the causes considered and ruled out, the action taken and the action still planned with its dates, and the reason why the event will not recur. Reports on events notified to the regulator are sent to the regulator within 5 working days of their approval.",
    ],
  },
  {
    heading: "31.6 Do not drink and do not use notices",
    level: 2,
    parts: [
      "Where a chemical exceedance or a contamination makes the water unfit to drink even after boiling, the Head of Water Quality, with the local health authority, issues a do not drink notice, under which the water may still be used for flushing toilets and, where the health authority agrees, for washing. Where the water is unfit for any use, for example after a fuel contamination, a do not use notice is issued instead.",
      "Under a do not drink or do not use notice the Authority shall provide at least 10 litres of bottled or bowsered water per person per day, and 20 litres to properties registered as needing extra help, from the first day. The notice is lifted when the samples of clause 31.2 show the parameter within its limit on two consecutive days and the health authority agrees.",
    ],
  },
  {
    heading: "32. Customer Complaints about Water Quality",
    level: 1,
    parts: [],
  },
  {
    heading: "32.1 Response times for complaints",
    level: 2,
    parts: [
      "Complaints about the appearance, taste or smell of the water, or about illness the customer believes the water caused, are logged by the customer centre and passed to the network water quality team. The table gives the greatest time from the complaint to a visit to the property.",
      {
        table: [
          ["Kind of complaint", "Visit within"],
          ["Illness believed caused by the water", "4 hours"],
          ["Unusual taste or smell (chemical, fuel, solvent)", "4 hours"],
          ["Discoloured water (brown, black, orange)", "24 hours"],
          ["White or cloudy water that clears from the bottom up", "no visit; advice by telephone"],
          ["Taste of chlorine", "48 hours"],
          ["Particles or animals in the water", "24 hours"],
        ],
      },
      "At the visit the inspector samples the kitchen tap for the parameters that fit the complaint, checks the internal plumbing for a cross-connection or a faulty fitting, and records the free chlorine. Three or more complaints of the same kind from the same zone within 24 hours are treated as an event and reported to the Head of Water Quality at once.",
    ],
  },
  {
    heading: "32.2 Discoloration and mains flushing",
    level: 2,
    parts: [
      "Where discoloration complaints in a zone exceed 2 per 1,000 properties in a year, the network operator shall prepare a mains cleaning plan for the zone within 3 months, using flushing, air scouring or ice pigging as the condition of the mains requires. Flushing shall run each main at a velocity of at least 0.6 metres per second, and at least 1.5 times its normal peak velocity, until the turbidity at the washout is below 1 NTU.",
    ],
  },
  {
    heading: "32.3 Complaint statistics",
    level: 2,
    parts: [
      "The customer centre reports the number of water quality complaints each month by zone and by kind, as a rate per 1,000 properties. A zone whose complaint rate of any kind is more than twice the regional average for that kind over 3 consecutive months is reviewed by the Process Science Manager, who reports the cause and the proposed action to the monthly water quality meeting.",
      "The regional average complaint rates for 2025 were 1.1 per 1,000 properties for discoloration, 0.4 for taste and odour, 0.2 for illness believed caused by the water and 0.3 for all other kinds together. Discoloration complaints rose by 18 percent from 2024, mostly in the Northwold and Kingsdyke zones, where old cast iron mains are being replaced.",
    ],
  },
  {
    heading: "33. Laboratory Requirements",
    level: 1,
    parts: [],
  },
  {
    heading: "33.1 Accreditation and methods",
    level: 2,
    parts: [
      "Every sample taken under this Part shall be analysed by a laboratory accredited for the method used, by the methods of LAB-3. The laboratory shall take part in a proficiency testing scheme for each parameter at least four times a year, and shall report to the Head of Water Quality any proficiency result outside the scheme's acceptable range within 5 working days.",
      "The limit of detection of each method shall be no more than one tenth of the parameter limit, and the uncertainty of measurement no more than a quarter of the limit, except for pesticides, where the limit of detection shall be no more than 0.01 micrograms per litre.",
    ],
  },
  {
    heading: "33.2 Sample transport and holding times",
    level: 2,
    parts: [
      "Samples shall be kept dark and cool between 2 and 8 deg C from the tap to the laboratory, in cool boxes with a temperature logger. The table gives the greatest time between taking a sample and starting its analysis.",
      {
        table: [
          ["Analysis", "Greatest holding time"],
          ["Coliforms, E. coli and enterococci", "18 hours (24 hours if kept below 5 deg C)"],
          ["Colony counts", "12 hours"],
          ["Clostridium perfringens", "24 hours"],
          ["Metals (acidified sample)", "1 month"],
          ["Trihalomethanes", "7 days"],
          ["Pesticides", "5 days"],
          ["Nitrite and ammonium", "24 hours"],
        ],
      },
      "A sample that arrives above 10 deg C, or after its holding time, shall be rejected and a new sample taken within 2 working days; the rejection counts as a missed sample in the monthly report.",
    ],
  },
  {
    heading: "33.3 Online analysers and field measurements",
    level: 2,
    parts: [
      "Online analysers at works and in the network are the operator's instruments and are not accredited methods; their readings are used for control and alarms but do not count as compliance samples, except for the continuous turbidity, chlorine and pH monitoring required by Table 26.1.",
      "Field measurements of free and total chlorine at the tap shall be made with a photometer checked each morning against a standard, and turbidity in the field with a portable turbidimeter calibrated each week. A field reading of free chlorine differing by more than 0.1 mg/l from the laboratory value of the same sample shall lead to the photometer being withdrawn until it has been checked.",
    ],
  },
  {
    heading: "33.4 Laboratory turnaround times",
    level: 2,
    parts: [
      "The laboratory shall report results within the times in the table, counted from the sample's arrival at the laboratory. A presumptive E. coli or enterococci result is reported as soon as it is read, before confirmation, because the notification times of clause 31.1 run from that report.",
      {
        table: [
          ["Analysis", "Routine samples", "Incident samples"],
          ["Coliforms, E. coli and enterococci", "2 working days", "as soon as read, at most 24 hours"],
          ["Colony counts", "4 working days", "3 days"],
          ["Metals and inorganic chemicals", "7 working days", "24 hours"],
          ["Pesticides and trihalomethanes", "10 working days", "48 hours"],
          ["Taste and odour", "2 working days", "same day"],
          ["Cryptosporidium", "3 working days", "24 hours"],
        ],
      },
      "The laboratory reports each month the share of results issued within these times. A share below 95 percent for any analysis in two consecutive months shall be reported by the Laboratory Services Manager to the Head of Water Quality with a plan to recover.",
    ],
  },
  {
    heading: "33.5 Sampler training",
    level: 2,
    parts: [
      "Samplers shall hold the Authority's Water Sampling certificate, gained after a 3-day course and five supervised sampling rounds, and renewed every 3 years. Each sampler is observed at the tap by a supervisor at least once a year, and the observation recorded with any correction given.",
      "A sampler whose samples have been rejected more than three times in a quarter, for labelling, temperature or holding time, shall be retrained before taking further samples alone.",
    ],
  },
  {
    heading: "34. Reporting and Records",
    level: 1,
    parts: [],
  },
  {
    heading: "34.1 Monthly and annual reporting",
    level: 2,
    parts: [
      "The Laboratory Services Manager issues a monthly water quality report by the 10th working day of the following month, giving for each works and zone the samples taken against those planned, every exceedance and action level result with its status, and every missed or rejected sample with the reason.",
      "The annual drinking water quality report covers the calendar year and is published on the Authority's website by 31 May of the following year. It gives the compliance of each zone as the percentage of results within the limits, the exceedances and the action taken, and the progress of every derogation under clause 1.4.",
    ],
  },
  {
    heading: "34.2 Retention of records",
    level: 2,
    parts: [
      "Records shall be kept for at least the periods in the table, in the Authority's records system, and for longer where an investigation or a claim concerning them is open.",
      {
        table: [
          ["Record", "Kept for"],
          ["Sample results and sample forms", "10 years"],
          ["Online monitor logs (turbidity, chlorine, pH, UVT)", "5 years"],
          ["Exceedance investigations and notifications", "15 years"],
          ["Boil water notice decisions", "30 years"],
          ["Customer complaint records", "6 years"],
          ["Laboratory proficiency results", "6 years"],
          ["Derogations and improvement plans", "10 years after closure"],
        ],
      },
      "Records of assets under Part 2 are kept for the periods stated in the records sub-clause of each asset clause, which are not changed by this table.",
    ],
  },
  {
    heading: "34.3 Information to customers",
    level: 2,
    parts: [
      "The Authority's website shall show, for each supply zone, the results of the last 12 months for the parameters of clauses 27 to 29, updated within 10 working days of the end of each month, with the hardness of the water in milligrams per litre as calcium carbonate. A customer who asks for the results for their own zone in writing shall receive them within 10 working days, free of charge.",
      "When a boil water notice is in force, the website and the customer centre shall give the list of affected streets, the advice to customers, and the date and time of the last update, which shall be no older than 12 hours.",
    ],
  },
  {
    heading: "34.4 Checks on results before reporting",
    level: 2,
    parts: [
      "Before a result is reported, the laboratory checks it against the previous results from the same point and against the other parameters of the same sample. A result outside the range of the last 12 months, or inconsistent with the sample's other results (for example a conductivity that does not match the sum of the ions measured), is checked by a second analyst before release, but its reporting shall not be delayed by more than 4 hours by the check.",
      "A result later found to be wrong is corrected in the records with the reason, and the original is kept. Where a corrected result turns an exceedance into a compliant result, the exceedance remains in the records as a withdrawn exceedance, with the reason, and is reported to the regulator as withdrawn within 5 working days.",
    ],
  },
];
