import { ValidationError } from "./errors.js";

/** A plain name -> definition map (ARCHITECTURE convention 1). */
export class Registry<T extends { name: string; description: string }> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly kind: string,
    definitions: T[] = [],
  ) {
    for (const d of definitions) this.register(d);
  }

  register(definition: T): void {
    if (this.entries.has(definition.name)) throw new Error(`${this.kind} "${definition.name}" is registered twice`);
    this.entries.set(definition.name, definition);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  get(name: string): T {
    const found = this.entries.get(name);
    if (!found) throw new ValidationError(`unknown ${this.kind} "${name}" (valid: ${this.names().join(", ")})`);
    return found;
  }

  describe(): Array<{ name: string; description: string }> {
    return [...this.entries.values()].map((d) => ({ name: d.name, description: d.description }));
  }
}

/** Splits a provider spec such as `openai:text-embedding-3-small` into name and argument. */
export function splitSpec(spec: string): { name: string; argument: string } {
  const colon = spec.indexOf(":");
  return colon === -1 ? { name: spec, argument: "" } : { name: spec.slice(0, colon), argument: spec.slice(colon + 1) };
}
