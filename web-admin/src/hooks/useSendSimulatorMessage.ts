import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendSimulatorMessage } from '../api/simulator';
import { QueryKeys } from '../query-keys';

/**
 * Sends a test user's message and waits for the reply. The conversation reloads afterwards, also
 * after a failure: the server keeps the message even when the reply is late.
 */
export function useSendSimulatorMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSimulatorMessage,
    onSettled: async (_answer, _error, input) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: QueryKeys.simulatorConversation(input.userId) }),
        queryClient.invalidateQueries({ queryKey: QueryKeys.testUsers }),
      ]);
    },
  });
}
