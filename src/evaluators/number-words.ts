/**
 * Numbers written as words ("twenty", "twenty-five", "three hundred and ten"), read as values,
 * so that "twenty percent" is checked against "two percent" like "20 %" against "2 %". A lone
 * "one" is left alone: it is more often a pronoun ("one of the members") than a quantity.
 */
const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALE: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000 };

const isSmall = (word: string) => word.split("-").every((part) => part in SMALL);
const smallValue = (word: string) => word.split("-").reduce((n, part) => n + SMALL[part]!, 0);

/** The number the words starting at `i` spell, and how many words it takes; null when none does. */
export function readNumberWords(words: string[], i: number): { value: number; used: number } | null {
  let total = 0;
  let current = 0;
  let used = 0;
  for (let k = i; k < words.length; k++) {
    const word = words[k]!.toLowerCase();
    if (isSmall(word)) current += smallValue(word);
    else if (word in SCALE && used > 0) {
      current = (current || 1) * SCALE[word]!;
      if (SCALE[word]! >= 1000) [total, current] = [total + current, 0];
    } else if (word === "and" && used > 0 && k + 1 < words.length && isSmall(words[k + 1]!.toLowerCase())) continue;
    else break;
    used = k - i + 1;
  }
  if (used === 0 || (used === 1 && words[i]!.toLowerCase() === "one")) return null;
  return { value: total + current, used };
}
