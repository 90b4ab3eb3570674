import { SaxesParser } from "saxes";

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/**
 * Parses XML with saxes, a conformant, non-validating XML 1.0 parser (already installed with
 * word-extractor): anything not well-formed (an unescaped `<` or `&`, a bad attribute, a
 * stray end tag) throws. Returns the root element.
 */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: "" };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on("text", (text) => {
    if (stack.length > 0) stack[stack.length - 1]!.text += text;
  });
  parser.on("closetag", () => void stack.pop());
  parser.write(xml).close();
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element of a name under an element, depth first. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}
