/** A string as a LanceDB SQL literal (single quotes doubled); every filter value goes through it. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Words of a free-text query as a full-text query (the index tokenizes and lower-cases on its own). */
export function fullTextQuery(text: string): string {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
}
