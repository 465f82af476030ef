import { ApiError, apiJson } from '@sprout/ui';
import type {
  ProcessingResult,
  ProcessMessageRequest,
  ValidateMessageRequest,
  ValidateMessageResponse,
} from '@sprout/contracts';

// The message testers' calls. The location test's call is shared with the public site (@sprout/ui).

/** The spec's thrown texts (spec 001 §8). */
export const VALIDATE_MESSAGE_FAILED = 'Failed to validate message';
export const PROCESS_MESSAGE_FAILED = 'Failed to process message';

/** POSTs `body`; any failure raises `failureMessage`, an ApiError keeping the status and the server's body. */
async function postWithFailureMessage<T>(url: string, body: unknown, failureMessage: string): Promise<T> {
  try {
    return await apiJson<T>('POST', url, body);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.status, '', error.bodyText, failureMessage);
    throw new Error(failureMessage, { cause: error });
  }
}

export function validateMessage(body: ValidateMessageRequest): Promise<ValidateMessageResponse> {
  return postWithFailureMessage<ValidateMessageResponse>(
    '/api/validate-message',
    body,
    VALIDATE_MESSAGE_FAILED,
  );
}

export function processMessage(body: ProcessMessageRequest): Promise<ProcessingResult> {
  return postWithFailureMessage<ProcessingResult>('/api/process-message', body, PROCESS_MESSAGE_FAILED);
}
