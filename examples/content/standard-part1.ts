/**
 * Part 1 of the second evaluation corpus (examples/standard/fenmoor-ws7-part1-treatment.pdf):
 * general provisions and treatment processes of the fictional Fenmoor Regional Water Authority's
 * Standard WS-7. Every fact, name and number is invented. ASCII only (Helvetica, WinAnsi).
 */
import type { Section } from "./standard-common.js";

export const title = "Fenmoor Regional Water Authority - Standard WS-7, Part 1: General Provisions and Treatment Processes";

export const preamble: string[] = [
  "Standard WS-7, edition 3, issued 14 March 2026 by the Directorate of Water Quality and Assets of the Fenmoor Regional Water Authority (FRWA). Edition 3 replaces edition 2 of 9 June 2021 in full. Part 1 sets out the general provisions and the requirements for treatment processes; Part 2 covers pumping, storage and distribution assets; Part 3 covers water quality monitoring and reporting; Part 4, which is informative, gives guidance notes and worked examples.",
  "Clauses are numbered continuously across Parts 1 to 3, so that a reference such as clause 17.3 is unambiguous wherever it appears. Where a requirement uses the word shall it is mandatory; should marks a recommendation that an operator may depart from if the reason is recorded in the works file; may marks a permission.",
];

/** The chlorine CT values of Table 10.2, from a base value at pH 7.0 and a factor per pH step (invented). */
const CT_BASE: Array<[number, number]> = [
  [2, 150],
  [5, 122],
  [10, 88],
  [15, 61],
  [20, 44],
  [25, 31],
];
const CT_PH: Array<[string, number]> = [
  ["6.5", 0.8],
  ["7.0", 1],
  ["7.5", 1.22],
  ["8.0", 1.47],
  ["8.5", 1.78],
];
const ctTable: string[][] = [
  ["Water temperature", ...CT_PH.map(([ph]) => `pH ${ph}`)],
  ...CT_BASE.map(([temperature, base]) => [`${temperature} deg C`, ...CT_PH.map(([, factor]) => String(Math.round(base * factor)))]),
];

export const sections: Section[] = [
  {
    heading: "1. Scope and Application",
    level: 1,
    parts: [],
  },
  {
    heading: "1.1 Purpose",
    level: 2,
    parts: [
      "This standard states the minimum technical requirements for the design, operation, inspection and monitoring of the works that abstract, treat, store and distribute drinking water in the Fenmoor region. It applies to works owned by the Authority and to works operated on its behalf by contractors under a concession or an operation and maintenance agreement.",
      "The standard is written for the engineers who design new works or alterations, for the operators who run them day to day, and for the asset inspectors and laboratory staff whose findings show whether the works are doing what the standard requires. It does not replace the statutory drinking water regulations; where a regulation is stricter than this standard, the regulation prevails.",
    ],
  },
  {
    heading: "1.2 Works covered",
    level: 2,
    parts: [
      "The standard covers every installation from the point of abstraction to the customer's stopcock, namely: river and reservoir intakes and boreholes; treatment works of every size; raw water and treated water pumping stations; booster stations; service reservoirs and water towers; trunk mains and distribution mains; valves, hydrants and meters on the Authority's side of the boundary; and the telemetry, standby power and chemical storage that serve them.",
      "A works that supplies fewer than 50 people or less than 10 cubic metres a day, such as a private supply to a farm, is outside the Authority's network and is not covered, even where the Authority provides laboratory services to its owner.",
    ],
  },
  {
    heading: "1.3 Exclusions",
    level: 2,
    parts: [
      "The standard does not cover the plumbing inside customers' premises, the design of fire sprinkler systems fed from the network, wastewater assets, or the Authority's office buildings. Non-potable supplies, such as the untreated water sold to the Harrowby Paper Mill from the Lower Sedge intake, are covered only by clause 5 (raw water intakes) and clause 34 (records).",
      "Temporary supplies by bowser or bottled water during an incident are governed by the Authority's Emergency Supply Procedure ESP-2 and not by this standard, except for the sampling requirements of clause 31.4.",
    ],
  },
  {
    heading: "1.4 Transitional arrangements",
    level: 2,
    parts: [
      "Works designed under edition 2 and commissioned before 1 January 2027 may continue to operate under edition 2's design requirements until their next major refurbishment, but the operating, inspection and monitoring requirements of edition 3 apply to them from 1 September 2026.",
      "Any works that cannot meet an edition 3 operating requirement by 1 September 2026 shall be entered on the derogation register with a dated improvement plan approved by the Head of Water Quality. A derogation is granted for at most 24 months and may be renewed once, for at most 12 further months.",
    ],
  },
  {
    heading: "1.5 Roles named in this standard",
    level: 2,
    parts: [
      "Several clauses give a decision to a named role. On the date of issue the roles are held as follows; the standard refers to the role, not the person, and a change of holder does not need a new edition.",
      {
        table: [
          ["Role", "Holder on 14 March 2026", "Directorate"],
          ["Head of Water Quality", "Dr Miriam Oduya", "Water Quality and Assets"],
          ["Process Science Manager", "Tomasz Reilly", "Water Quality and Assets"],
          ["Head of Asset Operations", "Grace Whitfield", "Operations"],
          ["Laboratory Services Manager", "Dr Anand Kulkarni", "Water Quality and Assets"],
          ["Network Operations Manager", "Lena Halvorsen", "Operations"],
        ],
      },
      "In the absence of a role holder, the decision passes to the deputy named in the Authority's duty rota. The Head of Water Quality may not delegate the decision to issue or lift a boil water notice (clause 31.3) to anyone below the grade of Process Science Manager.",
    ],
  },
  {
    heading: "2. Structure of the Standard and Referenced Documents",
    level: 1,
    parts: [],
  },
  {
    heading: "2.1 Structure of the four parts",
    level: 2,
    parts: [
      "Part 1 (clauses 1 to 13) holds the general provisions, the definitions, the classification of works and the requirements for each treatment process. Part 2 (clauses 14 to 24) holds the requirements for pumps, valves, reservoirs, mains, hydrants, standby power and telemetry, each clause following the same pattern of general requirements, design, inspection intervals, acceptance criteria and records. Part 3 (clauses 25 to 34) holds the sampling programme, the parameter limits, the response to an exceedance and the reporting duties. Part 4 is informative: its guidance notes (G1, G2 and so on) and worked examples (W1, W2 and so on) explain the requirements and add none.",
      "Tables are numbered after the clause in which they appear, so that Table 10.2 sits in clause 10.2. Notes to tables are informative unless they contain the word shall.",
    ],
  },
  {
    heading: "2.2 Referenced documents",
    level: 2,
    parts: [
      "The following Authority documents are referred to in this standard. The edition current on the date of a design review, an inspection or a sample applies.",
      {
        list: [
          "- ESP-2 Emergency Supply Procedure (edition 4, 2024).",
          "- CHM-1 Chemical Approval List, which names every treatment chemical and product that may be used in contact with drinking water.",
          "- AMP-5 Asset Management Plan, which holds the criticality score of every asset.",
          "- LAB-3 Laboratory Methods Manual, which states the analytical method and the limit of detection for each parameter of Part 3.",
          "- HSW-9 Safe Systems of Work, which governs entry into confined spaces such as reservoirs, valve chambers and contact tanks.",
        ],
      },
    ],
  },
  {
    heading: "2.3 Order of precedence",
    level: 2,
    parts: [
      "Where two requirements of this standard conflict, the requirement of the more specific clause applies; where they are equally specific, the stricter applies. Where this standard and a design contract conflict, the contract shall be amended, since no contract may lower a requirement of this standard without a derogation under clause 1.4.",
    ],
  },
  {
    heading: "3. Terms and Definitions",
    level: 1,
    parts: [
      "For the purposes of this standard the following terms apply. Terms defined here are used with these meanings in all four parts.",
      {
        list: [
          "- Abstraction point: the place where raw water leaves the river, lake, reservoir or aquifer and enters the Authority's assets.",
          "- Acceptance criterion: the measured value or observed condition an asset must meet at an inspection to remain in service without a work order.",
          "- Action level: the concentration of a parameter at which the operator must investigate and act, set below the parameter limit so that action starts before the limit is breached.",
          "- Backwash: the reversal of flow through a filter bed, with or without air scour, to remove the solids it has retained.",
          "- Booster station: a pumping station within the distribution network that raises pressure for a higher zone, as distinct from a treated water pumping station at a works.",
          "- Clarified water: water leaving a clarification stage and entering the filters.",
          "- Contact time (T10): the time in which 10 percent of the water passing through a contact tank has left it, taken from a tracer test or from the baffle factors of clause 10.1.",
          "- Critical asset: an asset with a criticality score of 4 or 5 in AMP-5, whose failure would interrupt supply to more than 2,000 properties or affect water quality.",
          "- CT: the product of the free chlorine residual at the outlet of a contact tank, in milligrams per litre, and the contact time T10, in minutes.",
          "- Derogation: a time-limited, recorded permission to operate a works that does not meet a requirement of this standard.",
          "- Distribution input: the volume of treated water leaving all works and entering the distribution network, in cubic metres per day.",
          "- Exceedance: a result above a parameter limit, or below it where the limit is a minimum.",
          "- Filter run: the time between two backwashes of one filter.",
          "- Hydraulic loading rate: the flow applied to a filter or clarifier divided by its plan area, in metres per hour.",
          "- Inspection interval: the greatest time allowed between two inspections of the same kind on the same asset.",
          "- Major refurbishment: work on a works or asset costing more than 40 percent of its replacement value.",
          "- NTU: nephelometric turbidity unit.",
          "- Operator: the person or company in day-to-day control of a works, whether Authority staff or a contractor.",
          "- Parameter limit: the greatest (or least) value of a parameter that the water may show at the point of compliance stated in Part 3.",
          "- Proof test: a test of an asset's function under conditions that reproduce its duty, such as a valve closed against full pressure or a generator run on load.",
          "- Raw water: water at the abstraction point before any treatment.",
          "- Service reservoir: a covered tank in the distribution network that stores treated water, whether built on the ground or partly buried.",
          "- Supply zone: an area served from one source or blend of sources, in which the water quality may be taken as uniform, with at most 50,000 residents.",
          "- Treated water: water that has passed every treatment stage of a works and is ready to enter supply.",
          "- UVT: ultraviolet transmittance at 254 nanometres over a 10 millimetre path, in percent.",
          "- Water tower: an elevated tank whose base is at least 6 metres above the ground, supported on a structure.",
          "- Works class: the class A, B, C or D given to a treatment works by clause 4.",
        ],
      },
    ],
  },
  {
    heading: "4. Classification of Works",
    level: 1,
    parts: [],
  },
  {
    heading: "4.1 Class by population served",
    level: 2,
    parts: [
      "Every treatment works is given a class from the population it serves, taken as the resident population of every supply zone it feeds, weighted by the share of each zone's water it provides. The class sets the staffing, the level of automation, the sampling frequency of Part 3 and several inspection intervals of Part 2.",
      {
        table: [
          ["Class", "Population served", "Typical output"],
          ["A", "more than 100,000", "over 25,000 m3/day"],
          ["B", "20,001 to 100,000", "5,000 to 25,000 m3/day"],
          ["C", "2,001 to 20,000", "500 to 5,000 m3/day"],
          ["D", "50 to 2,000", "10 to 500 m3/day"],
        ],
      },
      "The typical output is given for guidance only: a works is classed by the population it serves, not by its output. A works whose population is within 5 percent of a class boundary is placed in the higher class.",
    ],
  },
  {
    heading: "4.2 Class by source risk",
    level: 2,
    parts: [
      "A works is raised one class, but never above class A, where its source is a lowland river downstream of a wastewater discharge, where the raw water exceeded 50 NTU on more than 10 days in any of the last three years, or where Cryptosporidium oocysts have been found in the raw water in the last five years.",
      "A works drawing only from a confined aquifer with no coliform detected in the raw water over the last 60 monthly samples may be lowered one class for the purpose of the staffing table in clause 4.3 only; its sampling frequency in Part 3 is not lowered.",
    ],
  },
  {
    heading: "4.3 Staffing and attendance",
    level: 2,
    parts: [
      "The table gives the minimum attendance by a competent operator. A works may be attended more often; it may not be attended less often without a derogation.",
      {
        table: [
          ["Class", "Attendance", "Call-out response"],
          ["A", "staffed 24 hours a day", "not applicable"],
          ["B", "staffed 07:00 to 19:00 daily", "60 minutes"],
          ["C", "one visit each day", "90 minutes"],
          ["D", "three visits each week", "120 minutes"],
        ],
      },
      "The call-out response is the time from the alarm reaching the control room to a competent operator arriving at the works. At class D works the three weekly visits shall be on non-consecutive days, and no more than three days shall pass between two visits.",
    ],
  },
  {
    heading: "4.4 Automation and shutdown by class",
    level: 2,
    parts: [
      "Because lower-class works are attended less, they rely more on automatic protection. The table gives the automatic shutdowns each class of works shall have, with the time a condition must last before the works stops (filtered turbidity is that of the combined filtered water; chlorine is the free chlorine leaving the works). A shutdown stops the treated water pumps or closes the works outlet until an operator has reset it on site.",
      {
        table: [
          ["Condition", "Class A", "Class B", "Classes C, D"],
          ["Coagulant dosing failure", "alarm", "alarm", "stop after 15 min"],
          ["Final chlorine under 0.2 mg/l", "alarm", "stop after 15 min", "stop after 5 min"],
          ["Filtered turbidity over 0.5 NTU", "alarm", "stop after 30 min", "stop after 10 min"],
          ["pH outside 7.4 to 8.6", "alarm", "alarm", "stop after 15 min"],
        ],
      },
      "An alarm at a class A works is answered by the operators on site, who decide whether to stop the works. The shutdown after a coagulant dosing failure at class A and B works is the one of clause 6.2, which follows 30 minutes without an operator confirming the dose is restored.",
    ],
  },
  {
    heading: "4.5 The works file",
    level: 2,
    parts: [
      "Every treatment works shall keep a works file, held electronically and available at the works and in the control room, which describes the works as it is at the time. It shall hold the works class and the reasons for it, a process flow diagram, the design and current capacity of each stage, the set points and alarm limits of every online monitor, the chemicals in use with their CHM-1 references, the current derogations, and every recorded departure from a should of this standard with its reason.",
      "The works file shall be reviewed by the works manager every 12 months and after every process change, and each review shall be signed and dated. A new operator shall read the works file, and sign that they have read it, before working alone at the works.",
    ],
  },
  {
    heading: "5. Raw Water Intakes",
    level: 1,
    parts: [],
  },
  {
    heading: "5.1 River intakes",
    level: 2,
    parts: [
      "A river intake shall draw water from at least 0.5 metres below the lowest recorded water level and at least 0.3 metres above the river bed, so that it neither takes floating debris nor draws in bed sediment. The approach velocity at the intake face shall not exceed 0.25 metres per second at the maximum abstraction rate, to protect fish and to limit the debris load on the screens.",
      "Every river intake shall be able to close within 15 minutes of a pollution warning from the river monitoring station upstream, either by a motorised penstock or by stopping the raw water pumps. The intake shall then remain closed until two consecutive raw water samples taken 30 minutes apart show that the pollutant has passed.",
    ],
  },
  {
    heading: "5.2 Reservoir draw-off towers",
    level: 2,
    parts: [
      "A draw-off tower in an impounding reservoir shall have draw-off ports at no fewer than three depths, so that the operator can select the layer of best quality. The ports shall be spaced at most 6 metres apart vertically, and the lowest shall be at least 2 metres above the reservoir floor.",
      "During summer stratification the operator should draw from the upper part of the cool layer below the thermocline, where algae are fewer than at the surface and manganese is lower than near the floor. The port in use and the reason for its choice shall be recorded each time it is changed.",
    ],
  },
  {
    heading: "5.3 Borehole sources",
    level: 2,
    parts: [
      "A borehole headworks shall be sealed so that surface water cannot enter it, with the casing rising at least 0.3 metres above the floor of a chamber that is itself drained. The grout seal around the casing shall extend at least 6 metres below ground level, or to the top of the confining layer where that is shallower.",
      "The protection zone around a borehole is a circle of 50 metres radius within which no slurry, fuel or pesticide may be stored. The operator shall walk the protection zone once a month and record anything found there.",
    ],
  },
  {
    heading: "5.4 Intake screens",
    level: 2,
    parts: [
      "Screens protect the pumps and the treatment stages from debris and fish. The table sets the aperture and the cleaning trigger for each type of screen.",
      {
        table: [
          ["Screen type", "Aperture", "Cleaning trigger"],
          ["Coarse bar screen", "50 mm", "head loss 150 mm"],
          ["Band screen", "6 mm", "head loss 100 mm"],
          ["Drum screen", "3 mm", "head loss 80 mm"],
          ["Wedge-wire passive screen", "2 mm", "air burst every 4 hours"],
        ],
      },
      "Where a screen is cleaned automatically, the cleaning mechanism shall also start on a timer at least once every 12 hours, whatever the head loss, to stop debris compacting on the screen face.",
    ],
  },
  {
    heading: "5.5 Raw water monitoring at the intake",
    level: 2,
    parts: [
      "Each intake shall have online monitors for turbidity, pH, conductivity and temperature, logged at least every 5 minutes. River intakes shall also have an online ammonium monitor and a fish-toxicity or broad-spectrum organic monitor.",
      "An alarm shall be raised when raw water turbidity rises by more than 20 NTU within one hour, or when ammonium exceeds 0.6 mg/l as NH4. On either alarm the operator shall check the coagulant dose against a jar test within 2 hours (clause 6.5).",
    ],
  },
  {
    heading: "5.6 Bankside storage",
    level: 2,
    parts: [
      "Where a river intake feeds a bankside storage reservoir before treatment, the reservoir shall hold at least 7 days of average works demand, so that the intake can stay closed through a pollution event on the river without the works running short. Storage of this length also lets suspended solids settle and allows some natural die-off of bacteria and viruses.",
      "Bankside reservoirs shall be mixed or aerated where the water would otherwise stratify in summer, and shall be monitored weekly from May to October for blue-green algae. A count above 20,000 cells per ml shall raise the frequency to twice a week and start the taste and odour watch of clause 29.2; a count above 100,000 cells per ml shall lead the operator to bypass the reservoir if the river quality allows it.",
    ],
  },
  {
    heading: "5.7 Records for intakes",
    level: 2,
    parts: [
      "For each intake the operator shall keep the daily volume abstracted, the online monitor logs of clause 5.5 for 5 years, every closure of the intake with its time, its reason and the time it reopened, every change of draw-off port with its reason, and the monthly protection zone walks of boreholes. Abstraction records shall be kept for 10 years, since the abstraction licence can be reviewed against them.",
    ],
  },
  {
    heading: "5.8 Inspection of intakes and screens",
    level: 2,
    parts: [
      "Intake structures are inspected as process assets. River intakes shall be inspected by divers or by a remotely operated camera every 2 years, and after every flood that has exceeded the 1-in-10-year flow, for scour of the river bed around the structure, damage to the intake face and debris lodged in the approach channel. Draw-off towers shall have their ports and valves operated every 12 months and inspected by divers every 5 years.",
      "Band and drum screens shall have their mesh, seals and spray bars inspected every 3 months and their drive chains and bearings every 12 months. A tear in a screen mesh larger than twice the aperture shall be repaired within 7 days, and the intake operated meanwhile at no more than half its maximum rate so that the approach velocity stays well below the limit of clause 5.1.",
    ],
  },
  {
    heading: "6. Coagulation and Flocculation",
    level: 1,
    parts: [],
  },
  {
    heading: "6.1 Coagulant selection",
    level: 2,
    parts: [
      "The coagulant shall be a product on the Chemical Approval List CHM-1. Ferric sulphate is the Authority's default for upland coloured waters; aluminium sulphate or a polyaluminium chloride may be used for lowland waters where the treated water aluminium can be held below the action level of Part 3.",
      "A change of coagulant at a works is a process change that needs a trial of at least 14 days, with the treated water sampled for the coagulant metal each day of the trial, and the approval of the Process Science Manager before it becomes permanent.",
    ],
  },
  {
    heading: "6.2 Dose control",
    level: 2,
    parts: [
      "The coagulant dose shall be paced to the raw water flow and trimmed by a feedback signal, normally the clarified water turbidity or a streaming current monitor. The dose pumps shall be able to deliver between 20 percent and 150 percent of the average dose at the maximum works flow.",
      "A dosing failure alarm shall be raised when the measured dose differs from the set dose by more than 15 percent for more than 10 minutes. At class A and B works a dosing failure shall stop the works inlet automatically after 30 minutes unless an operator has confirmed that the dose is restored; at class C and D works the inlet shall stop after 15 minutes, since no operator may be present.",
    ],
  },
  {
    heading: "6.3 Rapid mixing",
    level: 2,
    parts: [
      "The coagulant shall be dispersed within 1 second of its addition, either by an in-line static mixer, by a hydraulic jump or by a mechanical flash mixer with a velocity gradient G of at least 600 per second. The dosing point shall be at least 10 pipe diameters downstream of any bend, valve or other dosing point.",
    ],
  },
  {
    heading: "6.4 Flocculation",
    level: 2,
    parts: [
      "Flocculation tanks shall give a hydraulic retention time of 15 to 30 minutes at the maximum works flow, in at least three compartments in series. The velocity gradient shall taper from about 70 per second in the first compartment to about 20 per second in the last, so that the floc grows without being broken up again.",
      "Paddle flocculators shall be variable in speed. Baffled hydraulic flocculators are permitted at class C and D works only, where their lack of adjustment matters less than their simplicity.",
    ],
  },
  {
    heading: "6.5 Jar testing",
    level: 2,
    parts: [
      "Jar tests establish the coagulant dose and the coagulation pH for the raw water of the day. They shall be carried out at least once a week at class A and B works, at least once a month at class C and D works, and in every case within 2 hours of a raw water alarm under clause 5.5 or of a change of draw-off port.",
      "A jar test uses six jars of 1 litre each, a rapid mix of 1 minute at 200 revolutions per minute, a slow mix of 15 minutes at 30 revolutions per minute and a settling time of 20 minutes. The chosen dose is the lowest that gives a settled turbidity within 0.5 NTU of the best jar.",
    ],
  },
  {
    heading: "6.6 Flocculant aids",
    level: 2,
    parts: [
      "A polyacrylamide flocculant aid may be dosed after the coagulant to strengthen the floc, at no more than 0.25 mg/l as product, since the residual acrylamide monomer it carries is limited at the tap. Only products listed in CHM-1 with a monomer content of no more than 0.02 percent may be used.",
      "The flocculant aid shall be dosed at least 30 seconds after the coagulant, once the coagulant has reacted, and shall be made up in a batch tank and used within 48 hours of make-up, after which it loses strength. The dose shall be checked by a jar test whenever the coagulant dose is changed by more than 20 percent.",
    ],
  },
  {
    heading: "6.7 Records for coagulation",
    level: 2,
    parts: [
      "For coagulation and flocculation the operator shall keep the coagulant and flocculant aid doses logged at least every 15 minutes, the coagulation pH, every jar test with its results and the dose chosen, and every dosing failure alarm with the time the dose was restored. Jar test records shall be kept for 3 years and dosing logs for 5 years.",
    ],
  },
  {
    heading: "7. Clarification",
    level: 1,
    parts: [],
  },
  {
    heading: "7.1 Horizontal-flow sedimentation",
    level: 2,
    parts: [
      "Horizontal-flow sedimentation tanks shall be designed for a surface loading rate of no more than 1.0 metre per hour at the maximum works flow, a depth of 3 to 4 metres and a length at least four times the width. Sludge shall be removed at least once a day by scrapers or by a travelling bridge, so that its depth never exceeds 0.5 metres.",
    ],
  },
  {
    heading: "7.2 Dissolved air flotation",
    level: 2,
    parts: [
      "Dissolved air flotation (DAF) is the preferred clarification process for coloured upland waters and waters with algae. DAF units shall be designed for a surface loading rate of 8 to 12 metres per hour, with a recycle rate of 8 to 10 percent of the works flow saturated at a pressure of 4.5 to 6 bar.",
      "The float layer shall be removed by a scraper or by raising the water level (flooding) at least every 4 hours. A saturator pressure below 4.0 bar for more than 15 minutes shall raise an alarm, since the bubble size then becomes too large to lift the floc.",
    ],
  },
  {
    heading: "7.3 Sludge blanket clarifiers",
    level: 2,
    parts: [
      "Sludge blanket clarifiers shall be designed for an upflow rate of no more than 2.0 metres per hour and shall be fitted with blanket level detectors. The blanket level shall be held at least 1.5 metres below the decanting troughs. A blanket clarifier shall not be started from empty at more than 50 percent of its rated flow; the flow is then raised by no more than 10 percent an hour as the blanket forms.",
    ],
  },
  {
    heading: "7.4 Clarified water targets",
    level: 2,
    parts: [
      "Whatever the process, the clarified water from each clarifier shall be monitored online for turbidity. The target is below 1.0 NTU, and an alarm shall be raised at 2.0 NTU. Clarified water above 3.0 NTU for more than 30 minutes shall not be sent to the filters; the clarifier shall be taken out of service or the works flow reduced.",
    ],
  },
  {
    heading: "7.5 Inspection of clarifiers",
    level: 2,
    parts: [
      "Clarifiers are inspected as process assets, at intervals that depend on the process rather than on the criticality scores of Part 2, since every clarifier at a works is needed for its full output. The walk-round check covers the scrapers, the weirs and the sludge draw-off; the level check compares the sludge blanket or float layer with what the instruments show; the instrument calibration covers the turbidity and level instruments of the clarifier.",
      {
        table: [
          ["Inspection", "Sedimentation", "DAF", "Sludge blanket"],
          ["Walk-round check", "daily", "daily", "daily"],
          ["Blanket or float level check", "weekly", "weekly", "twice a week"],
          ["Drain-down inspection", "every 3 years", "every 2 years", "every 3 years"],
          ["Instrument calibration", "every 6 months", "every 3 months", "every 6 months"],
        ],
      },
      "At each drain-down the inspector shall check the concrete for spalling and exposed reinforcement, the scraper or nozzle mechanism for wear, and the decanting troughs for level: troughs that are more than 5 mm out of level along their length draw unevenly from the tank and shall be adjusted before it returns to service.",
    ],
  },
  {
    heading: "7.6 Removal of iron and manganese",
    level: 2,
    parts: [
      "Where the raw water carries more than 0.05 mg/l of manganese, the works shall oxidise and remove it before disinfection, either by raising the pH above 9.0 ahead of the filters, by dosing potassium permanganate, or by filtering through media coated with manganese oxide. Permanganate shall be dosed to leave no more than 0.02 mg/l of excess permanganate in the filtered water, which would otherwise turn pink at customers' taps.",
      "Iron in groundwater shall be oxidised by aeration or by chlorine before filtration. Where iron exceeds 1 mg/l in the raw water, the filters shall be backwashed at least every 48 hours, since the iron floc blinds the bed surface faster than the head loss trigger of clause 8.3 would show.",
    ],
  },
  {
    heading: "8. Rapid Gravity Filtration",
    level: 1,
    parts: [],
  },
  {
    heading: "8.1 Filter media",
    level: 2,
    parts: [
      "Rapid gravity filters shall be dual-media beds of anthracite over sand, or single-media beds of sand where the works takes only borehole water. Granular activated carbon may replace the anthracite where pesticides or taste and odour compounds need removing.",
      {
        table: [
          ["Medium", "Effective size", "Depth", "Uniformity coefficient"],
          ["Anthracite", "1.2 to 1.4 mm", "0.6 m", "1.5 or less"],
          ["Sand (dual media)", "0.5 to 0.6 mm", "0.4 m", "1.4 or less"],
          ["Sand (single media)", "0.6 to 0.8 mm", "0.9 m", "1.4 or less"],
          ["Granular activated carbon", "0.8 to 1.0 mm", "1.5 m", "1.8 or less"],
        ],
      },
      "Media depth shall be measured in each filter every 6 months. Where the depth of any layer has fallen by more than 10 percent of the value in the table, the filter shall be topped up before the next summer.",
    ],
  },
  {
    heading: "8.2 Filtration rates",
    level: 2,
    parts: [
      "The filtration rate shall not exceed 7.5 metres per hour with all filters in service, nor 9.0 metres per hour with one filter out of service for backwashing or repair. Granular activated carbon filters shall also give an empty bed contact time of at least 10 minutes at the maximum works flow.",
      "Flow shall be shared between filters by inlet weirs or by individual flow control, so that no filter carries more than 110 percent of the average filter flow. After a filter is returned to service, its rate shall be raised from zero to its share of the flow over at least 10 minutes.",
    ],
  },
  {
    heading: "8.3 Backwashing",
    level: 2,
    parts: [
      "A filter shall be backwashed when its head loss reaches 2.0 metres, when its filtered water turbidity exceeds 0.3 NTU, or when its run reaches 72 hours, whichever comes first. The backwash sequence shall be an air scour of 2 to 3 minutes at 55 to 60 metres per hour, a combined air and water wash of 3 minutes, and a water rinse at 25 to 30 metres per hour until the washwater leaving the filter falls below 10 NTU.",
      "Washwater shall be treated water or filtered water, never clarified water. No more than one filter in six may be backwashed at the same time.",
    ],
  },
  {
    heading: "8.4 Filter-to-waste",
    level: 2,
    parts: [
      "After each backwash, the first filtered water, which carries more particles than later in the run, shall be run to waste until its turbidity has fallen below 0.2 NTU, and for at least 15 minutes. Works built before 2010 without filter-to-waste pipework shall instead start each filter at half its rate for the first 30 minutes after a backwash.",
    ],
  },
  {
    heading: "8.5 Individual filter turbidity",
    level: 2,
    parts: [
      "Each filter's outlet shall have its own online turbidity monitor, logged at least every minute. The target is 0.1 NTU or less for 95 percent of each month. An individual filter above 0.5 NTU for more than 15 minutes shall be taken out of service and backwashed, and its return to service shall be recorded with the turbidity at the time.",
      "Where Cryptosporidium has been found in the raw water in the last five years, the combined filtered water turbidity shall also be held below 0.2 NTU at all times, and any exceedance reported to the Process Science Manager within 24 hours.",
    ],
  },
  {
    heading: "8.6 Inspection of rapid gravity filters",
    level: 2,
    parts: [
      "Each rapid gravity filter shall be inspected during a backwash at least once a month, when the operator watches for uneven air scour, boils of water at the surface, media carried over into the washwater channel and mud balls left on the bed afterwards. Any of these signs shall be recorded and the filter inspected more closely within 7 days.",
      "Every 2 years each filter shall be drained and examined internally: the media depth measured at no fewer than nine points, a core sample taken to check for mud balls and for mixing of the layers, and the nozzles or underdrain blocks checked where the media is removed. A filter in which more than 5 percent of the nozzles examined are broken or blocked shall have its underdrain repaired before the next summer.",
    ],
  },
  {
    heading: "8.7 Regeneration of granular activated carbon",
    level: 2,
    parts: [
      "Granular activated carbon loses its capacity to adsorb pesticides and taste and odour compounds as it fills. Each carbon filter shall be regenerated, by removing the carbon and reactivating it at a licensed plant, when it has treated 40,000 bed volumes, when its outlet shows any pesticide above half the limit of clause 28.1, or at the latest every 36 months. Regenerated carbon shall come back with a certificate of its iodine number, which shall be at least 900 milligrams per gram.",
      "The carbon filters of a works shall be regenerated in rotation, so that no more than one in four is newly filled at the same time, since fresh carbon raises the pH of the filtered water for some days and can release arsenic and aluminium from the carbon itself. The first 50 bed volumes through a newly filled carbon filter shall be run to waste.",
    ],
  },
  {
    heading: "8.8 Records for filtration",
    level: 2,
    parts: [
      "For each filter the operator shall keep the start and end of every run with the reason for the backwash (head loss, turbidity or run time), the filtered water turbidity logged every minute, every period run to waste after a backwash, every removal from service under clause 8.5, and the media depths and inspection findings of clause 8.6. Turbidity logs shall be kept for 5 years and all other filter records for 10 years.",
    ],
  },
  {
    heading: "9. Slow Sand Filtration",
    level: 1,
    parts: [],
  },
  {
    heading: "9.1 Filtration rate and bed depth",
    level: 2,
    parts: [
      "Slow sand filters shall be operated at a filtration rate of 0.1 to 0.3 metres per hour, with a sand of effective size 0.15 to 0.35 mm. The sand bed shall never be allowed to fall below 0.6 metres deep; a new bed is laid 1.0 metre deep.",
      "The water level above the sand shall be held between 1.0 and 1.5 metres. A slow sand filter shall not be allowed to run dry, since the biological layer at its surface (the schmutzdecke) then dies back and the filter must be ripened again.",
    ],
  },
  {
    heading: "9.2 Scraping and resanding",
    level: 2,
    parts: [
      "A slow sand filter is scraped when its head loss reaches 1.0 metre, by removing the top 15 to 25 mm of sand. Scraping shall not take place when the water temperature is below 4 deg C, since the biological layer then takes too long to re-establish. When repeated scraping has reduced the bed to 0.6 metres, the filter shall be resanded back to 1.0 metre with washed sand, the old sand being placed on top of the new (trench resanding).",
    ],
  },
  {
    heading: "9.3 Ripening after scraping or resanding",
    level: 2,
    parts: [
      "After scraping, a slow sand filter shall run to waste until two consecutive daily samples of its filtered water show no E. coli and no coliform bacteria in 100 ml, and for at least 48 hours. After resanding the minimum period to waste is 14 days. The filter's return to supply shall be approved by the works manager and recorded.",
    ],
  },
  {
    heading: "9.4 Inspection of slow sand filters",
    level: 2,
    parts: [
      "Each slow sand filter shall be walked round weekly, when the operator checks the water level, the inlet and outlet weirs, and the surface for floating mats of algae, which shall be removed by hand before they sink and die on the bed. The sand depth shall be measured at the same nine points at every scraping, so that the date of the next resanding can be planned a year ahead.",
      "The underdrains and the outlet chamber of each slow sand filter shall be inspected at every resanding, and at least every 10 years. Because a slow sand filter relies on its biology rather than on a chemical dose, it has no automatic shutdown; its filtered water turbidity shall instead be logged every 5 minutes and alarm at 1.0 NTU.",
    ],
  },
  {
    heading: "10. Disinfection by Chlorine",
    level: 1,
    parts: [],
  },
  {
    heading: "10.1 Contact tanks",
    level: 2,
    parts: [
      "Every works shall disinfect with chlorine in a contact tank designed so that the water flows through it as nearly as possible in plug flow. The ratio of T10 to the theoretical retention time (the baffle factor) shall be taken from a tracer test where one has been done, or otherwise as follows: 0.1 for an unbaffled tank with inlet and outlet at the same end, 0.3 for a tank with a single baffle, 0.5 for a tank with two to four baffles, and 0.7 for a serpentine tank with a length-to-width ratio of at least 20.",
      "A tracer test shall be done on every new contact tank before it enters service, and repeated after any change to its baffles or its inlet and outlet arrangements. The tracer test shall be run at the maximum works flow and at the lowest operating level of the tank.",
    ],
  },
  {
    heading: "10.2 CT requirement",
    level: 2,
    parts: [
      "The CT achieved at the tank outlet, with the free chlorine residual measured there and T10 taken at the current flow and level, shall be at least the value in Table 10.2 for the water temperature and pH of the day. The values are in mg.min/l and are set to give at least a 2-log inactivation of Giardia cysts together with the removal credited to filtration.",
      { table: ctTable },
      "For a temperature or pH between two columns or rows of the table, the higher of the neighbouring values applies, not an interpolation. The works control system shall compute the achieved CT at least every minute and shall raise an alarm when it falls below 110 percent of the required value.",
    ],
  },
  {
    heading: "10.3 Residual targets",
    level: 2,
    parts: [
      "The free chlorine residual leaving a works shall be between 0.3 and 0.8 mg/l, and shall be chosen so that at least 0.1 mg/l remains at the far ends of the supply zones it feeds. The residual shall not exceed 1.0 mg/l at any customer tap, to limit taste complaints.",
      "Where chloramination is used for the distribution residual, the total chlorine leaving the works shall be 0.8 to 1.2 mg/l, with a chlorine-to-ammonia-nitrogen weight ratio of 4.5:1 to 5:1, and free ammonia leaving the works shall not exceed 0.05 mg/l as N.",
    ],
  },
  {
    heading: "10.4 Storage of chlorine chemicals",
    level: 2,
    parts: [
      "Sodium hypochlorite shall be stored in bunded tanks holding no more than 30 days' use, at a temperature below 25 deg C and out of direct sunlight, since it decays to chlorate as it warms and ages. Hypochlorite shall be used within 60 days of its delivery, and any older stock shall be returned to the supplier.",
      "Chlorine gas in drums is permitted only at works commissioned before 2005 and shall be phased out at their next major refurbishment. Chlorine gas rooms shall have leak detectors alarming at 1 ppm and a scrubber able to treat the contents of the largest drum.",
    ],
  },
  {
    heading: "10.5 Inspection of contact tanks",
    level: 2,
    parts: [
      "Contact tanks shall be drained and inspected internally every 5 years, and cleaned at the same time. The inspection shall check the baffles for gaps and damage that would shorten T10, the roof and hatches for any route by which surface water, birds or vermin could enter, and the chlorine analyser sample points for fouling.",
      "A contact tank whose baffles have been repaired or changed shall have a new tracer test under clause 10.1 before the works relies on the CT it gives. Until the test is done, the baffle factor shall be taken one step lower in the list of clause 10.1 than for the tank as designed.",
    ],
  },
  {
    heading: "10.6 Chlorine analysers",
    level: 2,
    parts: [
      "The free chlorine at the contact tank outlet and at the works outlet shall each be measured by two analysers working independently (duty and check), so that a drifting analyser cannot hide a loss of disinfection. When the two readings differ by more than 0.1 mg/l for more than 10 minutes, an alarm shall be raised and the lower reading used for control and for the CT calculation until the fault is found.",
      "Chlorine analysers shall be checked against a laboratory measurement weekly at class A and B works and at every visit at class C and D works, and their reagents replaced at the interval the manufacturer states, at least every 30 days. A probe-type analyser without reagents shall have its membrane and electrolyte replaced every 3 months.",
    ],
  },
  {
    heading: "10.7 Records for chlorination",
    level: 2,
    parts: [
      "The operator shall keep, for each contact tank, the required and achieved CT at least every minute, the free chlorine from both analysers of clause 10.6, the flow, level, temperature and pH used in the calculation, every CT alarm with its cause and duration, and the tracer tests with their dates. CT records shall be kept for 10 years, because they are the evidence that every litre supplied was disinfected.",
      "Hypochlorite deliveries shall be recorded with their date, volume, certificate and the date by which the batch must be used under clause 10.4, and the chlorate results of clause 28.2 shall be filed with the delivery they concern.",
    ],
  },
  {
    heading: "11. Ultraviolet Disinfection",
    level: 1,
    parts: [],
  },
  {
    heading: "11.1 Validated dose",
    level: 2,
    parts: [
      "Ultraviolet (UV) reactors shall be validated by a third-party bioassay and shall deliver a reduction-equivalent dose of at least 40 millijoules per square centimetre at the maximum flow through each reactor and at the lowest UVT expected in the water treated. UV disinfection does not replace chlorination; it is installed where the raw water carries a Cryptosporidium risk that chlorine alone cannot treat.",
      "Each works with UV disinfection shall have at least one more reactor than the maximum flow needs (duty plus one standby), and the standby reactor shall start automatically on the failure of a duty reactor.",
    ],
  },
  {
    heading: "11.2 UV transmittance",
    level: 2,
    parts: [
      "The UVT of the water entering the reactors shall be monitored online. The design UVT shall be the 5th percentile of at least 12 months of measurements of the filtered water, and never more than 90 percent. An alarm shall be raised when the measured UVT falls 2 percentage points below the design value.",
    ],
  },
  {
    heading: "11.3 Lamps and sleeves",
    level: 2,
    parts: [
      "UV lamps shall be replaced at the end of their rated life or after 12,000 hours of operation, whichever is sooner. Quartz sleeves shall be wiped automatically at least every 4 hours and inspected by hand every 6 months, and replaced when they are cracked or when cleaning no longer restores the UV intensity to within 10 percent of its value with a new sleeve.",
      "A broken lamp is a mercury release: the reactor shall be isolated at once, the water in it run to waste, and the lamp fragments recovered before the reactor returns to service. The event shall be reported to the Head of Water Quality within 2 hours.",
    ],
  },
  {
    heading: "11.4 Off-specification operation",
    level: 2,
    parts: [
      "Water that has passed through a reactor delivering less than the validated dose is off-specification. Where off-specification water has entered supply for more than 5 minutes in total in any 24 hours, the event shall be notified as an exceedance under clause 31. A reactor shall be taken out of service when it has been off specification for more than 2 minutes at a time.",
    ],
  },
  {
    heading: "11.5 Records for UV disinfection",
    level: 2,
    parts: [
      "For each UV reactor the operator shall log the flow, the UVT, the UV intensity and the calculated dose at least every minute, and keep the logs for 5 years. The hours run by each lamp, every sleeve inspection and every period of off-specification operation shall also be recorded, the last with its duration, the volume of water affected and whether it was notified under clause 31.",
    ],
  },
  {
    heading: "11.6 Commissioning of UV reactors",
    level: 2,
    parts: [
      "A new UV reactor shall be commissioned by running it to waste at the maximum flow for at least 24 hours while its dose calculation is checked against an independent UV intensity sensor and a UVT measured in the laboratory. The reactor may enter supply when the calculated dose has stayed above the validated dose for the whole 24 hours and the two intensity readings agree within 10 percent.",
      "Each reactor's UV intensity sensors shall be checked against a reference sensor every 3 months after commissioning, and replaced when they read more than 10 percent away from it.",
    ],
  },
  {
    heading: "12. pH Correction and Plumbosolvency Control",
    level: 1,
    parts: [],
  },
  {
    heading: "12.1 Treated water pH",
    level: 2,
    parts: [
      "The treated water pH leaving a works shall be held between 7.6 and 8.4, with a target set for each works between 7.8 and 8.2. pH correction shall use sodium hydroxide, lime or carbon dioxide as listed in CHM-1. A pH outside 7.4 to 8.6 for more than 15 minutes shall stop the treated water pumps unless an operator is present and correcting it.",
    ],
  },
  {
    heading: "12.2 Orthophosphate dosing",
    level: 2,
    parts: [
      "Where the supply zones served include properties with lead pipes, orthophosphate shall be dosed to the treated water at 1.0 to 1.5 mg/l as P, with the target set by a plumbosolvency assessment of the zone. The dose shall be checked at the works daily and at two zone sampling points monthly. A works shall not stop orthophosphate dosing for more than 24 hours without the approval of the Head of Water Quality, since the protective scale in lead pipes then begins to dissolve.",
    ],
  },
  {
    heading: "12.3 Delivery and storage of treatment chemicals",
    level: 2,
    parts: [
      "Every treatment chemical shall be delivered with a certificate of analysis showing that the batch complies with its entry in CHM-1. The operator shall check the certificate and the product name against the delivery note before the tanker is connected, and shall refuse any delivery whose certificate is missing or does not match. At unstaffed works, deliveries shall be made only while an operator is present.",
      "Bulk chemical tanks shall stand in bunds holding at least 110 percent of the largest tank, or 25 percent of the total volume stored in the bund where that is greater. Acids and alkalis, and hypochlorite and acids, shall never share a bund, and fill points shall be labelled and locked, with a different coupling for each chemical so that a delivery cannot be made into the wrong tank.",
    ],
  },
  {
    heading: "12.4 Alkalinity and aggressive water",
    level: 2,
    parts: [
      "Soft upland waters with an alkalinity below 30 mg/l as calcium carbonate attack cement mortar linings and concrete, and carry metals from pipes into the water. Works treating such water shall raise the alkalinity to at least 50 mg/l as calcium carbonate, by dosing lime and carbon dioxide together or by passing the water through a bed of limestone chippings, before the final pH correction of clause 12.1.",
      "The Langelier index of the treated water, calculated weekly from the laboratory's measurements of pH, calcium, alkalinity, conductivity and temperature, should lie between minus 0.5 and plus 0.2. A water with an index below minus 1.0 for more than four consecutive weeks shall be reported to the Process Science Manager.",
    ],
  },
  {
    heading: "12.5 Records for pH and plumbosolvency control",
    level: 2,
    parts: [
      "The operator shall keep the treated water pH and alkalinity logged at least every 5 minutes, the orthophosphate dose and the daily works measurement of clause 12.2 with the monthly zone results, every interruption of orthophosphate dosing with its start, end and approval, and the weekly Langelier index of clause 12.4. These records shall be kept for 10 years, since lead results in the zones may need to be explained against them long afterwards.",
    ],
  },
  {
    heading: "13. Process Residuals",
    level: 1,
    parts: [],
  },
  {
    heading: "13.1 Washwater recovery",
    level: 2,
    parts: [
      "Dirty backwash water may be settled and the supernatant returned to the head of the works, provided that the returned flow is no more than 10 percent of the works inflow at any time and that it is returned upstream of the coagulant dosing point. Recovery shall stop while Cryptosporidium is detected in the raw water or in the recovered washwater.",
    ],
  },
  {
    heading: "13.2 Sludge thickening and disposal",
    level: 2,
    parts: [
      "Sludge from clarifiers and washwater settlement shall be thickened to at least 3 percent dry solids, and dewatered to at least 20 percent dry solids where it leaves the works by road. Sludge shall be taken only to the disposal sites named in the works' environmental permit, and each load shall be recorded with its weight, dry solids and destination.",
    ],
  },
  {
    heading: "13.3 Records of residuals",
    level: 2,
    parts: [
      "The operator shall keep, for each works, the monthly volume of washwater recovered and its share of the works inflow, the volume and dry solids of sludge produced, and the record of every load that left the site. These records shall be kept for 6 years and summarised in the works' annual environmental return by 31 March of the following year.",
    ],
  },
  {
    heading: "13.4 Contingency planning",
    level: 2,
    parts: [
      "Every works shall have a contingency plan, kept in the works file, that states for each treatment stage what happens if it fails: how long the works can continue, at what output, which alarms and shutdowns act, and how supply is maintained from storage or from another works. The plan shall name the service reservoirs that the works feeds and the hours of average demand they hold, taken from the register in Annex B of Part 2.",
      "The contingency plan shall be exercised at least once every 2 years at class A and B works and every 3 years at class C and D works, by a desk exercise or by a planned shutdown of a stage, and the lessons recorded in the works file within 20 working days of the exercise.",
    ],
  },
];
