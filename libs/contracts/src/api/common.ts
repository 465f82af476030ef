// Shared shapes of the HTTP API. Dates travel as ISO 8601 strings; money as dollars (number).

export type IsoDateTime = string;

export const SENTIMENT_VALUES = ['positive', 'negative', 'frustrated', 'neutral'] as const;
export type SentimentLabel = (typeof SENTIMENT_VALUES)[number];

export const MESSAGE_DIRECTION_VALUES = ['inbound', 'outbound'] as const;
export type MessageDirectionValue = (typeof MESSAGE_DIRECTION_VALUES)[number];

/**
 * Message status as the admin screens show it (delivered, sent, received, failed,
 * undelivered, pending); other provider values may appear and show as "Status: {value}".
 */
export type MessageStatusValue =
  'delivered' | 'sent' | 'received' | 'failed' | 'undelivered' | 'pending' | (string & {});

/** Body of every non-2xx answer. `error` is what the admin UI shows ("server's error field"). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** `{ success: true }` answers of actions whose result the UI does not use. */
export interface ActionResponse {
  success: boolean;
  message?: string;
}
