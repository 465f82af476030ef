import { useQuery } from '@tanstack/react-query';
import { modelsQuery } from '../models/queries';

export interface ModelChoices {
  models: readonly string[];
  loading: boolean;
}

/**
 * The models a test user can be given: the active models of Model Management (the list holds the
 * visible ones), the only ones POST /api/simulator/test-user accepts. Loaded only once `wanted`
 * (the select was opened), so a page visit alone asks nothing of it.
 */
export function useModelChoices(wanted: boolean): ModelChoices {
  const { data, isPending } = useQuery({ ...modelsQuery, enabled: wanted });
  return {
    models: (data ?? []).filter((m) => m.isActive && m.isVisible).map((m) => m.name),
    loading: wanted && isPending,
  };
}
