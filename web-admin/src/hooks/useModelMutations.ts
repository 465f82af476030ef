import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type UpdateModelBody,
  createModel,
  removeModel,
  setFallbackModel,
  setLiveModel,
  setSpendingLimit,
  updateModel,
} from '../api/models';
import { QueryKeys } from '../query-keys';

/** After any change the list of models is read again (spec 001 §7), and the usage and limit. */
function useRefreshModels() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: QueryKeys.allModels }),
      queryClient.invalidateQueries({ queryKey: QueryKeys.allModelStats }),
    ]);
  };
}

export function useCreateModel() {
  const refresh = useRefreshModels();
  return useMutation({ mutationFn: createModel, onSuccess: refresh });
}

interface ModelChanges {
  id: string;
  changes: UpdateModelBody;
}

/** Saves the changed fields of one model. */
export function useUpdateModel() {
  const refresh = useRefreshModels();
  return useMutation({
    mutationFn: ({ id, changes }: ModelChanges) => updateModel(id, changes),
    onSuccess: refresh,
  });
}

/**
 * Save Changes: every model's changed fields, one request each. Answers the ids that failed with
 * their errors; the list is read again either way.
 */
export function useSaveAllModels() {
  const refresh = useRefreshModels();
  return useMutation({
    mutationFn: async (all: ModelChanges[]) => {
      const results = await Promise.allSettled(all.map(({ id, changes }) => updateModel(id, changes)));
      return all.flatMap(({ id }, i) => {
        const result = results[i];
        return result?.status === 'rejected' ? [{ id, error: result.reason as unknown }] : [];
      });
    },
    onSettled: refresh,
  });
}

export function useSetLiveModel() {
  const refresh = useRefreshModels();
  return useMutation({ mutationFn: setLiveModel, onSuccess: refresh });
}

export function useSetFallbackModel() {
  const refresh = useRefreshModels();
  return useMutation({ mutationFn: setFallbackModel, onSuccess: refresh });
}

export function useRemoveModel() {
  const refresh = useRefreshModels();
  return useMutation({ mutationFn: removeModel, onSuccess: refresh });
}

export function useSetSpendingLimit() {
  const refresh = useRefreshModels();
  return useMutation({ mutationFn: setSpendingLimit, onSuccess: refresh });
}
