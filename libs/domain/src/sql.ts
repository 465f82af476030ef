/** `"column" IN ('a', 'b')`: the CHECK expression for a varchar holding one of a fixed set of values. */
export function inList(column: string, values: readonly string[]): string {
  return `"${column}" IN (${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;
}

/** A timestamptz as JSON the way Date.toISOString() writes it (UTC, milliseconds). */
export const isoJson = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * JSON text Postgres built in the shape of T, answered as is: the type names the shape the text
 * must have (the API tests check it), without parsing and re-serialising it.
 */
export type JsonText<T> = string & { readonly __jsonOf?: T };
