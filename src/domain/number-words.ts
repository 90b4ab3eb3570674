// Numbers as every output prints them (console, reports, summaries, gate lines): to a fixed number
// of places, a signed change with its sign, and never "-0.00": a figure that rounds to nothing has no sign.

/** `v` to `digits` places; a value that rounds to zero reads 0.00, not -0.00. */
export function fixed(v: number, digits = 2): string {
  const text = v.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** A change with its sign: "+0.25", "-1.10", and "+0.00" for one that rounds to nothing. */
export function signedFixed(v: number, digits = 2): string {
  const text = fixed(v, digits);
  return text.startsWith("-") ? text : `+${text}`;
}

/** A whole number as it is, any other to `digits` places (seconds, counts and rates in the terminal). */
export function formatNumber(n: number, digits = 3): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}
