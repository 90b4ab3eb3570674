/** Question sets as the transports read and write them: a questions file, and a file written whole. Light: no text analysis. */
export { loadQuestionsFile } from "../evaluators/questions.js";
export { writeFileWhole } from "../services/file-write.js";
