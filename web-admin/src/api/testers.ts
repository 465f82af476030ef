import { type EndpointRequest, api } from '@sprout/contracts';
import { ApiError, callEndpoint } from '@sprout/ui';

// The message testers' calls. The location test's call is shared with the public site (@sprout/ui).

/** The spec's thrown texts (spec 001 §8). */
export const VALIDATE_MESSAGE_FAILED = 'Failed to validate message';
export const PROCESS_MESSAGE_FAILED = 'Failed to process message';

type ValidateMessageBody = EndpointRequest<typeof api.testers.validate>['body'];
type ProcessMessageBody = EndpointRequest<typeof api.testers.process>['body'];

/**
 * Any failure raises `failureMessage`: an error answer as an ApiError keeping the status and the
 * server's body, no answer at all (or an unreadable one) as an Error whose cause says why.
 */
async function failingWith<T>(failureMessage: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(failureMessage, { cause: error });
  }
}

export function validateMessage(body: ValidateMessageBody) {
  return failingWith(VALIDATE_MESSAGE_FAILED, () =>
    callEndpoint(api.testers.validate, { body }, { failureMessage: VALIDATE_MESSAGE_FAILED }),
  );
}

export function processMessage(body: ProcessMessageBody) {
  return failingWith(PROCESS_MESSAGE_FAILED, () =>
    callEndpoint(api.testers.process, { body }, { failureMessage: PROCESS_MESSAGE_FAILED }),
  );
}
