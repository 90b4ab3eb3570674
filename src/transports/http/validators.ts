import { Ajv, type Options } from "ajv";
import type { FastifyInstance } from "fastify";

/**
 * The request validators of both surfaces. Unknown keys fail (422) instead of being silently
 * dropped (SPEC §4 rule 5). Query strings, path parameters and headers arrive as text, so they
 * are coerced to their schema's types; a JSON body is not: `"display_name": 5` or `"top_k":
 * "5"` is a wrong type and a 422, where Fastify's default would quietly convert it.
 */
export function installValidators(app: FastifyInstance): void {
  const common: Options = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false };
  const coercing = new Ajv({ ...common, coerceTypes: "array" });
  const exact = new Ajv({ ...common, coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === "body" ? exact : coercing).compile(schema));
}
