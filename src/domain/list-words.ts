/** Names as a sentence lists them: "a", "a and b", "a, b and c". */
export const listWords = (names: string[]) => (names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);
