import type { Edge } from '../src/edge';

/** Waits until `probe` holds, polling; fails naming `what` after a minute. */
export async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The value of one of the edge's metrics (with these labels). */
export async function edgeMetric(
  edge: Edge,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = await edge.metrics.getSingleMetric(name)?.get();
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return value?.value ?? 0;
}
