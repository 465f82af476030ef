import { useQuery } from '@tanstack/react-query';
import { getModels } from '../../api/simulator';
import { QueryKeys } from '../../query-keys';
import { COMMON_OPENAI_MODELS } from './texts';

export interface ModelChoices {
  models: readonly string[];
  loading: boolean;
}

/**
 * The models a test user can be given: the active, visible models of Model Management, or a
 * fixed list of common OpenAI models when there are none (or the list cannot be read). Loaded
 * only once `wanted` (the select was opened), so a page visit alone asks nothing of it.
 */
export function useModelChoices(wanted: boolean): ModelChoices {
  const { data, isPending } = useQuery({
    queryKey: QueryKeys.allModels,
    queryFn: getModels,
    enabled: wanted,
  });
  const configured = (data ?? []).filter((m) => m.isActive && m.isVisible).map((m) => m.name);
  return {
    models: configured.length > 0 ? configured : COMMON_OPENAI_MODELS,
    loading: wanted && isPending,
  };
}
