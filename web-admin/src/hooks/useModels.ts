import { useQuery } from '@tanstack/react-query';
import { getModelStats, getModels, getOpenAiModels } from '../api/models';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

/** The visible models of Model Management. */
export function useModels() {
  return useQuery({ queryKey: QueryKeys.allModels, queryFn: getModels });
}

/** Usage per model (real or test users', as Test Data Mode says), today's spend and the limit. */
export function useModelStats() {
  const { showTestData } = useTestDataMode();
  return useQuery({
    queryKey: QueryKeys.modelStats(showTestData),
    queryFn: () => getModelStats(showTestData),
  });
}

/** The provider's model names, loaded only once `wanted` (the name field gained focus). */
export function useOpenAiModels(wanted: boolean) {
  return useQuery({ queryKey: QueryKeys.openAiModels, queryFn: getOpenAiModels, enabled: wanted });
}
