/** A percent figure with at most one decimal, without the sign: 42.5 -> '42.5'. */
export function formatPercent(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(
    Number.isFinite(value) ? value : 0,
  );
}
