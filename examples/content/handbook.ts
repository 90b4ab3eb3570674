/**
 * Text of the bundled large example: a member and operations handbook of a fictional
 * community energy cooperative, written for chunkeval. Every fact is invented.
 */
export type Part = string | { list: string[] } | { table: string[][] };
export interface Section {
  heading: string;
  level: 1 | 2;
  parts: Part[];
}

export const title = "Harbor Light Energy Cooperative: Member and Operations Handbook";

export const sections: Section[] = [
  {
    heading: "1. About the Cooperative",
    level: 1,
    parts: [
      "Harbor Light Energy Cooperative was founded in 2009 by a group of fishermen, teachers and shop owners in the coastal town of Port Alder who wanted a say in where their electricity came from. The first meeting took place in the back room of the Anchor Bakery, and the founding charter was signed by 37 households. Today the cooperative serves 4,200 member households and 310 small businesses across Port Alder, Kessing Bay and the inland villages of the Tamm valley.",
      "The cooperative owns generation assets, buys wholesale power on behalf of its members, and returns any surplus to members as patronage dividends. It is not a profit-seeking company: every decision is measured against three commitments written into the charter, which are affordable energy for every member household, a steady move to renewable sources, and local control of the assets that serve the community.",
      "This handbook explains how the cooperative is governed, what members can expect from us, how billing works, and how our field teams keep the network safe. It replaces the 2021 edition. Where this handbook and the bylaws disagree, the bylaws prevail, and the board secretary will correct the handbook at its next revision.",
      { list: [
        "Headquarters: 14 Quay Street, Port Alder.",
        "Service area: 212 square kilometres of coast and valley.",
        "Staff: 58 employees, of whom 31 work in field operations.",
        "Annual energy delivered in 2023: 96 gigawatt-hours.",
      ] },
      "Members often ask how Harbor Light differs from the regional utility. The regional utility still owns the high-voltage transmission lines that bring power into the valley, and it charges the cooperative a network fee for using them. Harbor Light owns the local distribution network below 33 kilovolts, the meters in members' homes, and its own generation. That split explains why some outages are ours to fix and some are not, a point covered in the chapter on outages and safety.",
    ],
  },
  {
    heading: "2. Governance",
    level: 1,
    parts: [
      "Harbor Light is governed by its members on the principle of one member, one vote, regardless of how much electricity a member uses or how many shares a member holds. Members elect a board of nine directors, who serve staggered three-year terms so that three seats come up for election every year. No director may serve more than three consecutive terms.",
      "Board elections are held every March at the annual general meeting. Members may vote in person, by post, or through the secure online ballot, which opens fourteen days before the meeting. A candidate must be nominated by at least twenty members and must have been a member for at least two years on the date nominations close.",
      "The annual general meeting can only take binding decisions when a quorum is present. The quorum is ten percent of all members, counting members present in person, members voting by post and members who have cast an online ballot. If the quorum is not reached, the meeting is adjourned for four weeks and the reconvened meeting may proceed with any number of members present.",
      "The board appoints the general manager, approves the annual budget and the tariff schedule, and sets the long-term investment plan. Day-to-day management is delegated to the general manager, who reports to the board every month. Board minutes are published on the member portal within ten working days of each meeting, with commercially confidential items removed and listed by title only.",
      "Three standing committees support the board. The Audit and Risk Committee reviews the accounts and the risk register every quarter. The Member Services Committee hears appeals on complaints that staff could not resolve. The Renewables Committee prepares investment proposals for new generation and storage projects and must include at least one member who is not a director.",
    ],
  },
  {
    heading: "3. Membership and Shares",
    level: 1,
    parts: [
      "Any household or small business connected to the Harbor Light network may become a member. Membership requires the purchase of one member share at a price of 100 euros. The share is refundable at its original price when a member leaves the service area or closes the account, and the refund is paid within sixty days after the final bill is settled.",
      "Members who wish to invest more in the cooperative may buy investment shares in blocks of 250 euros, up to a maximum of 20,000 euros per member. Investment shares carry an annual interest rate set by the board, which was 3.5 percent for 2024. Interest is paid every June. Investment shares cannot be sold to third parties; they can only be redeemed by the cooperative, with six months' notice.",
      "Patronage dividends are different from interest. When the cooperative ends a financial year with a surplus, the board may return part of it to members in proportion to the electricity each member bought during the year. In 2023 the patronage dividend was 41 euros for an average household, credited against the member's January bill.",
      "Members have the right to inspect the register of members, the annual accounts and the board minutes. They also have a duty to keep their contact details up to date and to give field teams reasonable access to meters and equipment on their property.",
    ],
  },
  {
    heading: "4. The Rooftop Solar Program",
    level: 1,
    parts: [
      "The rooftop solar program helps members put photovoltaic panels on their own roofs. The cooperative buys panels and inverters in bulk, which lowers the price for every participant, and its own certified installers carry out the work. By the end of 2023 the program had installed 1,140 systems with a combined capacity of 3.2 megawatts.",
      "A typical household system has ten panels and a peak output of 4.1 kilowatts. On a clear summer day such a system produces around 24 kilowatt-hours, which is more than the average member household uses, and the surplus flows back into the network. Members are paid for exported energy at the export rate listed in the tariff table.",
      "Members join the program in five steps:",
      { list: [
        "Request a free roof survey through the member portal or by calling the solar desk.",
        "A surveyor visits within three weeks to check roof orientation, shading and structural condition.",
        "The member receives a fixed-price quote that is valid for ninety days.",
        "After the member signs, installation is scheduled, usually within eight weeks.",
        "A network engineer inspects the finished system and replaces the meter with a two-way meter.",
      ] },
      "Members who cannot pay the full price up front can spread the cost over up to seven years through the solar loan, which carries an interest rate of 2.9 percent. Repayments are added to the monthly electricity bill, so there is no separate account to manage. If the member moves house, the remaining loan balance can be transferred to the buyer of the property with the buyer's agreement.",
      "North-facing roofs and roofs shaded for more than a third of the day usually do not qualify. For members whose roofs are unsuitable, the cooperative offers a share in the community solar garden at the old Kessing Bay quarry, where each share of 500 euros entitles the member to the output of one panel, credited on the bill every quarter.",
    ],
  },
  {
    heading: "5. The Greyhill Wind Project",
    level: 1,
    parts: [
      "The Greyhill wind project is the cooperative's largest single asset. Two turbines, each rated at 2.3 megawatts, stand on the Greyhill ridge eight kilometres north of Port Alder. They were commissioned in October 2017 after four years of planning, a public inquiry and a bird-migration study that ran for two full seasons.",
      "The turbines have a hub height of 85 metres and a rotor diameter of 92 metres. Together they produced 13.8 gigawatt-hours in 2023, which is roughly one seventh of all the energy the cooperative delivered that year. Their capacity factor, the share of the theoretical maximum that was actually produced, was 34 percent.",
      "The project was financed by 6.1 million euros of member investment shares and a loan from the regional development bank, which will be fully repaid in 2032. After the loan is repaid, the turbines are expected to lower the cooperative's average cost of energy by about nine percent.",
      "To protect migrating birds, both turbines stop automatically for two hours after sunrise on days between 15 September and 31 October when the radar system at the ridge detects flocks within three kilometres. In 2023 this curtailment cost 210 megawatt-hours of production, a price the board considers well worth paying.",
      "Neighbours within two kilometres of the turbines receive an annual community payment of 150 euros per household. The payment is funded from turbine revenue and is paid whether or not the household is a member of the cooperative.",
    ],
  },
  {
    heading: "6. Billing and Tariffs",
    level: 1,
    parts: [
      "Members are billed every month. Each bill shows the meter readings, the energy used in each time band, the fixed daily charge, any export credits, loan repayments and dividends, and the total amount due. Bills are issued on the fifth working day of the month and are due twenty-one days later.",
      "The tariff schedule is approved by the board once a year and takes effect on 1 April. Members receive at least thirty days' notice of any change. The current tariffs are set out in the table below; all prices include value-added tax.",
      { table: [
        ["Tariff", "Unit price", "Daily charge", "Who it suits"],
        ["Standard", "24.6 cents per kWh", "38 cents", "Most households"],
        ["Time of Use (peak 17:00-21:00)", "31.2 cents per kWh", "38 cents", "Households that can shift usage"],
        ["Time of Use (off-peak)", "15.4 cents per kWh", "included above", "Electric vehicle owners"],
        ["Small Business", "22.9 cents per kWh", "1.10 euros", "Shops, workshops and offices"],
        ["Solar Export", "8.5 cents per kWh paid to the member", "none", "Members with rooftop solar"],
      ] },
      "Members may switch between the Standard and Time of Use tariffs once every twelve months at no charge. A second switch within the same twelve months costs 25 euros to cover the meter reprogramming.",
      "Payment can be made by direct debit, bank transfer or at the Quay Street office. Members who pay by direct debit receive a discount of two percent on the energy part of the bill. A member who has not paid a bill within fourteen days after the due date receives a reminder letter, and a member who is still in arrears thirty days after the due date is contacted by the member support team to agree a payment plan.",
      "The cooperative never disconnects a household for non-payment between 1 November and 31 March, and it never disconnects a household that includes a person who depends on electrically powered medical equipment. Members in that situation should register on the priority services list, which also gives them advance warning of planned outages.",
    ],
  },
  {
    heading: "7. Outages and Safety",
    level: 1,
    parts: [
      "Most outages on the Harbor Light network are caused by storms, falling trees, and, less often, by equipment failure. The cooperative's target is to restore supply to at least ninety percent of affected members within three hours of an unplanned outage. In 2023 the average restoration time was 96 minutes, and the longest single outage lasted eleven hours, during the January storm that brought down forty poles in the Tamm valley.",
      "To report an outage, members should call the 24-hour fault line on 0800 555 0190 or use the outage map on the member portal. Reports by text message are accepted at 50190. The fault line is staffed by cooperative employees, not a call centre, and the person who answers can see the live status of the network.",
      "If you see a fallen power line, stay at least ten metres away from it and from anything it touches, including fences, puddles and vehicles. Always assume a fallen line is live, even if it is not sparking. Call the fault line immediately and keep other people and animals away until a crew arrives.",
      "Field crews follow the cooperative's safety procedure for every job on the network:",
      { list: [
        "Isolate the section of network from every possible source of supply, including member solar systems.",
        "Test that the equipment is dead with an approved voltage detector.",
        "Apply earths on both sides of the work area.",
        "Lock and tag every isolation point with the crew leader's personal lock.",
        "Brief every crew member on the work plan before anyone climbs a pole.",
      ] },
      "Planned outages for maintenance are announced at least five working days in advance by letter, email and text message. They are scheduled between 09:00 and 15:00 on weekdays whenever possible, and never on public holidays.",
      "Members with a standby generator must have it connected through an approved changeover switch. A generator connected directly to household wiring can feed power back into the network and endanger line workers, and the cooperative will disconnect any installation where this is found.",
    ],
  },
  {
    heading: "8. Energy Efficiency Grants",
    level: 1,
    parts: [
      "Every kilowatt-hour a member does not need is cheaper and cleaner than any kilowatt-hour the cooperative can generate. For that reason the cooperative sets aside one percent of its annual revenue for energy efficiency grants. In 2023 the grant fund stood at 212,000 euros and supported 388 projects.",
      "Members can apply for a grant of up to 2,500 euros towards the cost of an air-source heat pump, and up to 1,200 euros towards loft or wall insulation. Grants cover at most half of the cost of the work. Members whose household income is below the threshold published each year by the board can receive a grant covering up to ninety percent of the cost.",
      "Applications open on 1 May and close when the year's fund is fully committed. Each application must include a quote from a registered installer. Work must not start before the grant is approved, because the cooperative cannot fund work that has already been done. Approved work must be completed within six months, and a member of the efficiency team visits afterwards to confirm it.",
      "Members can also borrow a thermal imaging camera from the Quay Street office free of charge for up to one week, to find where their home loses heat. The camera comes with a short guide and the efficiency team offers a free thirty-minute session to interpret the images.",
    ],
  },
  {
    heading: "9. Battery Storage Pilot",
    level: 1,
    parts: [
      "In 2022 the cooperative began a pilot that places home batteries in 120 member households that already have rooftop solar. Each battery stores up to 10 kilowatt-hours. The batteries charge from the member's own panels during the day and discharge in the evening peak, which lowers the member's bills and reduces the load on the network when it is most stretched.",
      "During the pilot the cooperative owns the batteries and pays for their installation. In exchange, participating members allow the cooperative to use up to thirty percent of each battery's capacity to support the network during emergencies, for example when a storm takes a feeder line out of service. The member can see on the portal every time this happens.",
      "First results show that a participating household uses on average 62 percent of its own solar output, compared with 35 percent before the battery was installed. The pilot runs until the end of 2025, after which the Renewables Committee will recommend to the board whether to offer batteries to all solar members.",
    ],
  },
  {
    heading: "10. Electric Vehicle Charging",
    level: 1,
    parts: [
      "Harbor Light operates twenty-four public charging points in Port Alder, Kessing Bay and the Tamm valley. Members pay the Time of Use unit price for the energy plus a session fee of 50 cents; non-members pay 45 cents per kilowatt-hour and no session fee. Fast chargers rated at 50 kilowatts are installed at the harbour car park and at the Tamm valley community hall.",
      "Members who install a home charger can apply for a smart-charging discount: if the member allows the cooperative to delay charging during the evening peak, the member receives a credit of 5 euros per month. Charging is never delayed beyond 06:00 the next morning, and the member can override the delay from the portal at any time.",
    ],
  },
  {
    heading: "11. Workforce and Training",
    level: 1,
    parts: [
      "The cooperative employs 58 people. Field operations, which covers line work, metering and substations, employs 31 of them. The remaining staff work in member services, engineering, finance and the solar program. Every field employee completes a first-aid course every two years and a rescue-from-height course every year.",
      "Each autumn the cooperative takes on two apprentices in electrical line work. The apprenticeship lasts three and a half years and combines work with the field crews with study at the regional technical college in Kessing Bay. Since 2012, nineteen apprentices have completed the program and fifteen of them still work for the cooperative.",
      "Staff wages are set by a collective agreement negotiated every three years. The ratio between the highest and the lowest salary in the cooperative may not exceed four to one, a rule the members added to the bylaws in 2015.",
    ],
  },
  {
    heading: "12. Environmental Reporting",
    level: 1,
    parts: [
      "The cooperative publishes an environmental report every year together with its annual accounts. The report covers the carbon intensity of the electricity supplied, the share of renewable energy, and the cooperative's own emissions from vehicles and buildings.",
      "In 2023, 58 percent of the energy delivered to members came from renewable sources, up from 44 percent in 2020. The carbon intensity of the supply was 162 grams of carbon dioxide per kilowatt-hour, compared with a national average of 251 grams. The cooperative's own operational emissions were 412 tonnes of carbon dioxide, most of it from the diesel vehicles of the field fleet.",
      "The board has set a target of 80 percent renewable supply by 2030. Replacing the field fleet with electric vehicles is planned between 2025 and 2028, with the exception of the two heavy crane trucks, for which no suitable electric model is yet available.",
    ],
  },
  {
    heading: "13. Data Privacy",
    level: 1,
    parts: [
      "Smart meters record a member's consumption every thirty minutes. The cooperative uses these readings for billing, for planning the network and, when the member agrees, for personalised energy advice. Half-hourly readings are never sold or shared with third parties for marketing.",
      "Half-hourly data is kept for twenty-four months and then reduced to daily totals. Billing records are kept for seven years, as the tax authorities require. Members can download all the data the cooperative holds about them from the portal, and can ask the data protection officer to correct anything that is wrong.",
      "The data protection officer can be reached at privacy@harborlight.coop or by post at the Quay Street office. Any suspected data breach is reported to the national data protection authority within seventy-two hours of its discovery.",
    ],
  },
  {
    heading: "14. Complaints and Disputes",
    level: 1,
    parts: [
      "Members who are unhappy with any part of our service should first contact member services, by phone, by email or at the Quay Street office. Member services aims to resolve every complaint within ten working days and to keep the member informed at least once a week while the complaint is open.",
      "If the member is not satisfied with the answer, the member can ask for the complaint to be reviewed by the Member Services Committee of the board. The committee meets once a month and gives its decision in writing. If eight weeks have passed since the original complaint and the matter is still not resolved, the member may take it to the national energy ombudsman, whose decisions are binding on the cooperative.",
      "In 2023 the cooperative received 214 complaints. Billing questions made up almost half of them, followed by complaints about the time taken to connect rooftop solar systems. Seven complaints reached the Member Services Committee and one went to the ombudsman, who found in the cooperative's favour.",
    ],
  },
  {
    heading: "15. Glossary",
    level: 1,
    parts: [
      "The following terms appear throughout this handbook and on members' bills.",
      { list: [
        "Capacity factor: the energy a generator actually produced in a period, divided by what it would have produced running at full power for the whole period.",
        "Curtailment: deliberately reducing the output of a generator, for example to protect wildlife or the network.",
        "Distribution network: the lines, cables and substations below 33 kilovolts that carry electricity to members' premises.",
        "Export rate: the price the cooperative pays a member for each kilowatt-hour the member's solar system feeds into the network.",
        "Patronage dividend: a share of the year's surplus returned to members in proportion to the energy they bought.",
        "Priority services list: a register of members who need extra support, such as those who depend on powered medical equipment.",
      ] },
    ],
  },
  {
    heading: "16. Contacts",
    level: 1,
    parts: [
      "The Quay Street office is open from 09:00 to 17:00 on weekdays and from 10:00 to 13:00 on Saturdays. It is closed on Sundays and public holidays.",
      { table: [
        ["Service", "Contact", "Hours"],
        ["Fault line", "0800 555 0190", "24 hours, every day"],
        ["Member services", "members@harborlight.coop", "Weekdays 08:30-18:00"],
        ["Solar desk", "solar@harborlight.coop", "Weekdays 09:00-16:00"],
        ["Efficiency grants", "grants@harborlight.coop", "Weekdays 09:00-16:00"],
        ["Data protection officer", "privacy@harborlight.coop", "Replies within five working days"],
      ] },
    ],
  },
];
