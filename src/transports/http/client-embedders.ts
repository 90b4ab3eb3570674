import { ValidationError } from "../../errors.js";
import { embeddersNamedIn } from "../../domain/variant-key.js";

/** The bundled offline embedders: naming them costs nothing and loads nothing from outside the package. */
const BUNDLED_EMBEDDERS = ["use", "hash"];

/**
 * Refuses a request naming an embedder the server was not configured with (`embedders`, a
 * variant's `@embedder=`, a sweep's `embedder=`), other than the bundled offline ones: any other
 * would spend the operator's provider key on a model they did not choose, or load a model from
 * disk, at a client's word. The CLI, run by the operator, names any embedder.
 */
export function refuseClientEmbedders(configured: string, request: { variants?: string[] | string; sweeps?: string[]; embedders?: string[] }): void {
  const variants = request.variants === undefined ? [] : Array.isArray(request.variants) ? request.variants : [request.variants];
  const named = [...(request.embedders ?? []), ...embeddersNamedIn(variants, request.sweeps ?? [])];
  const allowed = new Set([configured, ...BUNDLED_EMBEDDERS]);
  const refused = named.find((e) => !allowed.has(e.trim()));
  if (refused !== undefined) {
    throw new ValidationError(
      `embedder "${refused}" cannot be named over HTTP: a request may use the server's embedder (${configured}) ` +
        `or the bundled ones (${BUNDLED_EMBEDDERS.join(", ")}); ` +
        "configure another embedder on the server, or run the benchmark with the CLI",
    );
  }
}
