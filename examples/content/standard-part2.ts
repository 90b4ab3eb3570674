/**
 * Part 2 of the second evaluation corpus (examples/standard/fenmoor-ws7-part2-assets.docx):
 * pumping, storage and distribution assets of the fictional Fenmoor Regional Water Authority's
 * Standard WS-7. Every fact, name and number is invented. Clauses 15 to 22 deliberately share one
 * pattern (design, inspection intervals, acceptance criteria, records) with different figures.
 */
import { random as seeded } from "../../test/helpers/synthetic-texts.js";
import type { Section } from "./standard-common.js";

export const title = "Fenmoor Regional Water Authority - Standard WS-7, Part 2: Pumping, Storage and Distribution Assets";

export const preamble: string[] = [
  "Part 2 of Standard WS-7, edition 3, issued 14 March 2026. It applies to every asset between the outlet of a treatment works and the customer's boundary, and to the raw water pumps that feed the works. Clause numbers continue from Part 1. The general provisions, the definitions and the classification of works in Part 1 apply to this Part.",
];

/** The pumping stations of Annex A: invented names, with duty figures drawn from a seeded generator. */
const STATION_NAMES = [
  "Abbots Reach",
  "Alderholt Lane",
  "Barrowmere",
  "Beacon Hill",
  "Blackwater Ford",
  "Brindle Cross",
  "Carrow Bridge",
  "Castle Marsh",
  "Coldharbour",
  "Copper Beeches",
  "Crane Fen",
  "Dunmore Road",
  "Eastgate",
  "Elm Tree Farm",
  "Fairholme",
  "Fenmoor Quay",
  "Gallows Hill",
  "Greywell",
  "Hallow End",
  "Harrowby Mill",
  "Hatherley",
  "Heron Lock",
  "Holm Common",
  "Kettle Green",
  "Kingsdyke",
  "Larkspur Way",
  "Little Sedge",
  "Long Drove",
  "Lower Sedge",
  "Marram Bank",
  "Middlefield",
  "Mill Hythe",
  "Northwold",
  "Oakhanger",
  "Pike Fen",
  "Quarry Lane",
  "Redbarn",
  "Rookery Corner",
  "Saltings",
  "Sedgecombe",
  "Shepherds Well",
  "Southery Road",
  "Stow Bardolph",
  "Thornham",
  "Upwell Gate",
  "Wash Lane",
  "Westfield",
  "Wyvern Park",
];
const STATION_TYPES = ["Raw water", "Treated water", "Booster"] as const;
/** Stations the prose describes (Part 4, W3 and W6): their register rows must agree with it. */
const STATION_FACTS: Record<string, { pumps?: number; criticality?: number }> = {
  "Holm Common": { pumps: 4, criticality: 5 },
  "Brindle Cross": { pumps: 3, criticality: 5 },
};

function stationRegister(): string[][] {
  const random = seeded(2026);
  const rows = STATION_NAMES.map((name, i) => {
    const type = STATION_TYPES[i % 3]!;
    const flow =
      type === "Raw water"
        ? 300 + Math.round(random() * 60) * 20
        : type === "Treated water"
          ? 200 + Math.round(random() * 50) * 20
          : 20 + Math.round(random() * 30) * 5;
    const head = type === "Booster" ? 25 + Math.round(random() * 35) : 15 + Math.round(random() * 70);
    const pumps = type === "Booster" ? 2 + Math.round(random()) : 2 + Math.round(random() * 2);
    const criticality = type === "Booster" ? 2 + Math.round(random() * 2) : 3 + Math.round(random() * 2);
    const built = 1958 + Math.round(random() * 64);
    const fixed = STATION_FACTS[name] ?? {};
    return [
      `PS-${String(101 + i)}`,
      name,
      type,
      `${flow} l/s`,
      `${head} m`,
      String(fixed.pumps ?? pumps),
      String(fixed.criticality ?? criticality),
      String(built),
    ];
  });
  return [["Station", "Name", "Type", "Duty flow", "Duty head", "Pumps", "Criticality", "Built"], ...rows];
}

/** The service reservoirs of Annex B (seeded as above). */
const RESERVOIR_NAMES = [
  "Ashdown",
  "Bell Hill",
  "Broadmoor",
  "Catley Down",
  "Chalk Pit",
  "Church Hill",
  "Deeping",
  "Dyke End",
  "Foxcote",
  "Gorse Hill",
  "Hanger Wood",
  "High Fen",
  "Kiln Down",
  "Lamb Hill",
  "Maiden Bower",
  "Nettle Bank",
  "Orchard Top",
  "Pennyfield",
  "Ridgeway",
  "Sedgecombe",
  "Sheepcote",
  "Summerleaze",
  "Tanners Hill",
  "Toll Bar",
  "Warren Top",
  "Windmill Hill",
];

/** Reservoirs the prose describes (Part 4: W4, W11, G9.1, G10.1). */
const RESERVOIR_FACTS: Record<string, { capacity?: number; cells?: number }> = {
  Ashdown: { capacity: 3500, cells: 1 },
  Foxcote: { capacity: 4250, cells: 2 },
  "Maiden Bower": { cells: 2 },
  Sedgecombe: { cells: 2 },
};

function reservoirRegister(): string[][] {
  const random = seeded(1958);
  const rows = RESERVOIR_NAMES.map((name, i) => {
    const fixed = RESERVOIR_FACTS[name] ?? {};
    const capacity = fixed.capacity ?? 500 + Math.round(random() * 78) * 250;
    // Clause 21.1: more than 2,000 m3 needs two cells (Ashdown's lack of one is a derogation, Part 4 G10.1).
    const cells = fixed.cells ?? (capacity > 2000 ? 2 : random() < 0.5 ? 1 : 2);
    const built = 1921 + Math.round(random() * 95);
    const lastClean = 2018 + Math.round(random() * 7);
    const level = 40 + Math.round(random() * 90);
    return [`SR-${String(201 + i)}`, name, `${capacity.toLocaleString("en-GB")} m3`, String(cells), `${level} m AOD`, String(built), String(lastClean)];
  });
  return [["Reservoir", "Name", "Capacity", "Cells", "Top water level", "Built", "Last cleaned"], ...rows];
}

export const sections: Section[] = [
  {
    heading: "14. Asset Criticality and Inspection Planning",
    level: 1,
    parts: [],
  },
  {
    heading: "14.1 Criticality scores",
    level: 2,
    parts: [
      "Every asset covered by this Part has a criticality score from 1 to 5 in the Asset Management Plan AMP-5. The score combines the number of properties that would lose supply if the asset failed, the time to restore supply, and the effect of a failure on water quality. Assets scoring 4 or 5 are critical assets in the sense of clause 3 and have the shorter inspection intervals given in clauses 15 to 23.",
      {
        table: [
          ["Score", "Properties affected by a failure", "Time to restore supply", "Water quality effect"],
          ["1", "fewer than 50", "under 4 hours", "none"],
          ["2", "50 to 500", "4 to 12 hours", "none"],
          ["3", "501 to 2,000", "12 to 24 hours", "discoloration possible"],
          ["4", "2,001 to 10,000", "24 to 48 hours", "loss of residual possible"],
          ["5", "more than 10,000", "more than 48 hours", "contamination possible"],
        ],
      },
      "An asset's score is the highest of the three columns that applies to it, not their average. A pumping station whose failure would affect 1,200 properties for 30 hours therefore scores 4. Scores are reviewed every three years, and at once when the network around an asset changes.",
    ],
  },
  {
    heading: "14.2 Adjusting inspection intervals",
    level: 2,
    parts: [
      "The inspection intervals in clauses 15 to 23 are the greatest allowed. An asset manager may shorten an interval for an asset with a poor record, and shall shorten it by half for an asset graded 4 or 5 at its last inspection (clause 14.3) until two consecutive inspections grade it 3 or better.",
      "An interval may be lengthened by at most 50 percent, never beyond the value for non-critical assets, for an asset with continuous condition monitoring that covers the inspection's purpose, for example a pump with online vibration and bearing temperature monitoring. The lengthened interval and its justification shall be recorded in AMP-5.",
      "An inspection carried out up to 30 days after its due date does not breach the interval, but the next inspection is then due one interval after the original due date, not after the late inspection. An inspection more than 30 days late shall be reported to the asset manager as a missed inspection.",
    ],
  },
  {
    heading: "14.3 Condition grades",
    level: 2,
    parts: [
      "Each inspection ends with a condition grade for the asset, from 1 to 5, recorded with the inspector's name and the date.",
      {
        table: [
          ["Grade", "Description", "Action required"],
          ["1", "as new", "none"],
          ["2", "minor wear, fully serviceable", "none"],
          ["3", "moderate wear, serviceable", "plan repair within 12 months"],
          ["4", "significant defects", "repair within 3 months"],
          ["5", "unserviceable or unsafe", "repair or isolate within 7 days"],
        ],
      },
      "An asset graded 5 that remains in service for more than 7 days needs the written approval of the Head of Asset Operations, with the measures taken to limit the risk meanwhile.",
    ],
  },
  {
    heading: "14.4 Competence of inspectors",
    level: 2,
    parts: [
      "Inspections of pumps and electrical equipment shall be carried out by an inspector holding the Authority's Mechanical and Electrical Inspection certificate. Inspections of reservoirs and water towers shall be led by a chartered civil or structural engineer; the confined-space entry itself is governed by HSW-9. Valve and hydrant inspections may be carried out by network technicians trained in the Authority's Network Operations course, renewed every three years.",
    ],
  },
  {
    heading: "14.5 The annual inspection programme",
    level: 2,
    parts: [
      "The asset manager for each area issues the inspection programme for the coming financial year by 1 March. The programme lists every inspection falling due in the year with its due date, taken from the last inspection of the same kind and the interval that applies after any adjustment under clause 14.2, and groups inspections at the same site into as few visits as the intervals allow.",
      "Progress against the programme is reported monthly. An area that has completed less than 90 percent of the inspections due by the end of a quarter shall submit a recovery plan within 20 working days, and missed inspections of critical assets shall be reported to the Head of Asset Operations individually.",
    ],
  },
  {
    heading: "15. Raw Water Pumps",
    level: 1,
    parts: [],
  },
  {
    heading: "15.1 General requirements for raw water pumps",
    level: 2,
    parts: [
      "Raw water pumps lift water from an intake or a borehole to the head of a treatment works. Because they handle untreated water that may carry grit and fibres, they shall be of a non-clogging design with a free passage of at least 25 mm, and their lubrication and seal water shall never be able to enter the pumped water.",
      "Each raw water pumping station shall have at least one standby pump of the same duty as the largest duty pump, installed and connected, and shall be able to deliver the maximum works flow with the largest pump out of service.",
    ],
  },
  {
    heading: "15.2 Design of raw water pumps",
    level: 2,
    parts: [
      "Raw water pumps shall be selected to operate between 80 and 110 percent of their best efficiency flow at the normal range of intake levels, and shall have a net positive suction head margin of at least 1.5 metres above the pump's requirement at the lowest intake level. Variable-speed drives shall not take a pump below 60 percent of its rated speed.",
      "Borehole pumps shall be submersible, set at least 3 metres below the lowest pumping water level recorded in the last 10 years, and fitted with a flow sleeve where the motor would otherwise be cooled by less than 0.3 metres per second of passing water.",
    ],
  },
  {
    heading: "15.3 Inspection intervals for raw water pumps",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of raw water pumps. Critical assets are those scoring 4 or 5 under clause 14.1.",
      {
        table: [
          ["Inspection", "Critical raw water pumps", "Other raw water pumps"],
          ["Visual check of running condition, noise and leaks", "weekly", "monthly"],
          ["Vibration measurement at each bearing", "every 3 months", "every 6 months"],
          ["Performance test (flow, head and power)", "every 12 months", "every 24 months"],
          ["Motor insulation resistance test", "every 12 months", "every 24 months"],
          ["Strip-down and internal inspection", "every 6 years", "every 8 years"],
        ],
      },
      "Borehole pumps cannot be inspected visually; for them the weekly or monthly check is replaced by a check of the motor current and the pumping water level from telemetry, and the strip-down is done when the pump is withdrawn, but at least every 8 years whatever the criticality.",
    ],
  },
  {
    heading: "15.4 Acceptance criteria for raw water pumps",
    level: 2,
    parts: [
      "A raw water pump passes its inspection when its overall vibration velocity at every bearing is no more than 4.5 mm/s RMS, its delivered flow at the duty head is at least 90 percent of the flow at commissioning, and its motor insulation resistance is at least 100 megohms at 1,000 volts DC.",
      "A vibration velocity between 4.5 and 7.1 mm/s RMS grades the pump at least 4 and requires a repair within 3 months; above 7.1 mm/s RMS the pump grades 5 and shall be taken out of service. A flow below 90 percent but above 80 percent of the commissioning flow calls for an impeller and wear-ring inspection at the next planned outage.",
    ],
  },
  {
    heading: "15.5 Records for raw water pumps",
    level: 2,
    parts: [
      "For each raw water pump the operator shall keep the running hours, the number of starts, every inspection with its measurements and grade, and every repair. The records shall be kept for the life of the pump and for 6 years after its removal.",
    ],
  },
  {
    heading: "15.6 Withdrawing borehole pumps",
    level: 2,
    parts: [
      "A borehole pump is withdrawn for its strip-down, or sooner when its delivered flow has fallen below 85 percent of the commissioning flow or its motor current has risen by more than 10 percent at the same flow. While the pump is out, the borehole shall be surveyed by downhole camera, its depth measured against the drilling record, and the casing and screen checked for corrosion and encrustation.",
      "Rising main sections and cables shall be disinfected with a 50 mg/l chlorine solution as they are lowered back into the borehole, and the borehole shall be pumped to waste until two samples taken at least 24 hours apart show no coliforms and no E. coli in 100 ml and a turbidity below 1 NTU. A borehole returning to service after more than 30 days out of use shall also be sampled for the full chemical suite before its water enters the works.",
    ],
  },
  {
    heading: "16. Treated Water Pumps",
    level: 1,
    parts: [],
  },
  {
    heading: "16.1 General requirements for treated water pumps",
    level: 2,
    parts: [
      "Treated water pumps, also called high-lift pumps, deliver treated water from the contact tank or treated water tank of a works into the trunk mains. Because they are in contact with water that will not be treated again, every component wetted by the water, including the lubricants of the shaft seals, shall be listed in CHM-1 as suitable for drinking water.",
      "Each treated water pumping station shall have duty and standby pumps such that the maximum works output can be delivered with the largest pump out of service, and at class A and B works with any two pumps out of service for 24 hours if the service reservoirs downstream hold less than 24 hours of demand.",
    ],
  },
  {
    heading: "16.2 Design of treated water pumps",
    level: 2,
    parts: [
      "Treated water pumps shall be selected to operate between 85 and 110 percent of their best efficiency flow for at least 80 percent of their running hours. The pump sets shall be fitted with non-return valves that close in less than 1 second to limit surge, and with a surge vessel where a surge analysis shows a pressure below minus 5 metres or above 1.5 times the working pressure on pump trip.",
      "Treated water pumps shall never draw from a tank whose level is below the minimum level that gives the CT of clause 10.2. The control system shall stop them before that level is reached, even when the downstream reservoirs are low.",
    ],
  },
  {
    heading: "16.3 Inspection intervals for treated water pumps",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of treated water pumps. Since a treated water pump stopping affects every property the works serves, most treated water pumps are critical assets.",
      {
        table: [
          ["Inspection", "Critical treated water pumps", "Other treated water pumps"],
          ["Visual check of running condition, noise and leaks", "daily at staffed works, else at each visit", "weekly"],
          ["Vibration measurement at each bearing", "monthly", "every 3 months"],
          ["Performance test (flow, head and power)", "every 6 months", "every 12 months"],
          ["Motor insulation resistance test", "every 12 months", "every 18 months"],
          ["Strip-down and internal inspection", "every 5 years", "every 7 years"],
        ],
      },
      "A standby treated water pump shall also be run for at least 30 minutes every week, so that its bearings, seals and non-return valve remain free and a fault is found before the pump is needed.",
    ],
  },
  {
    heading: "16.4 Acceptance criteria for treated water pumps",
    level: 2,
    parts: [
      "A treated water pump passes its inspection when its overall vibration velocity at every bearing is no more than 3.5 mm/s RMS, its delivered flow at the duty head is at least 95 percent of the flow at commissioning, its motor insulation resistance is at least 100 megohms at 1,000 volts DC, and its shaft seal leaks no visible water on to the floor.",
      "A vibration velocity between 3.5 and 5.6 mm/s RMS grades the pump 4; above 5.6 mm/s RMS the pump grades 5 and shall be taken out of service. Because the threshold is stricter than for raw water pumps, a pump moved from raw water to treated water duty shall be tested again before its first use.",
    ],
  },
  {
    heading: "16.5 Records for treated water pumps",
    level: 2,
    parts: [
      "For each treated water pump the operator shall keep the running hours, the number of starts, the energy used each month, every inspection with its measurements and grade, and every repair, together with the certificate that each wetted part is on CHM-1. The records shall be kept for the life of the pump and for 10 years after its removal.",
    ],
  },
  {
    heading: "16.6 Commissioning of treated water pumps",
    level: 2,
    parts: [
      "A new or rebuilt treated water pump is commissioned in three steps. First, its wetted parts are disinfected with a 50 mg/l chlorine solution for at least 1 hour and flushed. Second, it runs to waste for at least 2 hours while its vibration, bearing temperatures, flow, head and power are measured at four flows between 70 and 110 percent of the duty flow. Third, its discharge is sampled for coliforms, E. coli and turbidity before the pump is connected to supply.",
      "The measurements of the second step become the commissioning values against which later performance tests are judged under clause 16.4. A pump whose commissioning vibration exceeds 2.8 mm/s RMS at the duty flow shall not be accepted from the supplier, since it would have little margin before reaching the 3.5 mm/s RMS acceptance limit.",
    ],
  },
  {
    heading: "17. Booster Pumps",
    level: 1,
    parts: [],
  },
  {
    heading: "17.1 General requirements for booster pumps",
    level: 2,
    parts: [
      "Booster pumps raise the pressure of water already in the distribution network to supply a higher pressure zone. A booster station shall be able to meet the peak hourly demand of the zone it serves with its largest pump out of service. Where the zone it serves has no service reservoir, the station shall also have a standby generator or a connection for a mobile generator (clause 24).",
      "A booster station shall never draw the pressure in its suction main below 15 metres head, so that the properties upstream keep an adequate supply. A low suction pressure switch shall stop the pumps at 15 metres and allow them to restart only once the pressure has recovered to 20 metres.",
    ],
  },
  {
    heading: "17.2 Design of booster pumps",
    level: 2,
    parts: [
      "Booster pumps shall be variable-speed sets controlled to hold a constant pressure at the station outlet or at a critical point in the zone. They shall be selected to operate between 70 and 110 percent of their best efficiency flow, since demand in a zone without storage swings widely between night and morning peak.",
      "A booster station serving more than 500 properties shall have at least three pumps, so that the night flow can be met by one small pump running near its best efficiency point.",
    ],
  },
  {
    heading: "17.3 Inspection intervals for booster pumps",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of booster pumps. A booster station is a critical asset when the zone it serves has no service reservoir and more than 2,000 properties, or when its criticality score is otherwise 4 or 5.",
      {
        table: [
          ["Inspection", "Critical booster pumps", "Other booster pumps"],
          ["Visual check of running condition, noise and leaks", "monthly", "every 3 months"],
          ["Vibration measurement at each bearing", "every 6 months", "every 12 months"],
          ["Performance test (flow, head and power)", "every 12 months", "every 36 months"],
          ["Motor insulation resistance test", "every 24 months", "every 36 months"],
          ["Strip-down and internal inspection", "every 8 years", "every 10 years"],
        ],
      },
      "Where a booster station has online monitoring of each pump's vibration, the vibration measurements may be replaced by a monthly review of the trend, which shall be recorded as if it were an inspection.",
    ],
  },
  {
    heading: "17.4 Acceptance criteria for booster pumps",
    level: 2,
    parts: [
      "A booster pump passes its inspection when its overall vibration velocity at every bearing is no more than 4.5 mm/s RMS, it delivers its duty flow at a pressure no more than 3 metres below the set pressure, and its motor insulation resistance is at least 50 megohms at 500 volts DC.",
      "The pressure control shall hold the outlet pressure within 2 metres of the set value as the flow changes from the night minimum to the morning peak. A control that hunts, with the pressure swinging by more than 5 metres, grades the station 4 whatever the state of the pumps.",
    ],
  },
  {
    heading: "17.5 Records for booster pumps",
    level: 2,
    parts: [
      "For each booster station the network operator shall keep the set pressure and every change to it with the reason, the running hours and starts of each pump, every inspection with its measurements and grade, and every repair. The records shall be kept for 6 years after the station is decommissioned.",
    ],
  },
  {
    heading: "18. Isolation Valves",
    level: 1,
    parts: [],
  },
  {
    heading: "18.1 General requirements for isolation valves",
    level: 2,
    parts: [
      "Isolation valves allow a length of main to be shut off for repair. On distribution mains they shall be placed so that no more than 250 properties lose supply when a length between two valves is shut off, and on trunk mains at intervals of no more than 1,500 metres. Every valve shall turn to close in the clockwise direction, except the valves of the pre-1974 Northwold network, which close anticlockwise and are marked with a red cap.",
    ],
  },
  {
    heading: "18.2 Design of isolation valves",
    level: 2,
    parts: [
      "Isolation valves up to 300 mm diameter shall be resilient-seated gate valves; larger valves shall be butterfly valves with a gearbox. A valve of 450 mm or more on a trunk main shall have a bypass of one fifth of its diameter, so that the main can be recharged slowly after a shutdown. Valve chambers deeper than 1.2 metres count as confined spaces under HSW-9.",
    ],
  },
  {
    heading: "18.3 Inspection intervals for isolation valves",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of isolation valves. A valve is critical when it isolates a trunk main, a service reservoir inlet or outlet, or a main feeding a hospital, or when its criticality score is 4 or 5.",
      {
        table: [
          ["Inspection", "Critical isolation valves", "Other isolation valves"],
          ["Locate, check the cover and the chamber", "every 12 months", "every 4 years"],
          ["Operate through its full travel and count the turns", "every 2 years", "every 6 years"],
          ["Proof test (close against full pressure, check for passing)", "every 4 years", "not required"],
        ],
      },
      "Operating a valve that has not been moved for more than 6 years shall be planned as network work, with the properties downstream warned of possible discoloration, since moving a long-seized valve can disturb sediment in the main.",
    ],
  },
  {
    heading: "18.4 Acceptance criteria for isolation valves",
    level: 2,
    parts: [
      "An isolation valve passes its inspection when it can be found from the records within 2 metres of its recorded position, its cover and chamber are sound and free of debris, it operates through its full travel with no more than the torque stated by the manufacturer, and its count of turns is within 5 percent of the recorded number. At a proof test, the flow passing the closed valve shall be no more than 0.1 litres per second per 100 mm of diameter.",
      "A valve that cannot be operated, or whose turns differ from the record by more than 5 percent, grades 4 and shall be repaired or replaced within 3 months.",
    ],
  },
  {
    heading: "18.5 Records for isolation valves",
    level: 2,
    parts: [
      "The network operator shall record each valve's position, diameter, direction of closing, number of turns and normal state (open or closed) in the network geographic information system, and update it within 10 working days of any inspection or operation.",
    ],
  },
  {
    heading: "18.6 Operating isolation valves safely",
    level: 2,
    parts: [
      "An isolation valve on a main of 300 mm or more shall be closed slowly, over at least 2 minutes for the last quarter of its travel, to avoid a surge. Before operating any valve the technician shall check the network records for its direction of closing and number of turns, and shall confirm by radio with the control room when a valve that feeds a hospital, a care home or a service reservoir is about to be moved.",
      "Valve keys shall be of the length that reaches the spindle without an extension bar where possible, and torque-limited keys shall be used on valves of 450 mm or more. A valve found to need more than the manufacturer's torque shall not be forced; it is reported as a defect and graded under clause 18.4.",
    ],
  },
  {
    heading: "19. Control and Pressure-Reducing Valves",
    level: 1,
    parts: [],
  },
  {
    heading: "19.1 General requirements for control valves",
    level: 2,
    parts: [
      "Control valves hold a flow, a pressure or a reservoir level: pressure-reducing valves (PRVs) lower the pressure into a zone, pressure-sustaining valves hold it upstream, and altitude valves close a reservoir inlet when the reservoir is full. Every PRV installation shall have two valves in parallel, of which either alone can meet the peak demand of the zone, so that one can be maintained without interrupting supply.",
    ],
  },
  {
    heading: "19.2 Design of control valves",
    level: 2,
    parts: [
      "A PRV shall be sized so that at the zone's minimum night flow it is at least 10 percent open, since a valve working nearly shut wears quickly and makes the pressure unstable. Where the night flow is too small for this, a smaller PRV shall be fitted in parallel for low flows. Each PRV shall have a pressure logger on its outlet recording at least every 15 minutes.",
    ],
  },
  {
    heading: "19.3 Inspection intervals for control valves",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of control valves. Control valves are critical where they feed a zone of more than 2,000 properties or where their failure open could burst mains, and otherwise non-critical.",
      {
        table: [
          ["Inspection", "Critical control valves", "Other control valves"],
          ["Review of the outlet pressure log", "weekly", "monthly"],
          ["Service of the pilot circuit and strainers", "every 6 months", "every 12 months"],
          ["Full overhaul with new diaphragm and seals", "every 5 years", "every 8 years"],
        ],
      },
    ],
  },
  {
    heading: "19.4 Acceptance criteria for control valves",
    level: 2,
    parts: [
      "A PRV passes its inspection when its outlet pressure stays within 3 metres of its set value over the week of logs reviewed, with no step change of more than 5 metres, and when it closes tight at zero demand. An altitude valve passes when it closes within 0.1 metres of the reservoir's top water level and opens again no more than 0.3 metres below it.",
    ],
  },
  {
    heading: "19.5 Records for control valves",
    level: 2,
    parts: [
      "For each control valve the network operator shall keep the set value and every change to it, the reason and who approved it, the pressure logs for 3 years, and every inspection and repair for 10 years.",
    ],
  },
  {
    heading: "19.6 Pressure management",
    level: 2,
    parts: [
      "Where a zone's pressure is higher than its customers need, the network operator should lower it at night with a time- or flow-modulated PRV, because leakage falls with pressure and burst frequency with pressure changes. The pressure at the critical point of the zone, the property with the lowest available pressure, shall never be lowered below 15 metres head at the boundary stopcock, and 20 metres head during the morning peak from 06:00 to 09:00.",
      "A pressure management scheme shall be reviewed after 12 months, comparing the zone's night flow and its bursts with the 12 months before. A scheme that has led to more than five complaints of low pressure in that time shall have its settings raised.",
    ],
  },
  {
    heading: "20. Air Valves and Washouts",
    level: 1,
    parts: [],
  },
  {
    heading: "20.1 General requirements for air valves and washouts",
    level: 2,
    parts: [
      "Air valves release air that collects at the high points of a main and let air in when a main is drained, to prevent a vacuum. Washouts at the low points allow a main to be drained and flushed. Every trunk main shall have an air valve at each high point and at least every 800 metres on long even gradients, and a washout at each low point.",
      "Air valves shall be of a type that cannot draw water back from a flooded chamber into the main; where the chamber can flood, the valve shall be fitted with an anti-flood float or the chamber with a drain to a soakaway.",
    ],
  },
  {
    heading: "20.2 Design of air valves and washouts",
    level: 2,
    parts: [
      "Large-orifice air valves shall be sized so that the main can be filled at 0.3 metres per second and drained at the washout's full flow without the pressure in the main falling below minus 3 metres. Washouts shall discharge through a visible air gap to a ditch, a sewer or a tanker connection, never directly into a watercourse without a dechlorination chamber.",
    ],
  },
  {
    heading: "20.3 Inspection intervals for air valves and washouts",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of air valves and washouts on trunk mains. On distribution mains, air valves and washouts are inspected with the isolation valves of the same length of main, at the intervals of clause 18.3.",
      {
        table: [
          ["Inspection", "Air valves", "Washouts"],
          ["Check the chamber for flooding and the valve for leaks", "every 6 months", "every 12 months"],
          ["Operate and check the float or the valve seat", "every 12 months", "every 2 years"],
          ["Strip, clean and replace seals", "every 4 years", "every 6 years"],
        ],
      },
    ],
  },
  {
    heading: "20.4 Acceptance criteria for air valves and washouts",
    level: 2,
    parts: [
      "An air valve passes its inspection when it releases air freely when operated, closes without weeping at working pressure, and its chamber is dry or drains within 30 minutes. A washout passes when it opens and closes fully, its discharge runs clear within 10 minutes, and its outfall is unobstructed.",
    ],
  },
  {
    heading: "20.5 Records for air valves and washouts",
    level: 2,
    parts: [
      "The network operator shall record the position, size and type of each air valve and washout in the network geographic information system, with the outfall of each washout and the watercourse it reaches, if any. Inspection results are kept for 6 years; each use of a washout to drain or flush a main is recorded with the date and the approximate volume discharged.",
    ],
  },
  {
    heading: "21. Service Reservoirs",
    level: 1,
    parts: [],
  },
  {
    heading: "21.1 General requirements for service reservoirs",
    level: 2,
    parts: [
      "Service reservoirs balance the steady output of the works against the daily swing of demand and hold a reserve for fire-fighting and for a works outage. The storage in a supply zone shall be at least 24 hours of average day demand, and at least 36 hours where the zone is fed by a single works with no cross-connection to another.",
      "Every service reservoir holding more than 2,000 cubic metres shall have at least two cells, so that one can be drained for inspection and cleaning while the other stays in supply. Single-cell reservoirs shall have a bypass main and valves so that the zone can be supplied directly while the cell is out of service.",
    ],
  },
  {
    heading: "21.2 Design of service reservoirs",
    level: 2,
    parts: [
      "A service reservoir shall be covered and its roof made watertight, with a membrane under the soil cover of at least 300 mm. Inlet and outlet shall be placed to keep the water moving, so that no part of a cell holds water for more than 5 days at average demand. Overflows and vents shall be fitted with screens of 1 mm mesh or finer, and hatches shall be raised at least 150 mm above the roof with a lockable cover that overlaps the frame.",
      "Each cell shall have a level transmitter and a high-level alarm at 0.15 metres below the overflow, and a low-level alarm set to keep at least 6 hours of average demand in the cell.",
    ],
  },
  {
    heading: "21.3 Inspection intervals for service reservoirs",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of service reservoirs. A service reservoir is critical when it serves more than 10,000 properties or when it is the only storage in its zone.",
      {
        table: [
          ["Inspection", "Critical service reservoirs", "Other service reservoirs"],
          ["External check of hatches, vents, overflow and fencing", "weekly", "monthly"],
          ["Roof inspection for ponding, cracks and membrane damage", "every 6 months", "every 12 months"],
          ["Internal inspection with the cell drained", "every 5 years", "every 10 years"],
          ["Cleaning of each cell", "every 5 years", "every 10 years"],
          ["Structural survey by a chartered engineer", "every 10 years", "every 15 years"],
        ],
      },
      "Internal inspections may be made with a remotely operated camera instead of draining the cell, but only once between two drained inspections, and only where the previous drained inspection graded the cell 2 or better.",
    ],
  },
  {
    heading: "21.4 Acceptance criteria for service reservoirs",
    level: 2,
    parts: [
      "A service reservoir passes its inspection when its hatches are locked and sealed, its vents and overflow screens are intact, no ponding deeper than 25 mm remains on the roof 48 hours after rain, and the water tightness test after an internal inspection shows a fall in level of no more than 10 mm in 7 days with the inlet and outlet closed, after allowing for evaporation.",
      "Any opening through which birds, insects or surface water could reach the stored water grades the reservoir 5: the cell shall be isolated or the opening sealed within 24 hours, and the water sampled for coliforms and E. coli under clause 31.",
    ],
  },
  {
    heading: "21.5 Returning a cell to service",
    level: 2,
    parts: [
      "After an internal inspection, cleaning or repair, a cell shall be disinfected with a chlorine solution of 20 mg/l left in contact for 24 hours, or 50 mg/l for 4 hours, then drained, refilled and sampled. The cell may return to supply only when two samples taken at least 24 hours apart show no coliforms and no E. coli in 100 ml and a turbidity below 1 NTU.",
    ],
  },
  {
    heading: "21.6 Cleaning methods for service reservoirs",
    level: 2,
    parts: [
      "Cells are cleaned after draining by removing the sediment with squeegees and wet vacuum equipment, then washing the floor, walls and columns with a low-pressure jet of treated water. High-pressure jetting above 150 bar is not used on concrete older than 40 years, since it can remove the surface layer and expose the aggregate. The sediment removed shall be weighed or estimated and recorded, because a growing amount from one inspection to the next points to a problem upstream, such as iron or manganese passing the works.",
      "Where a cell cannot be drained, for example a single-cell reservoir without a bypass main, it may be cleaned in service by divers or by a remotely operated vacuum unit, under a method statement approved by the Head of Water Quality. The divers' suits and equipment shall be disinfected with a 50 mg/l chlorine solution before entry.",
    ],
  },
  {
    heading: "21.7 Security of service reservoirs",
    level: 2,
    parts: [
      "Every service reservoir site shall be fenced to a height of at least 2.4 metres, with a locked gate, and every hatch, door and vent cover shall carry an intruder alarm reporting to the control room as a priority 1 alarm. An intruder alarm shall be attended by the Authority's security contractor within 30 minutes and by a network technician within 2 hours.",
      "Where an intrusion is confirmed, the cell or cells concerned shall be isolated until they have been inspected, and the water sampled for coliforms, E. coli and a broad chemical screen before they return to supply, unless the inspection shows that no hatch or vent was opened.",
    ],
  },
  {
    heading: "21.8 Overflows and scour outlets of service reservoirs",
    level: 2,
    parts: [
      "Each cell's overflow shall be able to pass the maximum inflow with the inlet valve fully open, and shall discharge through a flap valve and a screen of 1 mm mesh to a point at least 300 mm above the highest recorded flood level of the receiving ditch or sewer, so that water can never flow back into the cell. Scour outlets, used to drain a cell, shall discharge through a dechlorination chamber when they reach a watercourse.",
      "An overflow event shall raise a priority 2 alarm and be recorded with its duration and estimated volume. Two overflow events at the same cell within 30 days shall lead to a check of the inlet valve and its altitude control under clause 19.4.",
    ],
  },
  {
    heading: "22. Water Towers",
    level: 1,
    parts: [],
  },
  {
    heading: "22.1 General requirements for water towers",
    level: 2,
    parts: [
      "Water towers give pressure and a small store to zones on flat ground, where no hill is high enough for a service reservoir. Because their tanks are small and exposed to the sun, the water in them warms faster and its chlorine decays faster than in a buried reservoir; the operator shall turn the contents over at least once every 48 hours.",
    ],
  },
  {
    heading: "22.2 Design of water towers",
    level: 2,
    parts: [
      "A water tower shall have access by an enclosed ladder with a rest platform every 6 metres, or by a lift. Its tank shall be insulated where the water would otherwise freeze at the design winter temperature of minus 12 deg C, and the inlet and outlet shall be separate pipes, arranged so that the water mixes.",
    ],
  },
  {
    heading: "22.3 Inspection intervals for water towers",
    level: 2,
    parts: [
      "The table gives the greatest intervals between inspections of water towers. Every water tower in the Fenmoor network is treated as a critical asset, since each is the only storage in its zone.",
      {
        table: [
          ["Inspection", "Water towers"],
          ["External check of access, hatches, vents and overflow", "weekly"],
          ["Inspection of the supporting structure and the tank exterior", "every 12 months"],
          ["Internal inspection with the tank drained", "every 4 years"],
          ["Cleaning of the tank", "every 4 years"],
          ["Structural survey by a chartered engineer", "every 8 years"],
        ],
      },
    ],
  },
  {
    heading: "22.4 Acceptance criteria for water towers",
    level: 2,
    parts: [
      "A water tower passes its inspection when its hatches are locked and sealed, its vents and overflow screens are intact, no corrosion has reduced the thickness of a structural steel member by more than 10 percent, concrete cover cracks are narrower than 0.3 mm, and the tank loses no more than 5 mm of level in 24 hours with inlet and outlet closed.",
    ],
  },
  {
    heading: "22.5 Records for water towers",
    level: 2,
    parts: [
      "For each water tower the operator shall keep the daily turnover of its contents as calculated from the inlet and outlet meters, every inspection and cleaning with the findings and grade, the structural surveys, and every repair to the tank or its supporting structure. Turnover records shall be kept for 3 years and all other records for the life of the tower.",
    ],
  },
  {
    heading: "22.6 Corrosion protection of water towers",
    level: 2,
    parts: [
      "Steel water tower tanks shall be protected inside by a coating listed in CHM-1 for contact with drinking water and outside by a paint system with a design life of at least 15 years. The coating thickness shall be measured at the internal inspection at no fewer than 20 points, and the tank recoated when more than 5 percent of its internal surface shows coating breakdown or rust staining.",
      "Recoating shall be done with the tank out of service; the new coating shall cure for the time its maker states, at least 7 days, before the tank is disinfected under clause 21.5 and returned to service, since an uncured coating can release solvents into the water.",
    ],
  },
  {
    heading: "23. Mains and Hydrants",
    level: 1,
    parts: [],
  },
  {
    heading: "23.1 Pressure testing of new mains",
    level: 2,
    parts: [
      "Every new main, and every length of main relaid or relined, shall be pressure tested before it is connected to the network. Polyethylene mains are tested by the rebound method: the main is held at 1.5 times its working pressure, but at least 10 bar, for 30 minutes, the pressure is then dropped quickly by 10 to 15 percent, and the main passes if the pressure rises again or holds steady over the next 90 minutes.",
      "Ductile iron and steel mains are held at 1.5 times their working pressure for 1 hour, and pass when the water that must be added to keep the pressure is no more than 0.02 litres per millimetre of diameter per kilometre of main per bar of test pressure. A main that fails twice shall have its joints inspected before a third test.",
    ],
  },
  {
    heading: "23.2 Disinfection of new and repaired mains",
    level: 2,
    parts: [
      "A new main shall be swabbed, flushed at a velocity of at least 0.6 metres per second, filled with water holding 20 mg/l of free chlorine and left for 16 hours, after which at least 10 mg/l shall remain at every sampling point along it. It is then flushed to normal residual and sampled: it may be connected when one set of samples taken at least 16 hours after flushing shows no coliforms and no E. coli in 100 ml.",
      "A main repaired after a burst is disinfected by spraying the fittings and pipe ends with a 1,000 mg/l hypochlorite solution before they are joined, and flushed until the water runs clear; a sample is taken from the nearest hydrant downstream before the excavation is closed, and its result followed up under clause 31 if it is not clear.",
    ],
  },
  {
    heading: "23.3 Inspection intervals for hydrants",
    level: 2,
    parts: [
      "Fire hydrants on the Authority's mains are inspected for the fire and rescue service as well as for the Authority's own use in flushing. Hydrants within 100 metres of a hospital, a care home or a school are critical hydrants.",
      {
        table: [
          ["Inspection", "Critical hydrants", "Other hydrants"],
          ["Check the marker plate, the pit and the cover", "every 12 months", "every 2 years"],
          ["Open, flush and check the drain valve", "every 2 years", "every 4 years"],
          ["Flow and pressure test", "every 4 years", "every 8 years"],
        ],
      },
      "The fire and rescue service is sent the results of every flow test within 20 working days, and told within 24 hours when a critical hydrant is found unusable.",
    ],
  },
  {
    heading: "23.4 Acceptance criteria for hydrants",
    level: 2,
    parts: [
      "A hydrant passes its inspection when its marker plate is legible and within 10 metres of it, the pit is free of silt to at least 100 mm below the outlet, the drain valve empties the hydrant body within 5 minutes of closing, and, at a flow test, it delivers at least 8 litres per second at a residual pressure of at least 1 bar on a distribution main, or 20 litres per second on a trunk main.",
    ],
  },
  {
    heading: "23.5 Records for mains and hydrants",
    level: 2,
    parts: [
      "The network operator shall keep the pressure test and disinfection records of each main for the life of the main, every burst with its date, cause and the properties affected for 25 years, and the result of every hydrant inspection for 8 years. A burst is recorded within 5 working days of the repair.",
    ],
  },
  {
    heading: "23.6 Response to bursts",
    level: 2,
    parts: [
      "Bursts and major leaks shall be attended and repaired within the times in the table, counted from the moment the Authority first learns of them. The category of a main follows its diameter and the properties it feeds.",
      {
        table: [
          ["Category of main", "Attend within", "Supply restored within"],
          ["Trunk main (over 300 mm)", "1 hour", "12 hours, by rezoning if the repair takes longer"],
          ["Distribution main feeding more than 500 properties", "1 hour", "12 hours"],
          ["Distribution main feeding 50 to 500 properties", "2 hours", "12 hours"],
          ["Distribution main feeding fewer than 50 properties", "4 hours", "24 hours"],
          ["Leak with no loss of supply", "24 hours", "repair within 5 working days"],
        ],
      },
      "Where supply to more than 50 properties cannot be restored within 12 hours, an alternative supply of bottled water or bowsers under ESP-2 shall be in place by the twelfth hour, and customers registered as needing extra help shall be contacted within 4 hours of the loss of supply.",
    ],
  },
  {
    heading: "24. Standby Power and Telemetry",
    level: 1,
    parts: [],
  },
  {
    heading: "24.1 General requirements for standby power",
    level: 2,
    parts: [
      "Class A and B works, every treated water pumping station at them, and every booster station serving a zone without a service reservoir shall have a standby generator able to run the essential load (the treatment processes, the treated water pumps, disinfection and telemetry) for at least 72 hours on the fuel stored on site. Class C works shall have a standby generator or a connection for a mobile generator, with the mobile generator able to arrive within 4 hours.",
    ],
  },
  {
    heading: "24.2 Inspection intervals for standby generators",
    level: 2,
    parts: [
      "Generators shall start automatically on the loss of the mains supply and take the essential load within 30 seconds. The table gives the greatest intervals between tests.",
      {
        table: [
          ["Test", "Interval"],
          ["Start and run off load for 15 minutes", "weekly"],
          ["Run on the works load for at least 1 hour", "monthly"],
          ["Simulated mains failure with automatic changeover", "every 6 months"],
          ["Run on load for 8 hours (load bank where needed)", "every 12 months"],
          ["Fuel sample for water and microbial growth", "every 6 months"],
        ],
      },
      "A generator passes its test when it reaches rated voltage and frequency within 10 seconds of starting, holds the frequency within 1 percent on load, and has no fuel, oil or coolant leak. Fuel tanks shall be kept at least 90 percent full.",
    ],
  },
  {
    heading: "24.3 Telemetry and alarms",
    level: 2,
    parts: [
      "Every works, pumping station, reservoir and tower shall report its alarms to the Authority's control room at Fenmoor Quay. Alarms are of three priorities: priority 1 alarms, which threaten water quality or supply (a disinfection failure, a reservoir at low level, a pumping station tripped), shall reach the control room within 60 seconds and be acknowledged within 5 minutes; priority 2 alarms within 5 minutes and acknowledged within 30 minutes; priority 3 alarms are logged and reviewed on the next working day.",
      "The telemetry outstation at each site shall keep its own log for at least 14 days, so that nothing is lost if the link fails, and shall have a battery able to run it for at least 8 hours without mains power.",
    ],
  },
  {
    heading: "24.4 Fuel for standby generators",
    level: 2,
    parts: [
      "Diesel for standby generators shall be stored in double-skinned tanks with a leak detector between the skins and an overfill alarm at 95 percent of capacity. Fuel older than 12 months, or fuel in which the 6-monthly sample of clause 24.2 finds water above 200 milligrams per kilogram or microbial growth, shall be polished or replaced.",
      "The control room shall keep a list of the fuel held at each site, updated after each delivery and each test run, and shall arrange a delivery when any site falls below 75 percent of the fuel needed for 72 hours of essential load.",
    ],
  },
  {
    heading: "24.5 Testing of alarms",
    level: 2,
    parts: [
      "Every priority 1 alarm shall be tested from end to end, from the sensor or switch at the site to its display in the control room, every 6 months, and every priority 2 alarm every 12 months. A test passes when the alarm reaches the control room within the time of clause 24.3 and shows the right site and condition. An alarm that fails its test shall be repaired within 5 working days and, until then, the site shall be visited daily.",
    ],
  },
  {
    heading: "Annex A. Register of Pumping Stations",
    level: 1,
    parts: [
      "The register below lists the Authority's pumping stations with their duty flow and head, the number of pumps installed (duty and standby together), the criticality score from AMP-5 and the year of construction. The criticality score sets the inspection intervals of clauses 15.3, 16.3 and 17.3.",
      { table: stationRegister() },
    ],
  },
  {
    heading: "Annex B. Register of Service Reservoirs",
    level: 1,
    parts: [
      "The register below lists the Authority's service reservoirs with their capacity, the number of cells, the top water level in metres above ordnance datum (AOD), the year of construction and the year of the last cleaning. A reservoir whose last cleaning is older than its interval under clause 21.3 is due for cleaning in the current year's programme.",
      { table: reservoirRegister() },
    ],
  },
];
