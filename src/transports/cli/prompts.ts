import { ValidationError } from "../../errors.js";
import { cliIo } from "./io.js";

/**
 * Returns a required argument, asking for it when it is missing and stdin is a terminal;
 * without a terminal a missing argument is a usage error (exit 2).
 */
export async function requireArgument(value: string | undefined, name: string, message: string): Promise<string> {
  if (value !== undefined && value !== "") return value;
  if (!cliIo().stdinIsTTY) throw new ValidationError(`missing required argument <${name}>`);
  const { input } = await import("@inquirer/prompts");
  const answer = await input({ message, required: true });
  return answer.trim();
}

/** Asks a yes/no question in the terminal (callers make sure stdin is one); default no. */
export async function confirm(message: string): Promise<boolean> {
  const { confirm: ask } = await import("@inquirer/prompts");
  return ask({ message, default: false });
}
