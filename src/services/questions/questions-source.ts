import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { BenchmarkError } from "../../errors.js";
import { loadQuestionsFile, validateQuestions, type QuestionInput } from "../../evaluators/questions.js";
import { loadQuestionsOrigin, type QuestionsOrigin } from "../../evaluators/question-set.js";

/**
 * Resolves a `questions_file` of an API request inside the configured questions directory.
 * Anything that leaves it (`..`, an absolute path elsewhere, a symbolic link pointing out) is
 * refused before the file is opened; real paths are compared, so links cannot sneak out.
 */
export function resolveQuestionsPath(questionsDir: string, requested: string): string {
  if (!requested || requested.includes("\0")) throw new BenchmarkError("questions_file is empty or invalid");
  let root: string;
  try {
    root = realpathSync.native(questionsDir);
  } catch {
    // The default, ./questions, is relative to where the server was started.
    throw new BenchmarkError(`the questions directory does not exist: ${questionsDir} (set questions_dir, or send the questions inline)`);
  }
  const candidate = resolve(root, requested);
  const outside = (p: string) => {
    const rel = relative(root, p);
    return rel === "" || rel.startsWith(".." + sep) || rel === ".." || isAbsolute(rel);
  };
  if (outside(candidate)) throw new BenchmarkError(`questions_file must be inside the questions directory: ${requested}`);
  let real: string;
  try {
    real = realpathSync.native(candidate);
  } catch {
    throw new BenchmarkError(`questions_file not found in the questions directory: ${requested}`);
  }
  if (outside(real)) throw new BenchmarkError(`questions_file must be inside the questions directory: ${requested}`);
  return real;
}

/**
 * Questions of an API request: a file in the questions directory, or an inline list; with the
 * generator the file records (an inline list records none), for the verdict's basis.
 */
export async function questionsFromRequest(
  questionsDir: string,
  body: { questionsFile?: string; questions?: unknown },
): Promise<{ questions: QuestionInput[]; source: string; origin: QuestionsOrigin | null }> {
  if (body.questions !== undefined && body.questionsFile !== undefined) throw new BenchmarkError("give questions_file or questions, not both");
  if (body.questions !== undefined) {
    return { questions: validateQuestions("questions", body.questions), source: "inline questions", origin: null };
  }
  if (body.questionsFile === undefined) throw new BenchmarkError("questions_file (or inline questions) is required");
  const path = resolveQuestionsPath(questionsDir, body.questionsFile);
  return { questions: await loadQuestionsFile(path), source: body.questionsFile, origin: await loadQuestionsOrigin(path) };
}
