import { DEFAULTS } from "../../config/defaults.js";
import { ValidationError } from "../../errors.js";

/** Checks a top-k value: a whole number from 1 to the documented maximum. */
export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > DEFAULTS.maxTopK) {
    throw new ValidationError(`top_k must be a whole number from 1 to ${DEFAULTS.maxTopK}, got ${topK}`);
  }
  return topK;
}
