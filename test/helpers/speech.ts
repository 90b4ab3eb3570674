/**
 * A speech as a plain text file: paragraphs without headings, each on its own subject, the kind of
 * document a new user tries first. Written for the tests (no real speech is copied).
 */
export const SPEECH = [
  "Thank you all for coming tonight. When the harbour board asked me to speak, I hesitated, because I have spent most of my working " +
    "life in engine rooms rather than on stages. But forty years of repairing diesel engines taught me one thing worth sharing: the " +
    "loudest noise in a machine is rarely the part that is failing.",
  "My father fished these waters in a wooden boat called the Marigold. He left before dawn six days a week, and he measured a good " +
    "season not by the money but by the number of crew who came home without an injury. I've kept his logbook on my desk ever since, " +
    "and its last page still smells of tar and salt.",
  "The cannery closed in the winter of 1987. Four hundred people lost their jobs in a single afternoon, and the town lost the rhythm " +
    "that had carried it for a century. Some families moved inland to the textile mills; others stayed and learned trades that did not " +
    "yet exist here, like fibreglass hull repair and marine electronics.",
  "Our apprenticeship programme began with three students and a borrowed lathe in the back of the old ice house. Today it trains " +
    "sixty young people a year, and every one of them spends a full summer at sea before touching a customer's engine. We insist on " +
    "that summer because a mechanic who has been seasick understands why a repair must hold.",
  "Tonight I want to talk about the new breakwater. The engineers promise that it will protect the inner basin from the autumn storms " +
    "that flooded the quay in 2019 and again in 2022. The construction will close the northern slipway for eighteen months, and I know " +
    "what that means for the small boat owners who launch there every morning.",
  "Money matters, so let me be plain about it. The breakwater costs nineteen million euros. The national fund pays two thirds, the " +
    "regional council pays a quarter, and the remainder comes from harbour dues, which will rise by six percent next spring and stay at " +
    "that level for ten years.",
  "Some of you have asked about the seals. The colony on the southern rocks has grown to almost two hundred animals, and the marine " +
    "biologists from the university have agreed to count them every month during construction. If the numbers fall, the pile driving " +
    "stops until an independent review says it may continue.",
  "The lifeboat crew deserves a paragraph of its own. Last year the volunteers launched fifty-one times, rescued ninety-three people, " +
    "and lost nobody. Their station needs a new slipway winch, and the raffle at the end of this evening will pay for half of it if you " +
    "are generous with your tickets.",
  "I am often asked whether tourism will replace fishing. I don't think it should. A harbour full of pleasure craft is pretty in " +
    "August and empty in February. The town needs working boats, working sheds and working people all year, and the visitors come " +
    "precisely because they want to see a place that still works.",
  "To the young people here: learn to weld, learn to read a wiring diagram, and learn to listen to an engine before you open it. The " +
    "tools will change faster than you expect, and the electric outboards arriving next year will need people who understand batteries " +
    "as well as they understand propellers.",
  "Finally, a word of thanks to my wife Agnes, who has tolerated forty years of oil on the kitchen table and a telephone that rang at " +
    "three in the morning whenever a trawler lost power off the point. Without her patience none of the work I have described tonight " +
    "would have been possible.",
  "Let us raise a glass to the harbour, to the people who keep it working, and to the next forty years. Good night, and drive " +
    "carefully on the coast road; the fog is coming in early tonight.",
].join("\n\n");
