/**
 * Text of the example corpus's Word document (examples/corpus/alder-street-trip-policy.docx):
 * a primary school's policy on educational visits, written for chunkeval. Every fact, name and
 * number is invented.
 */
export type Part = string | { list: string[] } | { table: string[][] };
export interface Section {
  heading: string;
  level: 1 | 2;
  parts: Part[];
}

export const title = "Alder Street Primary School: Educational Visits Policy";

export const sections: Section[] = [
  {
    heading: "1. Purpose and Scope",
    level: 1,
    parts: [
      "Visits outside the classroom are part of how Alder Street Primary School teaches. A morning at the canal, a day at a museum or three nights at an outdoor centre give pupils experiences that no textbook can, and they are open to every pupil whatever their family's means. This policy explains how visits are planned, approved, staffed, paid for and reviewed.",
      "The policy covers every activity that takes pupils off the school site during or outside school hours, from a walk to the local library to a residential trip abroad. It was adopted by the governing body on 12 June 2025 and will be reviewed in June 2027, or sooner if national guidance changes.",
    ],
  },
  {
    heading: "2. Roles and Responsibilities",
    level: 1,
    parts: [
      "The Educational Visits Coordinator (EVC) is Ms Hannah Whitlock, deputy headteacher. She checks every visit plan, keeps the register of approved venues and makes sure that visit leaders have been trained. The headteacher, Mr Daniel Osei, approves day visits and residential visits; the governing body's Pupil Welfare Committee also approves residential visits and any visit abroad.",
      "Each visit has a named visit leader, normally the class teacher, who writes the plan and the risk assessment, briefs the adults going on the visit and is in charge on the day. Volunteers, including parents, help under the leader's direction and are never left alone in charge of a group unless they hold a current enhanced background check.",
    ],
  },
  {
    heading: "3. Planning and Approval",
    level: 1,
    parts: [
      "A visit plan includes the purpose of the visit, the itinerary, the transport, the staffing, the risk assessment and the cost. Plans are submitted through the school's visits portal. The table below gives the latest date for submitting a plan and who approves it.",
      {
        table: [
          ["Type of visit", "Plan submitted at least", "Approved by"],
          ["Local walk (within 2 km, on foot)", "2 school days before", "Class teacher, with the EVC informed"],
          ["Day visit", "4 weeks before", "EVC and headteacher"],
          ["Residential visit in the country", "12 weeks before", "Headteacher and Pupil Welfare Committee"],
          ["Visit abroad", "6 months before", "Pupil Welfare Committee"],
        ],
      },
      "Venues are checked before a first visit: the visit leader or the EVC makes a preliminary visit, or the venue provides its own risk assessment and evidence of public liability insurance. Venues that pupils have visited safely in the last three years, such as the Millbrook Textile Museum and the Brackenfell Outdoor Centre, are on the register of approved venues and need no new preliminary visit.",
    ],
  },
  {
    heading: "4. Staffing and Supervision",
    level: 1,
    parts: [
      "The number of adults depends on the age of the pupils and on the activity. The ratios below are the minimum for a visit within the country; the visit leader may ask for more adults where the risk assessment shows a need, and every visit needs at least two adults whatever the group size.",
      {
        table: [
          ["Year group", "Adults per pupils (minimum)"],
          ["Reception", "1 adult for every 4 pupils"],
          ["Years 1 and 2", "1 adult for every 6 pupils"],
          ["Years 3 and 4", "1 adult for every 8 pupils"],
          ["Years 5 and 6", "1 adult for every 10 pupils"],
          ["Any year, near open water", "1 adult for every 4 pupils"],
        ],
      },
      "At least one adult on every visit holds a current paediatric first aid certificate, and on a residential visit one adult of each sex stays with the group overnight. Head counts are taken at every change of place and before every departure, and the visit leader carries the register of pupils present.",
    ],
  },
  {
    heading: "5. Consent",
    level: 1,
    parts: [
      "Parents sign a standing consent at the start of each school year that covers local walks during school hours. They are told of each local walk by the class newsletter but are not asked to sign again.",
      "Every other visit needs a separate consent form. For a day visit the form must be returned at least 10 school days before the visit; for a residential visit it is returned with the deposit. A pupil whose form has not been returned stays in school with work set by the class teacher. Consent forms also collect:",
      {
        list: [
          "current medical information, allergies and dietary needs;",
          "two emergency contact numbers that will be answered on the day;",
          "permission, or refusal, for photographs taken on the visit to appear on the school website.",
        ],
      },
    ],
  },
  {
    heading: "6. Charges and Payment",
    level: 1,
    parts: [
      "The school cannot charge for visits that take place during school hours and are part of the curriculum. It asks parents for a voluntary contribution instead, usually between 5 and 15 euros for a day visit. No pupil is left out because a contribution has not been made, but a visit may be cancelled if too few contributions come in to cover the cost.",
      "Residential visits are charged for board and lodging. The Year 6 residential at the Brackenfell Outdoor Centre (three nights in May) costs 265 euros in 2026, paid as follows:",
      {
        list: [
          "a deposit of 60 euros with the consent form, by 15 January;",
          "the balance of 205 euros by 30 April, in one payment or in three monthly instalments;",
          "the deposit is refunded in full if the pupil withdraws before 1 March, and after that only if the place is taken by another pupil.",
        ],
      },
      "Families who find the cost hard can apply in confidence to the Pupil Support Fund, which is financed by the school association. The fund pays up to 75 percent of a residential visit and the full voluntary contribution for day visits. Applications go to the school business manager, Mrs Ruth Calder, by the date the deposit is due.",
    ],
  },
  {
    heading: "7. Medical Needs and Medication",
    level: 1,
    parts: [
      "The visit leader receives a summary of the medical needs of every pupil on the visit. Pupils who need inhalers or adrenaline pens carry them or have them carried by a named adult who stays with them all day. Prescribed medication is handed over in its original packaging with written instructions signed by a parent.",
      "Staff do not give pupils medicine that has not been prescribed, with one exception: on a residential visit, paracetamol may be given for pain or fever if a parent has agreed to it on the consent form, and every dose is written down and reported to the parent.",
    ],
  },
  {
    heading: "8. Emergencies",
    level: 1,
    parts: [
      "The visit leader carries the school visits mobile, 07700 900 416, which is switched on for the whole visit, and a list of the emergency contacts of every pupil. During school hours the school office is the base contact; outside school hours, on residential visits, the EVC or the headteacher is on call.",
      "If a pupil is missing, the leader:",
      {
        list: [
          "gathers the rest of the group and counts it again;",
          "asks the venue's staff to start their own search and to watch the exits;",
          "calls the police if the pupil has not been found within 15 minutes, and then the school;",
          "lets the school contact the parents, never the group itself.",
        ],
      },
      "Any accident that needs treatment by a doctor or a hospital is reported to the headteacher the same day and recorded on the school's accident form within 24 hours.",
    ],
  },
  {
    heading: "9. After the Visit",
    level: 1,
    parts: [
      "Within 10 school days of returning, the visit leader completes a short evaluation on the visits portal: what pupils learned, what went well, any incident or near miss, and whether the venue should stay on the register. The EVC reports a summary of all visits to the Pupil Welfare Committee each term.",
      "Questions about this policy can be sent to the EVC at visits@alderstreet-school.example or by telephone to the school office on 0161 496 0285, between 08:15 and 16:00 on school days.",
    ],
  },
];
