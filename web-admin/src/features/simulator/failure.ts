import { ApiError, serverMessage } from '@sprout/ui';

/**
 * The text of a failed simulator action: '{prefix}: {the server's reason or the status text}' for
 * an answer from the server, else `fallback` (the request never got an answer).
 */
export function failureDescription(error: unknown, text: { prefix: string; fallback: string }): string {
  if (!(error instanceof ApiError)) return text.fallback;
  const statusText = error.message.replace(/^\d{3}: /, '');
  return `${text.prefix}: ${serverMessage(error, statusText)}`;
}
