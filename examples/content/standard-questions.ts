/**
 * The questions of the second evaluation corpus (written to questions/standard.json by
 * examples/build-standard.ts, which adds each question's seeded `split`). Each reference is an
 * exact excerpt of the named part's extracted text; the questions paraphrase rather than copy it.
 */
export interface StandardQuestion {
  question: string;
  expected_answer: string;
  references: Array<{ part: "part1" | "part2" | "part3" | "part4"; text: string }>;
}

export const standardQuestions: StandardQuestion[] = [
  {
    question: "How long may it take to shut off a river inlet once the upstream monitoring station has warned of a pollution event?",
    expected_answer: "Within 15 minutes, by a motorised penstock or by stopping the raw water pumps.",
    references: [
      { part: "part1", text: "Every river intake shall be able to close within 15 minutes of a pollution warning from the river monitoring station upstream" },
    ],
  },
  {
    question: "What is the highest speed at which water may flow towards the front of a river inlet when abstraction is at its peak?",
    expected_answer: "0.25 metres per second.",
    references: [{ part: "part1", text: "The approach velocity at the intake face shall not exceed 0.25 metres per second at the maximum abstraction rate" }],
  },
  {
    question: "Which class is a treatment plant given if it supplies 60,000 residents?",
    expected_answer: "Class B (20,001 to 100,000 people).",
    references: [{ part: "part1", text: "B 20,001 to 100,000 5,000 to 25,000 m3/day" }],
  },
  {
    question: "After an alarm at one of the smallest works, how long can an operator take to arrive on site?",
    expected_answer: "120 minutes at a class D works (which is visited three times a week).",
    references: [{ part: "part1", text: "D three visits each week 120 minutes" }],
  },
  {
    question: "What CT value is required when the water is at 15 degrees Celsius with a pH of 8.0?",
    expected_answer: "90 mg.min/l.",
    references: [{ part: "part1", text: "15 deg C 49 61 74 90 109" }],
  },
  {
    question: "How many days after it arrives at a works can sodium hypochlorite still be put to use?",
    expected_answer: "60 days; older stock goes back to the supplier.",
    references: [{ part: "part1", text: "Hypochlorite shall be used within 60 days of its delivery" }],
  },
  {
    question: "What minimum dose must an ultraviolet reactor be proven by bioassay to deliver?",
    expected_answer: "A reduction-equivalent dose of at least 40 mJ/cm2 at maximum flow and the lowest expected UVT.",
    references: [{ part: "part1", text: "a reduction-equivalent dose of at least 40 millijoules per square centimetre" }],
  },
  {
    question: "After how many running hours must a UV lamp be changed at the latest?",
    expected_answer: "12,000 hours, or sooner if its rated life ends first.",
    references: [{ part: "part1", text: "UV lamps shall be replaced at the end of their rated life or after 12,000 hours of operation, whichever is sooner." }],
  },
  {
    question: "What conditions make it necessary to clean a rapid gravity filter by reversing the flow?",
    expected_answer: "Head loss of 2.0 m, filtered turbidity above 0.3 NTU, or a run of 72 hours, whichever comes first.",
    references: [
      {
        part: "part1",
        text: "A filter shall be backwashed when its head loss reaches 2.0 metres, when its filtered water turbidity exceeds 0.3 NTU, or when its run reaches 72 hours, whichever comes first.",
      },
    ],
  },
  {
    question: "How thick should the anthracite layer of a dual-media filter bed be?",
    expected_answer: "0.6 m, with an effective size of 1.2 to 1.4 mm.",
    references: [{ part: "part1", text: "Anthracite 1.2 to 1.4 mm 0.6 m 1.5 or less" }],
  },
  {
    question: "Below what water temperature is the top layer of a slow sand filter not to be removed?",
    expected_answer: "4 deg C.",
    references: [{ part: "part1", text: "Scraping shall not take place when the water temperature is below 4 deg C" }],
  },
  {
    question: "How long at minimum does a slow sand filter discharge to waste after new sand has been laid?",
    expected_answer: "14 days.",
    references: [{ part: "part1", text: "After resanding the minimum period to waste is 14 days." }],
  },
  {
    question: "Within what range must the free chlorine be as water leaves a treatment plant?",
    expected_answer: "Between 0.3 and 0.8 mg/l.",
    references: [{ part: "part1", text: "The free chlorine residual leaving a works shall be between 0.3 and 0.8 mg/l" }],
  },
  {
    question: "What acidity band must treated water be kept in when it leaves the plant?",
    expected_answer: "pH 7.6 to 8.4, with a works target between 7.8 and 8.2.",
    references: [{ part: "part1", text: "The treated water pH leaving a works shall be held between 7.6 and 8.4" }],
  },
  {
    question: "At what concentration is phosphate added to protect customers who still have lead pipework?",
    expected_answer: "1.0 to 1.5 mg/l as P.",
    references: [{ part: "part1", text: "orthophosphate shall be dosed to the treated water at 1.0 to 1.5 mg/l as P" }],
  },
  {
    question: "Including any renewal, for how long at most can a works be permitted to run without meeting one of the requirements?",
    expected_answer: "36 months: 24 months, renewable once for 12 more.",
    references: [
      { part: "part1", text: "A derogation is granted for at most 24 months and may be renewed once, for at most 12 further months." },
      { part: "part4", text: "so no requirement can be waived for more than 36 months in all" },
    ],
  },
  {
    question: "Who was the Process Science Manager when edition 3 came out?",
    expected_answer: "Tomasz Reilly.",
    references: [{ part: "part1", text: "Process Science Manager Tomasz Reilly Water Quality and Assets" }],
  },
  {
    question: "What share of the inflow to a plant may settled backwash water returned to the head of the works make up?",
    expected_answer: "No more than 10 percent at any time.",
    references: [{ part: "part1", text: "provided that the returned flow is no more than 10 percent of the works inflow at any time" }],
  },
  {
    question: "How dry must sludge be before it is taken away from a works by lorry?",
    expected_answer: "At least 20 percent dry solids.",
    references: [{ part: "part1", text: "dewatered to at least 20 percent dry solids where it leaves the works by road" }],
  },
  {
    question: "When does a flotation unit's saturator trigger an alarm?",
    expected_answer: "When its pressure stays below 4.0 bar for more than 15 minutes.",
    references: [{ part: "part1", text: "A saturator pressure below 4.0 bar for more than 15 minutes shall raise an alarm" }],
  },
  {
    question: "How often do the smaller works have to run beaker tests of the coagulant dose?",
    expected_answer: "At least once a month at class C and D works (weekly at A and B).",
    references: [
      { part: "part1", text: "They shall be carried out at least once a week at class A and B works, at least once a month at class C and D works" },
    ],
  },
  {
    question: "How many days of demand should a riverside storage lagoon in front of a works hold?",
    expected_answer: "At least 7 days of average works demand.",
    references: [{ part: "part1", text: "the reservoir shall hold at least 7 days of average works demand" }],
  },
  {
    question: "When does the carbon in an activated carbon filter have to be sent for reactivation?",
    expected_answer: "After 40,000 bed volumes, when any pesticide leaving it exceeds half the limit, or at the latest every 36 months.",
    references: [
      {
        part: "part1",
        text: "when it has treated 40,000 bed volumes, when its outlet shows any pesticide above half the limit of clause 28.1, or at the latest every 36 months",
      },
    ],
  },
  {
    question: "How close to a borehole may slurry or diesel be kept?",
    expected_answer: "Not within 50 metres: the protection zone is a 50 m radius circle.",
    references: [
      { part: "part1", text: "The protection zone around a borehole is a circle of 50 metres radius within which no slurry, fuel or pesticide may be stored." },
    ],
  },
  {
    question: "What happens when the duty and check chlorine analysers disagree?",
    expected_answer: "If they differ by more than 0.1 mg/l for over 10 minutes, an alarm is raised and the lower reading is used for control and CT.",
    references: [
      {
        part: "part1",
        text: "When the two readings differ by more than 0.1 mg/l for more than 10 minutes, an alarm shall be raised and the lower reading used for control",
      },
    ],
  },
  {
    question: "How soon does a class B works shut itself down when the chlorine in the water leaving it drops under 0.2 mg/l?",
    expected_answer: "After 15 minutes (5 minutes at class C and D works; class A only alarms).",
    references: [{ part: "part1", text: "Final chlorine under 0.2 mg/l alarm stop after 15 min stop after 5 min" }],
  },
  {
    question: "How often must the bearings of a critical raw water pump be checked for vibration?",
    expected_answer: "Every 3 months (every 6 months for non-critical raw water pumps).",
    references: [{ part: "part2", text: "Vibration measurement at each bearing | every 3 months | every 6 months" }],
  },
  {
    question: "What is the highest vibration a high-lift pump may show and still pass its inspection?",
    expected_answer: "3.5 mm/s RMS at every bearing.",
    references: [{ part: "part2", text: "overall vibration velocity at every bearing is no more than 3.5 mm/s RMS" }],
  },
  {
    question: "How did edition 3 change the interval between flow-and-head tests of non-critical booster pumps, and why?",
    expected_answer: "It went from every 24 months to every 36 months, because twelve years of results showed almost no booster pump failing between tests.",
    references: [
      { part: "part2", text: "Performance test (flow, head and power) | every 12 months | every 36 months" },
      { part: "part4", text: "because twelve years of results showed almost no booster pump failing it between tests" },
    ],
  },
  {
    question: "At what inlet pressure does a booster station stop its pumps, and when may they start again?",
    expected_answer: "They stop at 15 m head and restart only once the pressure has recovered to 20 m.",
    references: [
      {
        part: "part2",
        text: "A low suction pressure switch shall stop the pumps at 15 metres and allow them to restart only once the pressure has recovered to 20 metres.",
      },
    ],
  },
  {
    question: "How many homes at most may lose water when the stretch of distribution pipe between two shut-off valves is closed?",
    expected_answer: "250 properties.",
    references: [{ part: "part2", text: "no more than 250 properties lose supply when a length between two valves is shut off" }],
  },
  {
    question: "Which shut-off valves turn the other way to close, and what mishap in 2025 led the standard to say so?",
    expected_answer:
      "The pre-1974 Northwold valves close anticlockwise (red cap); in April 2025 a technician turned one clockwise and opened it fully, bursting a main.",
    references: [
      { part: "part2", text: "except the valves of the pre-1974 Northwold network, which close anticlockwise and are marked with a red cap" },
      {
        part: "part4",
        text: "a network technician closing a valve in the pre-1974 Northwold network turned it clockwise, as on every other valve in the region, and opened it fully instead",
      },
    ],
  },
  {
    question: "How much leakage through a closed isolation valve is tolerated at a proof test?",
    expected_answer: "At most 0.1 litres per second per 100 mm of diameter.",
    references: [{ part: "part2", text: "the flow passing the closed valve shall be no more than 0.1 litres per second per 100 mm of diameter" }],
  },
  {
    question: "How far open should a pressure-reducing valve be when the zone uses the least water at night?",
    expected_answer: "At least 10 percent open.",
    references: [{ part: "part2", text: "at the zone's minimum night flow it is at least 10 percent open" }],
  },
  {
    question: "On a long trunk main with an even slope, how far apart can the air release valves be?",
    expected_answer: "At most 800 metres apart.",
    references: [{ part: "part2", text: "at least every 800 metres on long even gradients" }],
  },
  {
    question: "How many hours of storage does a zone need if a single works feeds it and there is no link to another works?",
    expected_answer: "At least 36 hours of average day demand.",
    references: [{ part: "part2", text: "and at least 36 hours where the zone is fed by a single works with no cross-connection to another" }],
  },
  {
    question: "How much more often is the inside of a water tower inspected than that of a non-critical service reservoir?",
    expected_answer: "Every 4 years for a tower against every 10 years for a non-critical reservoir cell.",
    references: [
      { part: "part2", text: "Internal inspection with the cell drained | every 5 years | every 10 years" },
      { part: "part2", text: "Internal inspection with the tank drained | every 4 years" },
    ],
  },
  {
    question: "What strength of chlorine and what contact time are used to disinfect a reservoir cell before it is put back into supply?",
    expected_answer: "20 mg/l for 24 hours, or 50 mg/l for 4 hours.",
    references: [
      { part: "part2", text: "a cell shall be disinfected with a chlorine solution of 20 mg/l left in contact for 24 hours, or 50 mg/l for 4 hours" },
    ],
  },
  {
    question: "How often must the water held in an elevated tank be replaced?",
    expected_answer: "At least once every 48 hours.",
    references: [{ part: "part2", text: "the operator shall turn the contents over at least once every 48 hours" }],
  },
  {
    question: "What flow must a fire hydrant deliver at its test?",
    expected_answer: "At least 8 l/s at 1 bar residual on a distribution main, or 20 l/s on a trunk main.",
    references: [
      {
        part: "part2",
        text: "it delivers at least 8 litres per second at a residual pressure of at least 1 bar on a distribution main, or 20 litres per second on a trunk main",
      },
    ],
  },
  {
    question: "How long is a new polyethylene pipe held at test pressure before the pressure is dropped?",
    expected_answer: "30 minutes at 1.5 times working pressure, but at least 10 bar.",
    references: [{ part: "part2", text: "the main is held at 1.5 times its working pressure, but at least 10 bar, for 30 minutes" }],
  },
  {
    question: "For how long must the backup generator at a large works be able to run without a fuel delivery?",
    expected_answer: "At least 72 hours of essential load on fuel stored on site.",
    references: [{ part: "part2", text: "for at least 72 hours on the fuel stored on site" }],
  },
  {
    question: "How often must a standby generator be run on load for a full working shift?",
    expected_answer: "Every 12 months, for 8 hours, using a load bank if needed.",
    references: [{ part: "part2", text: "Run on load for 8 hours (load bank where needed) | every 12 months" }],
  },
  {
    question: "How quickly must a top-priority alarm get to the control room and be acknowledged?",
    expected_answer: "Within 60 seconds, acknowledged within 5 minutes.",
    references: [{ part: "part2", text: "shall reach the control room within 60 seconds and be acknowledged within 5 minutes" }],
  },
  {
    question: "Why does the Brindle Cross booster station get the top criticality score although its zone has fewer than 2,000 properties?",
    expected_answer: "The score is the highest of the three criteria, not the average, and possible contamination alone gives 5.",
    references: [
      { part: "part4", text: "The score is the highest of the three, not their average, so Brindle Cross scores 5" },
      { part: "part2", text: "5 | more than 10,000 | more than 48 hours | contamination possible" },
    ],
  },
  {
    question: "What must be done about an asset found to have significant defects?",
    expected_answer: "Grade 4: repair within 3 months.",
    references: [{ part: "part2", text: "4 | significant defects | repair within 3 months" }],
  },
  {
    question: "If an inspection is carried out three weeks after it was due, from when is the following one counted?",
    expected_answer: "From the original due date, not from the late inspection.",
    references: [{ part: "part2", text: "the next inspection is then due one interval after the original due date, not after the late inspection" }],
  },
  {
    question: "What delivery head is recorded for the Harrowby Mill pumping station?",
    expected_answer: "73 m (duty flow 440 l/s, four pumps).",
    references: [{ part: "part2", text: "PS-120 | Harrowby Mill | Treated water | 440 l/s | 73 m | 4 | 4 | 1970" }],
  },
  {
    question: "When was the Toll Bar reservoir last cleaned?",
    expected_answer: "In 2020.",
    references: [{ part: "part2", text: "SR-224 | Toll Bar | 2,500 m3 | 2 | 45 m AOD | 1976 | 2020" }],
  },
  {
    question: "How quickly must someone respond to a break-in alarm at a reservoir site?",
    expected_answer: "The security contractor within 30 minutes and a network technician within 2 hours.",
    references: [
      {
        part: "part2",
        text: "An intruder alarm shall be attended by the Authority's security contractor within 30 minutes and by a network technician within 2 hours.",
      },
    ],
  },
  {
    question: "How often are coliforms sampled at the outlet of a class C works?",
    expected_answer: "Twice a week.",
    references: [{ part: "part3", text: "C | twice a week | every 3 months | continuous, logged every 5 minutes" }],
  },
  {
    question: "How many routine kitchen-tap samples a year does a zone of 3,000 people need?",
    expected_answer: "12 a year (and 4 for lead, copper and nickel).",
    references: [{ part: "part3", text: "501 to 5,000 | 12 | 4" }],
  },
  {
    question: "How many routine tap samples are planned each year in Barrowmere?",
    expected_answer: "4.",
    references: [{ part: "part3", text: "Z03 | Barrowmere | 500 | Pike Fen WTW | 4 | no" }],
  },
  {
    question: "What is the highest lead concentration permitted at a customer's tap?",
    expected_answer: "10 micrograms per litre.",
    references: [{ part: "part3", text: "Lead | 10 | micrograms per litre" }],
  },
  {
    question: "How are nitrate and nitrite judged together?",
    expected_answer: "Nitrate/50 plus nitrite/3 (mg/l) must not exceed 1.",
    references: [{ part: "part3", text: "the sum of the nitrate concentration divided by 50 and the nitrite concentration divided by 3" }],
  },
  {
    question: "What are the compliance limit and the investigation trigger for total trihalomethanes?",
    expected_answer: "Limit 80 micrograms per litre; action level 60 at zone extremities.",
    references: [
      { part: "part3", text: "Trihalomethanes, total | 80 | micrograms per litre" },
      { part: "part3", text: "Trihalomethanes | 60 micrograms per litre | zone extremities | review organic removal and residence time" },
    ],
  },
  {
    question: "How cloudy may water at a kitchen tap get before local flushing starts, and before it breaches the limit?",
    expected_answer: "Action level 2 NTU (flush locally); limit 4 NTU.",
    references: [
      { part: "part3", text: "Turbidity | 4 NTU | customer taps" },
      { part: "part3", text: "Turbidity | 2 NTU | customer taps | flush the main locally" },
    ],
  },
  {
    question: "How soon must the regulator be told of E. coli found in a sample?",
    expected_answer: "Within 3 hours (the Head of Water Quality within 1 hour).",
    references: [{ part: "part3", text: "E. coli or enterococci in any sample | within 1 hour | within 3 hours | within 3 hours" }],
  },
  {
    question: "Who must be told about coliforms found at a customer's tap, and by when?",
    expected_answer: "Head of Water Quality within 24 hours, regulator within 5 working days; health authority not required.",
    references: [{ part: "part3", text: "Coliforms at a customer tap | within 24 hours | within 5 working days | not required" }],
  },
  {
    question: "Within how many hours of the decision must every affected household receive a boil water notice?",
    expected_answer: "12 hours.",
    references: [{ part: "part3", text: "the notice shall reach every affected property within 12 hours of the decision" }],
  },
  {
    question: "How much drinking water per person must be supplied while customers are told not to drink the tap water?",
    expected_answer: "At least 10 litres per person per day, 20 for those needing extra help.",
    references: [
      {
        part: "part3",
        text: "at least 10 litres of bottled or bowsered water per person per day, and 20 litres to properties registered as needing extra help",
      },
    ],
  },
  {
    question: "How fast must an inspector visit after a customer reports brown water?",
    expected_answer: "Within 24 hours.",
    references: [{ part: "part3", text: "Discoloured water (brown, black, orange) | 24 hours" }],
  },
  {
    question: "How long may a bacteria sample wait before the laboratory starts analysing it?",
    expected_answer: "18 hours, or 24 hours if kept below 5 deg C.",
    references: [{ part: "part3", text: "Coliforms, E. coli and enterococci | 18 hours (24 hours if kept below 5 deg C)" }],
  },
  {
    question: "By what date must the yearly drinking water quality report be online?",
    expected_answer: "By 31 May of the following year.",
    references: [{ part: "part3", text: "is published on the Authority's website by 31 May of the following year" }],
  },
  {
    question: "How long must the paperwork be kept when customers were told to boil their tap water?",
    expected_answer: "30 years.",
    references: [{ part: "part3", text: "Boil water notice decisions | 30 years" }],
  },
  {
    question: "How much radon or tritium activity is acceptable in supplied water?",
    expected_answer: "100 Bq/l each, and an indicative dose of 0.10 mSv a year.",
    references: [
      {
        part: "part3",
        text: "The limits are 100 becquerels per litre for radon, 100 becquerels per litre for tritium and an indicative dose of 0.10 millisieverts a year.",
      },
    ],
  },
  {
    question: "What concentration of earthy or musty compounds in treated water calls for powdered carbon?",
    expected_answer: "Geosmin or 2-methylisoborneol above 10 ng/l.",
    references: [
      {
        part: "part3",
        text: "A concentration of either above 10 nanograms per litre in the treated water shall lead the operator to dose powdered activated carbon or to change the source",
      },
    ],
  },
  {
    question: "How long does the investigating scientist have to write up a bacterial exceedance?",
    expected_answer: "20 working days (30 for a chemical one).",
    references: [
      {
        part: "part3",
        text: "The report is due within 20 working days of the exceedance for a microbiological parameter and within 30 working days for a chemical parameter",
      },
    ],
  },
  {
    question: "Across the region in 2025, how often did customers complain that their water looked brown or dirty, per thousand homes?",
    expected_answer: "1.1 per 1,000 properties.",
    references: [{ part: "part3", text: "The regional average complaint rates for 2025 were 1.1 per 1,000 properties for discoloration" }],
  },
  {
    question: "In the winter worked example at Castle Marsh, what CT did the contact tank achieve and what did the table require?",
    expected_answer: "81 mg.min/l achieved against 149 required at 5 deg C and pH 7.5.",
    references: [
      { part: "part1", text: "5 deg C 98 122 149 179 217" },
      { part: "part4", text: "The achieved CT is 0.9 times 90, or 81 mg.min/l." },
    ],
  },
  {
    question: "Why is Pike Fen treatment works class B when its weighted population would make it class C?",
    expected_answer: "Its source is a lowland river downstream of a wastewater discharge, which raises it one class.",
    references: [
      {
        part: "part4",
        text: "Because the source is a lowland river downstream of a wastewater discharge, clause 4.2 raises the works one class: Pike Fen WTW is a class B works.",
      },
      { part: "part1", text: "A works is raised one class, but never above class A, where its source is a lowland river downstream of a wastewater discharge" },
    ],
  },
  {
    question: "How many routine tap samples does Fenmoor Central take each year, and what rule gives that number?",
    expected_answer: "36: 24 plus 4 for each 5,000 or part above 20,000 (32,400 residents).",
    references: [
      { part: "part3", text: "Z14 | Fenmoor Central | 32,400 | Lower Sedge WTW | 36 | yes" },
      { part: "part3", text: "more than 20,000 | 24 plus 4 for each 5,000 (or part) above 20,000 | 8 plus 2 for each 10,000 (or part) above 20,000" },
    ],
  },
  {
    question: "After pump 2 at Holm Common was graded 4, how often is its vibration checked, and what rule says so?",
    expected_answer: "Every two weeks instead of monthly, because intervals are halved for an asset graded 4 or 5 until two inspections grade it 3 or better.",
    references: [
      { part: "part4", text: "its vibration measurement is now due every two weeks and its performance test every 3 months instead of every 6" },
      {
        part: "part2",
        text: "shall shorten it by half for an asset graded 4 or 5 at its last inspection (clause 14.3) until two consecutive inspections grade it 3 or better",
      },
    ],
  },
  {
    question: "How many properties were put on a boil water notice after the 2024 chlorination failure, and for how long?",
    expected_answer: "6,200 properties in Fenmoor West and Saltings, from 4 to 7 February.",
    references: [
      {
        part: "part4",
        text: "A boil water notice was issued to 6,200 properties in Fenmoor West and Saltings on 4 February and lifted on 7 February after clear samples on two consecutive days.",
      },
    ],
  },
  {
    question: "What was the age limit for hypochlorite stock before edition 3?",
    expected_answer: "90 days (now 60).",
    references: [{ part: "part4", text: "10.4 | Greatest age of hypochlorite after delivery | 90 days | 60 days" }],
  },
  {
    question: "What let rainwater into the Sedgecombe reservoir in 2023, and what hatch rule was added as a result?",
    expected_answer:
      "The hatch cover of cell 2 no longer overlapped its frame after the membrane was relaid; hatches must now stand 150 mm above the roof with an overlapping cover.",
    references: [
      { part: "part4", text: "the hatch cover of cell 2 no longer overlapped its frame after the roof membrane had been relaid in 2022" },
      { part: "part2", text: "hatches shall be raised at least 150 mm above the roof with a lockable cover that overlaps the frame" },
    ],
  },
  {
    question: "How many hydrants were found unserviceable in the 2025 programme?",
    expected_answer: "88 graded 5 (402 graded 4) of 5,310 inspected.",
    references: [{ part: "part4", text: "Hydrants | 5,310 | 402 | 88" }],
  },
  {
    question: "The laboratory reports E. coli at 16:05 on a Saturday: by what time must the regulator hear of it?",
    expected_answer: "By 19:05, three hours later; the clock runs at weekends.",
    references: [
      { part: "part4", text: "and the regulator and the local health authority by 19:05" },
      { part: "part3", text: "E. coli or enterococci in any sample | within 1 hour | within 3 hours | within 3 hours" },
    ],
  },
  {
    question: "Why did filter 5 at Greywell need washing after 41 hours?",
    expected_answer: "Its outlet turbidity of 0.4 NTU had passed the 0.3 NTU trigger, though head loss and run time had not.",
    references: [{ part: "part4", text: "The turbidity trigger had been met, so the filter was due for a backwash at once" }],
  },
  {
    question: "Did the Wash Lane hydrant pass its flow test?",
    expected_answer: "No: 7.2 l/s at 1.3 bar, below the 8 l/s required on a distribution main.",
    references: [
      {
        part: "part4",
        text: "The pressure was above the 1 bar minimum of clause 23.4, but the flow was below the 8 litres per second a hydrant on a distribution main must deliver.",
      },
    ],
  },
  {
    question: "A works puts water into supply with 0.25 mg/l of free chlorine: must this be reported?",
    expected_answer: "No; it is below the operating range so the dose must be corrected, but above the action level, so nothing is notified.",
    references: [{ part: "part4", text: "it must correct the dose, but nothing is notified" }],
  },
  {
    question: "How often is the outlet pressure record of the Long Drove pressure-reducing valve reviewed, and what fault was found?",
    expected_answer: "Monthly (non-critical control valve); a blocked strainer in the pilot circuit.",
    references: [
      { part: "part2", text: "Review of the outlet pressure log | weekly | monthly" },
      { part: "part4", text: "The pilot circuit was serviced and a blocked strainer found." },
    ],
  },
  {
    question: "When did cell 1 of Maiden Bower go back into supply?",
    expected_answer: "On the afternoon of Saturday 11 October.",
    references: [{ part: "part4", text: "The cell returned to supply on the afternoon of Saturday 11 October" }],
  },
  {
    question: "How much storage is Kettle Green zone missing?",
    expected_answer: "550 cubic metres: Foxcote holds 4,250 against 4,800 required.",
    references: [{ part: "part4", text: "The zone's only reservoir, Foxcote, holds 4,250 cubic metres in two cells, which is 550 cubic metres short." }],
  },
  {
    question: "In last year's programme, what proportion of shut-off valves were seized, and how soon must a seized one be put right?",
    expected_answer: "6.2 percent; repair or replace within 3 months.",
    references: [
      { part: "part4", text: "in 2025, 6.2 percent of isolation valves operated could not be turned" },
      {
        part: "part2",
        text: "A valve that cannot be operated, or whose turns differ from the record by more than 5 percent, grades 4 and shall be repaired or replaced within 3 months.",
      },
    ],
  },
  {
    question: "In the Gallows Hill burst, by what time did a crew have to be on site, and which rule set that deadline?",
    expected_answer: "By 06:46, one hour after the control room learned of it at 05:46, because a trunk main over 300 mm must be attended within 1 hour.",
    references: [
      { part: "part4", text: "so it had to be attended within 1 hour, by 06:46" },
      { part: "part2", text: "Trunk main (over 300 mm) | 1 hour | 12 hours, by rezoning if the repair takes longer" },
    ],
  },
  {
    question: "How long may the laboratory take to report metals in an ordinary, non-incident sample?",
    expected_answer: "7 working days (24 hours for incident samples).",
    references: [{ part: "part3", text: "Metals and inorganic chemicals | 7 working days | 24 hours" }],
  },
  {
    question: "When should a borehole pump be pulled out before its planned strip-down?",
    expected_answer: "When its flow drops below 85 percent of the commissioning flow or its motor current rises more than 10 percent at the same flow.",
    references: [
      {
        part: "part2",
        text: "when its delivered flow has fallen below 85 percent of the commissioning flow or its motor current has risen by more than 10 percent at the same flow",
      },
    ],
  },
  {
    question: "When does the inside of a steel tower tank have to be given a new protective coat?",
    expected_answer: "When over 5 percent of the internal surface shows coating breakdown or rust staining.",
    references: [{ part: "part2", text: "the tank recoated when more than 5 percent of its internal surface shows coating breakdown or rust staining" }],
  },
  {
    question: "What follows when Clostridium perfringens turns up twice in a month at a works outlet, and how is that extra monitoring done?",
    expected_answer:
      "Cryptosporidium monitoring for the next 3 months: a continuous sample of at least 1,000 litres a day filtered through a cartridge changed daily.",
    references: [
      { part: "part3", text: "the works shall be sampled for Cryptosporidium under clause 27.2 for the following 3 months" },
      { part: "part3", text: "filter a continuous sample of at least 1,000 litres of treated water a day through a cartridge" },
    ],
  },
  {
    question: "How long are chlorine contact records kept, compared with the minute-by-minute logs of the UV reactors?",
    expected_answer: "CT records 10 years; UV reactor logs 5 years.",
    references: [
      { part: "part1", text: "CT records shall be kept for 10 years" },
      { part: "part1", text: "and keep the logs for 5 years" },
    ],
  },
  {
    question: "Are the vibration and flow figures in the pump acceptance clauses upper or lower bounds?",
    expected_answer: "Vibration limits are maximums in mm/s RMS; flow criteria are minimums as a percentage of the commissioning flow.",
    references: [
      {
        part: "part4",
        text: "the vibration limits of clauses 15.4, 16.4 and 17.4 are maximums in mm/s RMS, while the flow criteria are minimums as a percentage of the commissioning flow",
      },
    ],
  },
  {
    question: "How often must the plant's reference dossier be checked and signed off?",
    expected_answer: "Every 12 months and after every process change, by the works manager.",
    references: [{ part: "part1", text: "The works file shall be reviewed by the works manager every 12 months and after every process change" }],
  },
  {
    question: "How quickly must a rip in a band or drum screen be mended?",
    expected_answer: "Within 7 days if larger than twice the aperture, running the intake at half rate meanwhile.",
    references: [{ part: "part1", text: "A tear in a screen mesh larger than twice the aperture shall be repaired within 7 days" }],
  },
  {
    question: "During an incident, how many kitchen taps must the extra sampling plan cover?",
    expected_answer: "At least one per 500 affected properties, and never fewer than five.",
    references: [{ part: "part3", text: "at least one tap for every 500 affected properties, and never fewer than five taps" }],
  },
];
