/**
 * Question sets with their text analysis loaded (stemming, term statistics): where a set came
 * from, for the checks that read its wording, and a request's questions (a list, or a file named
 * by path). A CLI command imports it when it runs, so `--help` stays light.
 */
export { loadQuestionsOrigin } from "../evaluators/question-set.js";
export { questionsFromRequest } from "../services/questions/questions-source.js";
