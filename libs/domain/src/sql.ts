/** `"column" IN ('a', 'b')`: the CHECK expression for a varchar holding one of a fixed set of values. */
export function inList(column: string, values: readonly string[]): string {
  return `"${column}" IN (${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;
}
