import type { ModelDto } from '@sprout/contracts';

// The model table's sortable columns: the first click sorts ascending, the next
// toggles. Unsorted, the server's order stands: live, fallback, then by name.

export type ModelSortKey = 'name' | 'inputPricePerMillion' | 'outputPricePerMillion' | 'maxTokens';

export interface ModelSort {
  key: ModelSortKey;
  direction: 'asc' | 'desc';
}

export function nextModelSort(current: ModelSort | null, key: ModelSortKey): ModelSort {
  if (current?.key !== key) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function sortModels(models: readonly ModelDto[], sort: ModelSort | null): ModelDto[] {
  if (sort === null) return [...models];
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...models].sort((a, b) => {
    const order = sort.key === 'name' ? collator.compare(a.name, b.name) : a[sort.key] - b[sort.key];
    return sign * order || collator.compare(a.name, b.name);
  });
}
