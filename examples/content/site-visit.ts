/** Text of the bundled .doc example: notes from a site visit, written for chunkeval; facts invented. */
export const title = "Greyhill Ridge Site Visit Notes";

export const paragraphs: string[] = [
  "Greyhill Ridge Site Visit Notes",
  "Visit date: 12 March 2024. Attendees: Mara Lindqvist (operations manager), Tomas Reyes (wind technician), and two members of the Renewables Committee.",
  "The purpose of the visit was to inspect both turbines after the winter storms and to review the condition of the access road, which the committee had been told was badly rutted.",
  "Turbine one was running normally during the visit. The technician reported that its gearbox oil was changed in November and that vibration readings were within the limits set by the manufacturer. No action is needed before the scheduled summer service.",
  "Turbine two had been stopped for six days in February after an ice sensor fault. The sensor was replaced on 27 February and the turbine has run without interruption since then. The technician recommends fitting a heated sensor housing before next winter, at an estimated cost of 4,800 euros.",
  "The access road is in poor condition along the last 600 metres below the ridge. Two culverts are partly blocked and water has cut channels across the surface. The committee agreed that the road must be repaired before the crane visit planned for the blade inspection in June.",
  "The bird radar was tested during the visit and detected a test target at 2.9 kilometres, which is inside the three kilometre trigger distance. The curtailment system responded correctly and both turbines would have stopped had they been running in the migration season.",
  "Actions agreed: the operations manager will obtain three quotes for the road repair by 5 April; the technician will order the heated sensor housing; and the committee will report the findings to the board at its April meeting.",
];
