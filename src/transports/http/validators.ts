import { Ajv, type Options, type ValidateFunction } from "ajv";
import type { FastifyInstance } from "fastify";

const common: Options = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false };
const coercing = new Ajv({ ...common, coerceTypes: "array" });
const exact = new Ajv({ ...common, coerceTypes: false });
/**
 * Compiled validators by their schema's text, shared by every app this process builds: compiling
 * the two surfaces' schemas is most of an app's start-up (about 3 s of CPU per app), and a process
 * that builds several apps (a restarted server, the tests) compiles each schema once. Bounded by
 * the routes' own schemas: no request adds to it.
 */
const compiled = new Map<string, ValidateFunction>();

/**
 * The request validators of both surfaces. Unknown keys fail (422) instead of being silently
 * dropped (SPEC §4 rule 5). Query strings, path parameters and headers arrive as text, so they
 * are coerced to their schema's types; a JSON body is not: `"display_name": 5` or `"top_k":
 * "5"` is a wrong type and a 422, where Fastify's default would quietly convert it.
 */
export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === "body" ? exact : coercing;
    const key = `${httpPart === "body" ? "exact" : "coercing"} ${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    return validate;
  });
}
