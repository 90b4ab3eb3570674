/**
 * Part 4 of the second evaluation corpus (examples/standard/fenmoor-ws7-part4-guidance.html):
 * informative guidance, worked examples, incident reviews and the changes from edition 2 of the
 * fictional Fenmoor Regional Water Authority's Standard WS-7. Every fact, name and number is invented.
 */
import type { Section } from "./standard-common.js";

export const title = "Fenmoor Regional Water Authority - Standard WS-7, Part 4: Guidance Notes and Worked Examples";

export const preamble: string[] = [
  "Part 4 is informative. It explains how the requirements of Parts 1 to 3 are applied, works through the calculations they call for, summarises the incidents that led to the main changes of edition 3, and lists those changes. Nothing in this Part adds a requirement: where a guidance note seems to differ from a clause of Parts 1 to 3, the clause applies. Guidance notes are numbered G1, G2 and so on; worked examples W1, W2 and so on.",
];

export const sections: Section[] = [
  {
    heading: "G1. Classifying a Works",
    level: 1,
    parts: [
      "Clause 4.1 classes a works by the population it serves, weighted by the share of each zone's water it provides. The weighting matters where zones are fed by a blend. Greywell WTW, for example, feeds all of Greywell zone and Hallow End zone, and half of Fenmoor West, which is otherwise fed from Lower Sedge WTW.",
      "The population that counts for Greywell is therefore the whole of the first two zones plus half of the third. A works whose weighted population falls near a boundary, within 5 percent of it, is placed in the higher class, so a works serving 19,200 people (4 percent below the class B boundary of 20,001) is class B, not class C.",
      "Source risk can then raise the class by one step under clause 4.2. Three triggers apply: a lowland river source downstream of a wastewater discharge, raw water above 50 NTU on more than 10 days in a year, and a Cryptosporidium detection in the raw water in the last five years. The triggers do not add up: a works meeting two of them is still raised only one class.",
    ],
  },
  {
    heading: "W1. Worked example: the class of Pike Fen WTW",
    level: 2,
    parts: [
      "Pike Fen WTW draws from the River Sedge below the Pike Fen wastewater treatment works. It feeds Pike Fen zone (7,900 residents) in full and Redbarn zone (11,400 residents) for 60 percent of its water, the rest of Redbarn's water coming from Castle Marsh WTW.",
      "The weighted population is 7,900 plus 60 percent of 11,400, that is 7,900 plus 6,840, or 14,740 people. That is class C by Table 4.1 and not within 5 percent of the class B boundary. Because the source is a lowland river downstream of a wastewater discharge, clause 4.2 raises the works one class: Pike Fen WTW is a class B works. It is therefore staffed from 07:00 to 19:00 daily, and its outlet is sampled for coliforms five days a week.",
    ],
  },
  {
    heading: "G2. Choosing a Contact Tank Baffle Factor",
    level: 1,
    parts: [
      "The CT of clause 10.2 depends on T10, the time in which the first 10 percent of the water has left the tank, and not on the average retention time. Water short-circuits through a tank with poor baffling, so the same tank volume gives a much smaller T10 when the water is not made to follow a long path.",
      "Until a tracer test has been done, the baffle factors listed in clause 10.1 are used. They are deliberately cautious: tracer tests on the Authority's tanks have usually shown factors 0.05 to 0.15 higher than the listed value. A works that finds its CT marginal in winter should commission a tracer test before it considers raising the chlorine dose, since a higher dose also raises the trihalomethanes of clause 28.2.",
    ],
  },
  {
    heading: "W2. Worked example: checking the CT at Castle Marsh WTW on a winter day",
    level: 2,
    parts: [
      "Castle Marsh WTW has a contact tank of 1,800 cubic metres with three baffles, for which clause 10.1 gives a baffle factor of 0.5 since no tracer test has yet been done. On 12 January the works flow was 600 cubic metres per hour, the water temperature 5 deg C and the pH 7.5, and the free chlorine at the tank outlet was 0.9 mg/l.",
      "The theoretical retention time is 1,800 divided by 600, or 3 hours, that is 180 minutes. T10 is 0.5 times 180, or 90 minutes. The achieved CT is 0.9 times 90, or 81 mg.min/l.",
      "Table 10.2 requires 149 mg.min/l at 5 deg C and pH 7.5. The achieved CT is only 54 percent of the requirement, well below the alarm point of 110 percent. The operator may raise the outlet residual, lower the flow to raise T10, or lower the pH; lowering the pH to 7.0 would cut the requirement to 122 mg.min/l. Raising the residual alone would need at least 1.66 mg/l at the tank outlet, above the 0.8 mg/l upper limit for water leaving the works in clause 10.3, so in practice the flow had to be reduced and the pH lowered together.",
    ],
  },
  {
    heading: "G3. Planning Pump Inspections",
    level: 1,
    parts: [
      "Clauses 15.3, 16.3 and 17.3 give separate tables for raw water, treated water and booster pumps. The tables look alike but differ in almost every row, because the consequences of a failure differ: a treated water pump stopping cuts off every property a works serves, while a raw water pump stopping is usually covered by the treated water storage for some hours.",
      "The most frequent mistake found in the 2025 audit was to inspect booster pumps at the raw water pump intervals. For example, the performance test of a non-critical booster pump is due every 36 months, but several planners had scheduled it every 24 months, the interval for non-critical raw water pumps. The opposite mistake is more serious: scheduling the vibration measurement of a critical treated water pump every 3 months, the interval for a critical raw water pump, when clause 16.3 requires it monthly.",
      "A planner should always start from the asset's type and its criticality score in AMP-5, then read the one table that applies, and then apply any adjustment of clause 14.2: halving for an asset graded 4 or 5 at its last inspection, or lengthening by up to 50 percent with continuous condition monitoring.",
    ],
  },
  {
    heading: "W3. Worked example: adjusted intervals for pumps at Holm Common",
    level: 2,
    parts: [
      "Holm Common treated water pumping station has four pumps. Pump 2 was graded 4 at its last vibration measurement, with a reading of 4.1 mm/s RMS, above the 3.5 mm/s RMS acceptance limit for treated water pumps. The station has a criticality score of 5, so its pumps are critical assets and the normal vibration interval is monthly.",
      "Because pump 2 was graded 4, clause 14.2 halves its intervals until two consecutive inspections grade it 3 or better: its vibration measurement is now due every two weeks and its performance test every 3 months instead of every 6. Pumps 1, 3 and 4, graded 2 at their last inspections, keep the normal intervals. Had the same reading of 4.1 mm/s RMS been taken on a raw water pump, it would have been within the 4.5 mm/s RMS limit of clause 15.4 and no adjustment would have followed.",
    ],
  },
  {
    heading: "W6. Worked example: scoring the criticality of Brindle Cross booster station",
    level: 2,
    parts: [
      "Brindle Cross booster station lifts water to the Brindle high-level zone, which has 1,650 properties and no service reservoir. If the station failed, the zone would lose supply within about 20 minutes, and a replacement pump set could be fitted within 30 hours. The zone's water is chloraminated, and a long loss of pressure could draw in contamination through leaking joints.",
      "Against Table 14.1, 1,650 properties alone gives a score of 3, but 30 hours to restore supply gives 4, and the possible contamination gives 5. The score is the highest of the three, not their average, so Brindle Cross scores 5 and its pumps are critical booster pumps. Their performance test is therefore due every 12 months, not every 36, and the station needs a standby generator or a generator connection under clause 24.1 because its zone has no reservoir.",
    ],
  },
  {
    heading: "G4. Planning Valve Inspections",
    level: 1,
    parts: [
      "Valves are the most numerous assets in the network: the Authority has about 41,000 isolation valves, 310 control valves and 2,900 air valves and washouts. Clause 18.3 sets the intervals for isolation valves, clause 19.3 for control valves and clause 20.3 for air valves and washouts on trunk mains; on distribution mains, air valves and washouts are inspected together with the isolation valves of the same length of main.",
      "Because a critical isolation valve is operated every 2 years and a non-critical one every 6, the network programme operates about 7,800 valves a year. The programme is arranged by district metered area, so that each area's valves are operated in one campaign and its customers are warned once about possible discoloration.",
      "Valve inspections find more defects than any other kind: in 2025, 6.2 percent of isolation valves operated could not be turned, and a further 3.8 percent turned a number of times that differed from the record by more than 5 percent. Both grade 4 under clause 18.4 and need a repair or replacement within 3 months.",
    ],
  },
  {
    heading: "W7. Worked example: a filter that reached 0.4 NTU",
    level: 2,
    parts: [
      "At Greywell WTW, filter 5 had been running for 41 hours with a head loss of 1.6 metres when its outlet turbidity rose to 0.4 NTU and stayed there. The backwash triggers of clause 8.3 are a head loss of 2.0 metres, a filtered water turbidity above 0.3 NTU, or a run of 72 hours, whichever comes first. The turbidity trigger had been met, so the filter was due for a backwash at once, although neither the head loss nor the run time had reached its trigger.",
      "Had the turbidity reached 0.6 NTU and stayed there for more than 15 minutes, clause 8.5 would also have required the filter to be taken out of service and its return recorded with the turbidity at the time. After the backwash, filter 5 ran to waste for 22 minutes until its turbidity fell below 0.2 NTU, longer than the 15-minute minimum of clause 8.4.",
    ],
  },
  {
    heading: "G5. Planning Reservoir and Tower Inspections",
    level: 1,
    parts: [
      "Service reservoirs and water towers differ in their internal inspection intervals: 5 years for a critical service reservoir and 10 years for a non-critical one (clause 21.3), but 4 years for every water tower (clause 22.3), since all towers are treated as critical. Structural surveys follow the same pattern at 10 and 15 years for reservoirs and 8 years for towers.",
      "Draining a cell for inspection is best done in spring or autumn, when demand is lowest. The remaining cell or the bypass main must be able to hold the zone's supply for the 5 to 10 days an inspection, cleaning and return to service usually take, including the 24 hours of disinfection contact and the two clear samples at least 24 hours apart required by clause 21.5.",
      "Camera inspections under clause 21.3 save a drain-down, but they cannot replace the cleaning, which keeps the interval of the drained inspection. A camera inspection also cannot show the condition of the roof's underside above the water line as well as a drained inspection; the Authority therefore uses cameras only between two drained inspections, never twice in a row.",
    ],
  },
  {
    heading: "W4. Worked example: storage needed in Kettle Green zone",
    level: 2,
    parts: [
      "Kettle Green zone is fed only from Greywell WTW, with no cross-connection to another works, and its average day demand is 3,200 cubic metres. Clause 21.1 therefore requires at least 36 hours of storage, that is 1.5 times 3,200, or 4,800 cubic metres.",
      "The zone's only reservoir, Foxcote, holds 4,250 cubic metres in two cells, which is 550 cubic metres short. Until a new cell is built the shortfall is recorded on the derogation register under clause 1.4, and the standby generator at Greywell is tested on load monthly rather than relied on at its minimum interval.",
    ],
  },
  {
    heading: "W8. Worked example: a hydrant flow test in Wash Lane",
    level: 2,
    parts: [
      "A hydrant on the 100 mm distribution main in Wash Lane, 60 metres from Westfield primary school, is a critical hydrant under clause 23.3, so its flow and pressure test is due every 4 years rather than every 8. At its test in May 2025 it delivered 7.2 litres per second at a residual pressure of 1.3 bar.",
      "The pressure was above the 1 bar minimum of clause 23.4, but the flow was below the 8 litres per second a hydrant on a distribution main must deliver. The hydrant therefore failed its inspection. Because it is a critical hydrant found unusable for fire-fighting at its required flow, the fire and rescue service was told the same day, well inside the 24 hours allowed, and the main was scheduled for air scouring to remove the deposits that restricted it.",
    ],
  },
  {
    heading: "G6. Deciding How Often to Sample a Supply Zone",
    level: 1,
    parts: [
      "The number of routine tap samples a year in a zone follows Table 26.3 from the zone's resident population on 1 January. Zones with up to 500 residents take 4 samples a year, zones of 501 to 5,000 take 12, zones of 5,001 to 20,000 take 24, and larger zones take 24 plus 4 for each 5,000 residents, or part of 5,000, above 20,000. No zone may have more than 50,000 residents, so the largest programme is 48 samples a year.",
      "The lead, copper and nickel samples follow a separate column of the same table, and are doubled in a zone where lead pipes are present and orthophosphate dosing has been interrupted for more than 24 hours in the year.",
    ],
  },
  {
    heading: "W5. Worked example: the programme for Fenmoor Central",
    level: 2,
    parts: [
      "Fenmoor Central had 32,400 residents on 1 January 2026. The population above 20,000 is 12,400, which is two full steps of 5,000 and part of a third, so three steps count. The zone takes 24 plus 3 times 4, that is 36 routine tap samples a year, spread so that no quarter has more than 9.",
      "For lead, copper and nickel, the population above 20,000 is one full step of 10,000 and part of a second, so two steps count: 8 plus 2 times 2, or 12 samples. Lead pipes are present in Fenmoor Central, and the orthophosphate dosing at Lower Sedge WTW was stopped for 31 hours in August 2025 during a pump replacement, so the lead samples still to be taken in the zone in 2025 after that date were doubled; the 2026 programme returns to the normal figure of 12 unless dosing is interrupted again.",
    ],
  },
  {
    heading: "G7. Action Levels and Limits",
    level: 1,
    parts: [
      "The distinction between an action level and a limit is the one most often misread in Part 3. A result at an action level (clause 30) is not an exceedance. It is logged and reviewed, and it triggers the first action in the table, but it is not notified to the regulator. A result above a limit (clauses 27 to 29) is an exceedance, notified within the times of clause 31.1 and followed by the resampling of clause 31.2.",
      "For turbidity the difference matters at both ends. At the works outlet the action level is 0.5 NTU and the indicator limit 1 NTU; at customer taps they are 2 NTU and 4 NTU. For lead, the action level of 7 micrograms per litre is below the limit of 10 micrograms per litre, and for trihalomethanes the action level of 60 micrograms per litre is below the limit of 80.",
      "Free chlorine has no limit in Part 3, only action levels (below 0.2 mg/l at the works outlet, below 0.05 mg/l at zone extremities) and the operating range of clause 10.3. A works that sends water into supply with a free chlorine of 0.25 mg/l is below the 0.3 mg/l lower end of the range in clause 10.3 but above the action level; it must correct the dose, but nothing is notified.",
    ],
  },
  {
    heading: "W9. Worked example: the notification timeline for an E. coli result",
    level: 2,
    parts: [
      "A routine tap sample in Saltings zone was taken at 10:20 on a Friday. The laboratory reported a presumptive E. coli result to the duty water quality scientist at 16:05 on Saturday. The notification times of clause 31.1 run from 16:05 on Saturday, not from the time of sampling, and they run at the weekend like any other time.",
      "The Head of Water Quality therefore had to be told by 17:05 on Saturday, and the regulator and the local health authority by 19:05. The resampling of clause 31.2 was due within 24 hours, that is by 16:05 on Sunday, at the tap itself, at the works outlet of Lower Sedge WTW, at Toll Bar reservoir between the two, and at two further taps on either side of the first along the main. A single tap with E. coli does not by itself trigger a boil water notice under clause 31.3; a second tap with E. coli in the same zone within 48 hours would.",
    ],
  },
  {
    heading: "G8. Notifying an Exceedance",
    level: 1,
    parts: [
      "The notification times of clause 31.1 run from the moment the laboratory reports the result to the duty water quality scientist, not from the moment the sample was taken. For E. coli, the Head of Water Quality must hear within 1 hour and the regulator and the local health authority within 3 hours. For coliforms at a customer tap, the Head of Water Quality has 24 hours and the regulator 5 working days.",
      "The times are shortest for what threatens health soonest. A chemical exceedance, for example lead above 10 micrograms per litre, is notified to the Head of Water Quality within 4 hours and to the regulator and the health authority within 24 hours, because the harm from a chemical builds up over months rather than hours.",
    ],
  },
  {
    heading: "G9. Incidents that Shaped Edition 3",
    level: 1,
    parts: [],
  },
  {
    heading: "G9.1 The Sedgecombe reservoir hatch, 2023",
    level: 2,
    parts: [
      "On 14 August 2023 a routine sample from cell 2 of Sedgecombe service reservoir contained 3 coliforms per 100 ml. The weekly external check the week before had recorded the hatches as secure, but the investigation found that the hatch cover of cell 2 no longer overlapped its frame after the roof membrane had been relaid in 2022, and rainwater from the roof was running into the cell through the gap.",
      "The cell was isolated within 6 hours, drained, cleaned and disinfected, and returned to supply on 21 August after two clear samples. No E. coli was found and no boil water notice was needed. Edition 3 added the requirement of clause 21.2 that hatches be raised at least 150 mm above the roof with a cover that overlaps the frame, and the rule of clause 21.4 that any opening through which surface water could reach the stored water grades the reservoir 5.",
    ],
  },
  {
    heading: "G9.2 The Lower Sedge disinfection failure, 2024",
    level: 2,
    parts: [
      "On the night of 3 to 4 February 2024 the hypochlorite dosing pump at Lower Sedge WTW lost its prime after a delivery of hypochlorite that had been stored in a warm tanker for 9 days. The free chlorine at the contact tank outlet fell to 0.05 mg/l. The alarm reached the control room at 01:12 but was classed as priority 2 and acknowledged at 01:40; the works inlet was stopped at 02:25.",
      "About 1,900 cubic metres of under-disinfected water entered supply, with a CT estimated at 30 percent of the requirement. A boil water notice was issued to 6,200 properties in Fenmoor West and Saltings on 4 February and lifted on 7 February after clear samples on two consecutive days. No illness was linked to the event.",
      "Edition 3 made a disinfection failure a priority 1 alarm (clause 24.3), added an automatic shutdown on low final chlorine at class B, C and D works (clause 4.4), and limited the age of hypochlorite to 60 days from delivery (clause 10.4). It also added the boil water trigger of a CT below 50 percent of the requirement (clause 31.3).",
    ],
  },
  {
    heading: "G9.3 The Northwold valve incident, 2025",
    level: 2,
    parts: [
      "On 2 April 2025 a network technician closing a valve in the pre-1974 Northwold network turned it clockwise, as on every other valve in the region, and opened it fully instead. The valve isolated the feed to a hospital, and the surge from the sudden flow burst a 150 mm main in Quarry Lane, cutting off 430 properties for 11 hours.",
      "Edition 3 added to clause 18.1 that the Northwold valves close anticlockwise and are marked with a red cap, and made every valve that isolates a main feeding a hospital a critical isolation valve under clause 18.3, operated every 2 years and proof tested every 4 years.",
    ],
  },
  {
    heading: "G9.4 Findings of the 2025 inspection programme",
    level: 2,
    parts: [
      "The 2025 programme, the last under edition 2, completed 94 percent of the inspections due, against a target of 100 percent. The table summarises what the completed inspections found.",
      {
        table: [
          ["Asset type", "Inspections completed", "Graded 4", "Graded 5"],
          ["Raw water pumps", "212", "9", "1"],
          ["Treated water pumps", "388", "14", "2"],
          ["Booster pumps", "164", "11", "0"],
          ["Isolation valves (operated)", "7,640", "764", "12"],
          ["Control valves", "296", "21", "3"],
          ["Service reservoir cells (internal)", "9", "2", "0"],
          ["Water towers (internal)", "3", "1", "0"],
          ["Hydrants", "5,310", "402", "88"],
        ],
      },
      "The isolation valve figures include the 6.2 percent of valves that could not be turned and the 3.8 percent whose turns did not match the record (guidance note G4). The hydrants graded 5 were mostly hydrants that could not be found, having been buried under resurfaced roads; each was dug out and raised, and the highway authorities concerned were reminded of the notice they must give before resurfacing.",
      "Of the three reservoir and tower internal inspections graded 4, two found cracks in the roof slab wider than 0.3 mm and one found corrosion of the access ladder. None of them showed any route for surface water into the stored water, which would have graded them 5 under clause 21.4.",
    ],
  },
  {
    heading: "G10. Changes from Edition 2",
    level: 1,
    parts: [
      "The table lists the main technical changes from edition 2 (2021). Clause numbers are those of edition 3; several requirements moved between clauses in the renumbering.",
      {
        table: [
          ["Clause", "Subject", "Edition 2", "Edition 3"],
          ["6.2", "Inlet stop after a dosing failure, class C and D works", "30 minutes", "15 minutes"],
          ["8.3", "Longest filter run before backwash", "96 hours", "72 hours"],
          ["8.5", "Individual filter turbidity that takes a filter out of service", "1.0 NTU for 15 minutes", "0.5 NTU for 15 minutes"],
          ["10.4", "Greatest age of hypochlorite after delivery", "90 days", "60 days"],
          ["11.3", "UV lamp replacement", "after 9,000 hours", "after 12,000 hours or rated life"],
          ["15.3", "Vibration measurement, critical raw water pumps", "every 6 months", "every 3 months"],
          ["16.3", "Vibration measurement, critical treated water pumps", "every 3 months", "monthly"],
          ["17.3", "Performance test, non-critical booster pumps", "every 24 months", "every 36 months"],
          ["18.3", "Operation of non-critical isolation valves", "every 8 years", "every 6 years"],
          ["21.3", "Internal inspection, critical service reservoirs", "every 6 years", "every 5 years"],
          ["22.3", "Internal inspection, water towers", "every 5 years", "every 4 years"],
          ["24.3", "Priority of a disinfection failure alarm", "priority 2", "priority 1"],
          ["26.3", "Routine tap samples, zones of 501 to 5,000 residents", "8 a year", "12 a year"],
          ["30", "Action level for lead at customer taps", "none", "7 micrograms per litre"],
          ["31.3", "Boil water notice when CT falls below", "not a trigger", "50 percent of Table 10.2"],
        ],
      },
      "Two requirements were relaxed. The performance test of non-critical booster pumps was lengthened from 24 to 36 months, because twelve years of results showed almost no booster pump failing it between tests. The UV lamp replacement was lengthened from 9,000 hours to 12,000 hours because the lamps now bought are rated for 16,000 hours, while the limit of the rated life still applies to older lamps.",
    ],
  },
  {
    heading: "G10.1 Derogations under edition 3",
    level: 2,
    parts: [
      "A derogation is granted for at most 24 months and may be renewed once, for at most 12 further months, so no requirement can be waived for more than 36 months in all. At the issue of edition 3 the derogation register held 11 entries: four for clarified water turbidity at older sedimentation works, three for the storage shortfalls of clause 21.1, two for filter-to-waste pipework at works built before 2010, one for the chlorine gas store at Castle Marsh WTW, and one for the lack of a second cell at Ashdown reservoir.",
      "A works on the register is still inspected and sampled as the standard requires. The derogation relaxes only the requirement named in it, and only as far as its improvement plan says, and its progress is reported in the annual drinking water quality report under clause 34.1.",
    ],
  },
  {
    heading: "G11. Questions Often Asked",
    level: 1,
    parts: [
      "Does a works need a derogation to sample more often than Part 3 requires? No. The frequencies of Part 3 are minimums, and any works or zone may be sampled more often; extra samples count towards compliance like any others.",
      "May a contractor set its own inspection intervals? A contractor operating a works under a concession follows this standard like the Authority's own staff; it may shorten intervals under clause 14.2 but lengthen them only with continuous condition monitoring, and must record the justification in AMP-5, to which contractors have access.",
      "Is a water tower ever a non-critical asset? Not in the Fenmoor network: clause 22.3 treats every tower as critical because each is the only storage in its zone. A tower built in future in a zone that also has a service reservoir would still be inspected at the same intervals until the standard is amended.",
      "Who decides to issue a boil water notice? The Head of Water Quality, together with the local health authority's consultant in communicable disease control (clause 31.3). The decision may not be delegated below the grade of Process Science Manager (clause 1.5), and the notice must reach every affected property within 12 hours of the decision.",
      "Does a reservoir cell cleaned in service by divers need the same return-to-service samples as a drained cell? The cell is not drained and refilled, so clause 21.5 does not apply as written; the method statement approved under clause 21.6 sets the sampling, which in practice follows clause 21.5: two clear samples at least 24 hours apart before the cell is relied on again.",
      "What happens if a sample is rejected by the laboratory? It counts as a missed sample in the monthly report, and a new sample must be taken within 2 working days under clause 33.2. A missed sample is not an exceedance, but a zone that misses more than 5 percent of its planned samples in a year is reported as non-compliant with the programme in the annual report.",
    ],
  },
  {
    heading: "W10. Worked example: the age of a hypochlorite delivery",
    level: 2,
    parts: [
      "A delivery of sodium hypochlorite reached Pike Fen WTW on 3 June and was put into the second bulk tank, which already held 4 days' use. The works uses about 1,100 litres a day, and the new tank holds 28,000 litres, about 25 days' use, within the 30-day storage limit of clause 10.4.",
      "The delivery must be used within 60 days, that is by 2 August. In a warm summer the store may exceed 25 deg C; the operator then cools the store or orders smaller, more frequent deliveries, since warmth speeds the formation of chlorate, which is limited to 0.25 mg/l in clause 28.1. Because this delivery was not stored for more than 30 days before use, the extra chlorate sample of clause 28.2 is not needed; the monthly chlorate sample still is.",
    ],
  },
  {
    heading: "W11. Worked example: returning cell 1 of Maiden Bower to service",
    level: 2,
    parts: [
      "Cell 1 of Maiden Bower service reservoir was drained on Monday 6 October for its internal inspection and cleaning. Cleaning finished on Wednesday afternoon, and the cell was filled with a chlorine solution of 20 mg/l at 16:00 on Wednesday 8 October. Clause 21.5 requires 24 hours of contact at that strength, so the cell could not be drained before 16:00 on Thursday; the alternative of 50 mg/l for 4 hours was not used because the washwater would then have needed dechlorinating before it reached the ditch.",
      "After refilling, the first sample was taken at 09:00 on Friday 10 October and the second at 09:30 on Saturday 11 October, more than 24 hours apart. Both showed no coliforms and no E. coli in 100 ml and turbidities of 0.3 and 0.2 NTU, below the 1 NTU required. The cell returned to supply on the afternoon of Saturday 11 October, and the zone was then sampled at two customer taps within 3 days as clause 26.5 requires.",
    ],
  },
  {
    heading: "W12. Worked example: a pressure-reducing valve that hunts",
    level: 2,
    parts: [
      "The outlet pressure log of the PRV feeding Long Drove zone (1,300 properties) showed the pressure swinging between 31 and 38 metres several times an hour every morning. Long Drove is under 2,000 properties and the valve cannot burst mains if it fails open, so it is a non-critical control valve: its pressure log is reviewed monthly and its pilot circuit serviced every 12 months under clause 19.3.",
      "The swing of 7 metres breaches two acceptance criteria of clause 19.4: the pressure must stay within 3 metres of the set value of 35 metres, and no step change may exceed 5 metres. The pilot circuit was serviced and a blocked strainer found. Since the morning flow had also grown since the valve was fitted, the network operator checked the sizing rule of clause 19.2 and found the valve only 6 percent open at the minimum night flow, below the 10 percent required; a smaller PRV was fitted in parallel for low flows.",
    ],
  },
  {
    heading: "G12. Abbreviations",
    level: 1,
    parts: [
      {
        list: [
          "- AMP-5: the Authority's Asset Management Plan, holding each asset's criticality score.",
          "- AOD: above ordnance datum, the national reference for heights.",
          "- CHM-1: the Chemical Approval List.",
          "- CT: concentration of free chlorine multiplied by contact time T10.",
          "- DAF: dissolved air flotation.",
          "- ESP-2: the Emergency Supply Procedure.",
          "- FRWA: Fenmoor Regional Water Authority.",
          "- HSW-9: Safe Systems of Work, covering confined spaces.",
          "- LAB-3: the Laboratory Methods Manual.",
          "- NTU: nephelometric turbidity unit.",
          "- PRV: pressure-reducing valve.",
          "- RMS: root mean square, the averaging used for vibration velocity.",
          "- UVT: ultraviolet transmittance at 254 nanometres.",
          "- WTW: water treatment works.",
        ],
      },
    ],
  },
  {
    heading: "G14. Reading Look-alike Clauses",
    level: 1,
    parts: [
      "Much of this standard repeats one pattern with different figures: the pump clauses 15 to 17, the valve clauses 18 to 20, and the storage clauses 21 and 22 each give general requirements, design, inspection intervals, acceptance criteria and records. The repetition is deliberate, so that an inspector knows where to look, but it makes it easy to read the right row of the wrong table.",
      "Three habits prevent most errors. First, name the asset type before opening a table: a treated water pump is not a booster pump even when both stand in the same building. Second, read the column for the asset's criticality, which comes from AMP-5 and not from its size. Third, check the unit and the direction of a limit: the vibration limits of clauses 15.4, 16.4 and 17.4 are maximums in mm/s RMS, while the flow criteria are minimums as a percentage of the commissioning flow.",
      "The same care applies in Part 3, where the sampling frequency of a works outlet (clause 26.1), of storage (clause 26.2) and of a supply zone (clause 26.3) are set by different things: the works class, the size of the cell and the season, and the zone's resident population.",
    ],
  },
  {
    heading: "W13. Worked example: a trunk main burst at Gallows Hill",
    level: 2,
    parts: [
      "At 05:40 on 9 March a 450 mm trunk main burst near Gallows Hill pumping station, and the control room learned of it from a low-pressure alarm at 05:46. The main is a trunk main over 300 mm, so it had to be attended within 1 hour, by 06:46; the first crew arrived at 06:20. The main was isolated at 07:05 by closing two critical isolation valves, each over at least 2 minutes for the last quarter of its travel as clause 18.6 requires.",
      "About 2,300 properties lost supply. Rezoning from Bell Hill reservoir restored supply to 1,900 of them by 10:30; the remaining 400 were restored when the repair was finished at 16:15, within the 12 hours allowed. Because more than 50 properties were still without water, bottled water had been set up at two points by 11:00, and the 37 customers on the extra help register had been contacted by 09:15, within the 4 hours allowed.",
    ],
  },
  {
    heading: "G13. Design Values at a Glance",
    level: 1,
    parts: [
      "Designers often ask for the main design figures of Part 1 in one place. The list below repeats them for convenience; the clause cited is the requirement, and the list has no force of its own.",
      {
        list: [
          "- River intake approach velocity: at most 0.25 metres per second (clause 5.1).",
          "- Rapid mixing: dispersion within 1 second, G at least 600 per second for a mechanical mixer (clause 6.3).",
          "- Flocculation: 15 to 30 minutes in at least three compartments, G tapering from about 70 to about 20 per second (clause 6.4).",
          "- Horizontal-flow sedimentation: surface loading at most 1.0 metre per hour (clause 7.1).",
          "- Dissolved air flotation: 8 to 12 metres per hour, recycle 8 to 10 percent at 4.5 to 6 bar (clause 7.2).",
          "- Sludge blanket clarifiers: upflow at most 2.0 metres per hour (clause 7.3).",
          "- Rapid gravity filters: at most 7.5 metres per hour, 9.0 with one filter out of service (clause 8.2).",
          "- Granular activated carbon: empty bed contact time at least 10 minutes (clause 8.2).",
          "- Slow sand filters: 0.1 to 0.3 metres per hour (clause 9.1).",
          "- UV reactors: reduction-equivalent dose at least 40 millijoules per square centimetre (clause 11.1).",
        ],
      },
      "Figures for pumps, valves, reservoirs and the other assets of Part 2 are not repeated here, because they differ between asset types in ways that a summary would blur; see guidance notes G3 to G5.",
    ],
  },
];
