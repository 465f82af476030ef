import twilio from 'twilio';
import { analyzeSms } from './segments';
import { parseDeliveryStatus, type SmsDeliveryStatus } from './delivery-status';

export interface SmsSendRequest {
  to: string;
  from: string;
  body: string;
  mediaUrls?: string[];
  /** Where the provider posts delivery status updates. */
  statusCallbackUrl?: string;
}

export interface SmsSendResult {
  providerSid: string;
  status: SmsDeliveryStatus;
  segments: number;
}

export interface SmsStatusResult {
  status: SmsDeliveryStatus;
  errorCode: number | null;
  errorMessage: string | null;
}

/** A message sent earlier whose answer was lost: what to look for among the provider's messages. */
export interface SmsSentQuery {
  to: string;
  from: string;
  body: string;
  /** The earliest time the provider can have accepted it (the attempt's start, less clock skew). */
  since: Date;
}

/** The SMS port: what sms-gateway needs from a provider. */
export interface SmsProvider {
  send(request: SmsSendRequest): Promise<SmsSendResult>;
  fetchStatus(providerSid: string): Promise<SmsStatusResult>;
  /**
   * The message the provider accepted for this recipient, sender and body since `since` (the
   * earliest, if several), or null: how a retry learns that an attempt whose answer never arrived
   * did go out.
   */
  findSent(query: SmsSentQuery): Promise<SmsSendResult | null>;
}

/** Twilio may rewrite punctuation (Smart Encoding) and whitespace: compare letters and digits only. */
const comparableBody = (body: string): string => body.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '');

/** How many of the recipient's newest messages from us a lookup reads. */
const FIND_SENT_LIMIT = 50;

export type SmsSendErrorKind = 'rate_limit' | 'server' | 'timeout' | 'network' | 'rejected';

/**
 * A failed provider call. `retryable` is true for 429, 5xx, timeouts and network errors (try again
 * later); false for permanent rejections such as 21211 (invalid number) or 21610 (unsubscribed).
 */
export class SmsSendError extends Error {
  override readonly name = 'SmsSendError';
  readonly retryable: boolean;
  readonly kind: SmsSendErrorKind;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status: number | undefined;
  /** Provider error code (Twilio's numeric code, e.g. 21610). */
  readonly code: number | undefined;

  constructor(init: {
    message: string;
    kind: SmsSendErrorKind;
    status?: number;
    code?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.kind !== 'rejected';
    this.status = init.status;
    this.code = init.code;
  }
}

export interface TwilioSmsProviderOptions {
  accountSid: string;
  authToken: string;
  /** Another Twilio API origin, e.g. the fake Twilio server (http://127.0.0.1:3010). */
  apiBaseUrl?: string;
  /** Per request timeout; default 10 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_NETWORK',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
const TIMEOUT_ERROR_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/**
 * twilio-node builds absolute https://api.twilio.com URLs; the supported way to reach another
 * host is a custom http client (the `httpClient` client option), which here rewrites the origin.
 */
class BaseUrlRequestClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(baseUrl: string, options: ConstructorParameters<typeof twilio.RequestClient>[0]) {
    super(options);
    this.base = new URL(baseUrl);
  }

  override request<TData>(
    opts: Parameters<typeof twilio.RequestClient.prototype.request<TData>>[0],
  ): ReturnType<typeof twilio.RequestClient.prototype.request<TData>> {
    const target = new URL(opts.uri);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    const uri = `${this.base.origin}${prefix}${target.pathname}${target.search}`;
    return super.request<TData>({ ...opts, uri });
  }
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** A message Twilio knows: queued until it says more; segments counted from `body` when it does not say. */
function sendResultOf(
  message: { sid: string; status: string; numSegments: string },
  body: string,
): SmsSendResult {
  return {
    providerSid: message.sid,
    status: parseDeliveryStatus(message.status) ?? 'queued',
    segments: toNumber(message.numSegments) ?? analyzeSms(body).segments,
  };
}

function errorText(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}

/** Maps anything the twilio SDK throws into an SmsSendError. */
export function toSmsSendError(error: unknown): SmsSendError {
  if (error instanceof SmsSendError) return error;
  if (error instanceof twilio.RestException) {
    const status = error.status;
    const code = toNumber(error.code);
    const message = error.message || `Twilio answered HTTP ${status}`;
    const kind: SmsSendErrorKind =
      status === 429 ? 'rate_limit' : status >= 500 ? 'server' : status === 408 ? 'timeout' : 'rejected';
    return new SmsSendError({ message, kind, status, ...(code === undefined ? {} : { code }), cause: error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TIMEOUT_ERROR_CODES.has(code)) {
    return new SmsSendError({
      message: `Twilio request timed out: ${errorText(error)}`,
      kind: 'timeout',
      cause: error,
    });
  }
  if (
    (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) ||
    (error as { isAxiosError?: unknown } | null)?.isAxiosError === true
  ) {
    return new SmsSendError({
      message: `Twilio unreachable: ${errorText(error)}`,
      kind: 'network',
      cause: error,
    });
  }
  return new SmsSendError({ message: errorText(error), kind: 'rejected', cause: error });
}

/** The Twilio account as its API describes it (a health check's lightest authenticated call). */
export interface TwilioAccountInfo {
  sid: string;
  friendlyName: string;
  /** active, suspended or closed. */
  status: string;
}

export class TwilioSmsProvider implements SmsProvider {
  private readonly client: twilio.Twilio;
  private readonly accountSid: string;

  constructor(options: TwilioSmsProviderOptions) {
    this.accountSid = options.accountSid;
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const httpClient = options.apiBaseUrl
      ? new BaseUrlRequestClient(options.apiBaseUrl, { timeout })
      : new twilio.RequestClient({ timeout });
    // Retries belong to the queue (exponential backoff per job), not to the SDK.
    this.client = twilio(options.accountSid, options.authToken, { httpClient, autoRetry: false });
  }

  async send(request: SmsSendRequest): Promise<SmsSendResult> {
    const mediaUrls = request.mediaUrls?.filter((url) => url.length > 0) ?? [];
    try {
      const message = await this.client.messages.create({
        to: request.to,
        from: request.from,
        body: request.body,
        ...(mediaUrls.length > 0 ? { mediaUrl: mediaUrls } : {}),
        ...(request.statusCallbackUrl ? { statusCallback: request.statusCallbackUrl } : {}),
      });
      return sendResultOf(message, request.body);
    } catch (error) {
      throw toSmsSendError(error);
    }
  }

  async findSent(query: SmsSentQuery): Promise<SmsSendResult | null> {
    // No DateSent filter: a message still queued at Twilio has no date sent and would be missed.
    // The list is newest first; the recipient's recent messages from one sender are few.
    try {
      const recent = await this.client.messages.list({
        to: query.to,
        from: query.from,
        limit: FIND_SENT_LIMIT,
        pageSize: FIND_SENT_LIMIT,
      });
      const wanted = comparableBody(query.body);
      const match = recent
        .filter((m) => m.dateCreated >= query.since && comparableBody(m.body ?? '') === wanted)
        .sort((a, b) => a.dateCreated.getTime() - b.dateCreated.getTime())[0];
      if (match === undefined) return null;
      return sendResultOf(match, query.body);
    } catch (error) {
      throw toSmsSendError(error);
    }
  }

  /** GET /2010-04-01/Accounts/{sid}.json: proves the credentials and the API without sending anything. */
  async fetchAccount(): Promise<TwilioAccountInfo> {
    try {
      const account = await this.client.api.v2010.accounts(this.accountSid).fetch();
      return { sid: account.sid, friendlyName: account.friendlyName, status: account.status };
    } catch (error) {
      throw toSmsSendError(error);
    }
  }

  async fetchStatus(providerSid: string): Promise<SmsStatusResult> {
    try {
      const message = await this.client.messages(providerSid).fetch();
      return {
        status: parseDeliveryStatus(message.status) ?? 'queued',
        errorCode: message.errorCode ?? null,
        errorMessage: message.errorMessage ?? null,
      };
    } catch (error) {
      throw toSmsSendError(error);
    }
  }
}
