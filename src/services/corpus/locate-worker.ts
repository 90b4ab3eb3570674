import { parentPort } from "node:worker_threads";
import { serveTasks } from "../../worker-threads.js";
import { resolveQuestions, type CorpusDocument, type QuestionInput } from "../../evaluators/questions.js";
import { eachImport, locateImportedChunks, type ChunksImport } from "../../strategies/imported-chunks.js";

/**
 * A locating worker thread: {source, questions, chunks, documents} -> the questions resolved and,
 * per import, how its chunks were placed (every one placed, or the error).
 */
serveTasks(parentPort!, async (message: { source: string; questions: QuestionInput[]; chunks: ChunksImport[]; documents: CorpusDocument[] }) => {
  const questions = resolveQuestions(message.source, message.questions, message.documents);
  // Every import is placed, so that one run names each one with a problem.
  const placed = await eachImport(message.chunks, (imp) => [imp.name, locateImportedChunks(imp, message.documents)] as const);
  const chunksLocated = Object.fromEntries(placed.map(([name, p]) => [name, p.located]));
  const chunksApproximate = Object.fromEntries(placed.flatMap(([name, p]) => (p.approximate.length > 0 ? [[name, p.approximate]] : [])));
  return { result: { questions, chunksLocated, chunksApproximate } };
});
