// A fake Twilio REST API (Messages resource) on node:http, for the real twilio SDK to talk to.
// It walks each accepted message through queued -> sent -> delivered (or a configured failure),
// posting status callbacks signed exactly as Twilio signs them, and can post signed inbound
// webhooks. Used in-process by tests and as a standalone sandbox (fake-twilio.main.ts).
import http from 'node:http';
import twilio from 'twilio';
import { Waiters, closeServer, listen, randomHex, readBody, sendJson } from './http-util';

export type FakeTwilioStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed';

/** How a message ends. 'sent' means no delivery receipt ever arrives. */
export type FakeTwilioOutcome =
  | { status: 'delivered' }
  | { status: 'sent' }
  | { status: 'undelivered'; errorCode?: number; errorMessage?: string }
  | { status: 'failed'; errorCode?: number; errorMessage?: string };

export interface FakeTwilioOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  accountSid?: string;
  authToken?: string;
  /** Delay before each status step; default 25 ms. */
  callbackDelayMs?: number;
  /** Statuses still advance (GET shows them) but no callback is posted. */
  disableCallbacks?: boolean;
  /** Post the final status first and a late "sent" after it. */
  sendOutOfOrder?: boolean;
}

export interface FakeTwilioMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  mediaUrls: string[];
  statusCallback: string | null;
  status: FakeTwilioStatus;
  errorCode: number | null;
  errorMessage: string | null;
  numSegments: number;
  dateCreated: Date;
  dateUpdated: Date;
  /** When the message left the queue (first status after queued); null while queued. */
  dateSent: Date | null;
}

export interface FakeTwilioCallback {
  url: string;
  params: Record<string, string>;
  signature: string;
  /** HTTP status the callback target answered, null when the request itself failed. */
  responseStatus: number | null;
  error: string | null;
}

export interface FakeTwilioFailure {
  status: number;
  /** Twilio error code; defaults by status (429 -> 20429, 5xx -> 20500, 400 -> 21211, 401 -> 20003). */
  code?: number;
  message?: string;
  /** How many API requests fail; default 1. */
  times?: number;
}

export type FakeTwilioInboundParams = {
  From: string;
  To: string;
  Body?: string;
  MessageSid?: string;
  NumMedia?: string | number;
} & Record<string, string | number | undefined>;

export interface FakeTwilioInboundOptions {
  /** Send this signature instead of a correct one (to test rejection). */
  signature?: string;
  /** Sign with another token (to test rejection). */
  authToken?: string;
}

export interface FakeTwilioInboundResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** The parameters that were posted (with the generated MessageSid etc.). */
  params: Record<string, string>;
}

export const FAKE_TWILIO_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  20003: 'Authenticate',
  20404: 'The requested resource was not found',
  20429: 'Too Many Requests',
  20500: 'Internal Server Error',
  20503: 'Service Unavailable',
  21211: "Invalid 'To' Phone Number",
  21602: 'Message body is required.',
  21603: "A 'From' phone number is required.",
  21604: "A 'To' phone number is required.",
  21609: 'Invalid StatusCallback url',
  21610: 'Attempt to send to unsubscribed recipient',
  21617: 'The concatenated message body exceeds the 1600 character limit.',
  30003: 'Unreachable destination handset',
  30005: 'Unknown destination handset',
  30006: 'Landline or unreachable carrier',
  30007: 'Message filtered',
  30008: 'Unknown error',
};

const API_VERSION = '2010-04-01';
const DEFAULT_ACCOUNT_SID = `AC${'0'.repeat(32)}`;
const DEFAULT_AUTH_TOKEN = 'fake-twilio-auth-token';
const E164 = /^\+[1-9]\d{7,14}$/;

/** The signature Twilio would put in X-Twilio-Signature for this URL and form parameters. */
export function signTwilioWebhook(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}

// Twilio counts segments itself; this is the fake's own count (GSM-7 or UCS-2, 160/153 or 70/67).
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENDED = new Set('\f^{}\\[~]|€');
function countSegments(body: string): number {
  let septets = 0;
  for (const char of body) {
    if (GSM_BASIC.has(char)) septets += 1;
    else if (GSM_EXTENDED.has(char)) septets += 2;
    else return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
  }
  return septets <= 160 ? 1 : Math.ceil(septets / 153);
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

function defaultCode(status: number): number {
  if (status === 429) return 20429;
  if (status === 401) return 20003;
  if (status === 404) return 20404;
  if (status === 503) return 20503;
  if (status >= 500) return 20500;
  return 21211;
}

export class FakeTwilio {
  readonly accountSid: string;
  readonly authToken: string;
  /** Every message the API accepted, oldest first. */
  readonly sent: FakeTwilioMessage[] = [];
  /** Every status callback posted, oldest first. */
  readonly callbacks: FakeTwilioCallback[] = [];
  callbackDelayMs: number;
  disableCallbacks: boolean;
  sendOutOfOrder: boolean;

  private url_ = '';
  private readonly server: http.Server;
  private readonly failures: FakeTwilioFailure[] = [];
  /** While set, every API request fails this way (an outage). */
  private outage: FakeTwilioFailure | null = null;
  /** Accepted messages whose answer is never written: the connection is dropped after recording. */
  private dropsAfterAccept = 0;
  /** Accepted messages whose answer is held this long (ms) after recording, oldest first. */
  private readonly holdsAfterAccept: number[] = [];
  private readonly delays: number[] = [];
  private readonly nextOutcomes: FakeTwilioOutcome[] = [];
  private readonly outcomesByRecipient = new Map<string, FakeTwilioOutcome>();
  private readonly optedOut = new Set<string>();
  private readonly waiters = new Waiters();
  private readonly closed = new AbortController();
  /** Aborted by reset() and close(): in-flight status walks of earlier messages stop. */
  private walkAbort = new AbortController();
  private readonly walks = new Set<Promise<void>>();

  private constructor(options: FakeTwilioOptions) {
    this.accountSid = options.accountSid ?? DEFAULT_ACCOUNT_SID;
    this.authToken = options.authToken ?? DEFAULT_AUTH_TOKEN;
    this.callbackDelayMs = options.callbackDelayMs ?? 25;
    this.disableCallbacks = options.disableCallbacks ?? false;
    this.sendOutOfOrder = options.sendOutOfOrder ?? false;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        sendJson(res, 500, { code: 20500, message: String(error), more_info: '', status: 500 });
      });
    });
  }

  static async start(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
    const fake = new FakeTwilio(options);
    fake.url_ = await listen(fake.server, options.port ?? 0, options.host ?? '127.0.0.1');
    return fake;
  }

  /** Origin of the fake API, e.g. http://127.0.0.1:3010 (use as TWILIO_API_BASE_URL). */
  get url(): string {
    return this.url_;
  }

  async close(): Promise<void> {
    this.closed.abort();
    this.walkAbort.abort();
    this.waiters.cancelAll('FakeTwilio closed');
    await Promise.allSettled([...this.walks]);
    await closeServer(this.server);
  }

  /** Fail the next API request(s) with a Twilio error answer. */
  failNext(failure: FakeTwilioFailure): void {
    this.failures.push({ ...failure, times: failure.times ?? 1 });
  }

  /** Every API request fails with this answer until setOutage(null) (Twilio down). */
  setOutage(failure: FakeTwilioFailure | null): void {
    this.outage = failure;
  }

  /**
   * The next `times` message creations are accepted and recorded, then the connection is dropped
   * without an answer: the client cannot tell whether Twilio took the message.
   */
  dropAfterAccept(times = 1): void {
    this.dropsAfterAccept += times;
  }

  /**
   * The next message creation is accepted and recorded at once, but its answer is held for `ms`
   * (the sender can be killed meanwhile: Twilio has the message, the sender has no sid).
   */
  holdAnswerAfterAccept(ms: number): void {
    this.holdsAfterAccept.push(ms);
  }

  /** Hold the next API request's answer for `ms` (longer than the client timeout makes it time out). */
  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  /** The next accepted message ends this way (queued in order; overrides per-recipient outcomes). */
  nextOutcome(outcome: FakeTwilioOutcome): void {
    this.nextOutcomes.push(outcome);
  }

  /** Every message to this number ends this way. */
  setOutcomeFor(to: string, outcome: FakeTwilioOutcome): void {
    this.outcomesByRecipient.set(to, outcome);
  }

  /** Sends to this number are rejected synchronously with 21610, as after a carrier-level STOP. */
  optOut(number: string): void {
    this.optedOut.add(number);
  }

  optIn(number: string): void {
    this.optedOut.delete(number);
  }

  getMessage(sid: string): FakeTwilioMessage | undefined {
    return this.sent.find((m) => m.sid === sid);
  }

  /** Forget messages, callbacks, injected failures and outcomes. */
  reset(): void {
    this.walkAbort.abort();
    this.walkAbort = new AbortController();
    this.sent.length = 0;
    this.callbacks.length = 0;
    this.failures.length = 0;
    this.outage = null;
    this.dropsAfterAccept = 0;
    this.holdsAfterAccept.length = 0;
    this.delays.length = 0;
    this.nextOutcomes.length = 0;
    this.outcomesByRecipient.clear();
    this.optedOut.clear();
  }

  /** Resolves with the accepted messages once there are at least n. */
  waitForMessages(n: number, timeoutMs = 5_000): Promise<FakeTwilioMessage[]> {
    return this.waiters.waitFor(
      () => (this.sent.length >= n ? [...this.sent] : undefined),
      timeoutMs,
      () => `waiting for ${n} message(s), have ${this.sent.length}`,
    );
  }

  /** Resolves with the posted callbacks once there are at least n. */
  waitForCallbacks(n: number, timeoutMs = 5_000): Promise<FakeTwilioCallback[]> {
    return this.waiters.waitFor(
      () => (this.callbacks.length >= n ? [...this.callbacks] : undefined),
      timeoutMs,
      () => `waiting for ${n} status callback(s), have ${this.callbacks.length}`,
    );
  }

  /** X-Twilio-Signature for a webhook request to `url` with these form parameters. */
  signWebhook(url: string, params: Record<string, string>): string {
    return signTwilioWebhook(this.authToken, url, params);
  }

  /** Posts an inbound SMS/MMS webhook to `webhookUrl` the way Twilio does, signed. */
  async sendInbound(
    webhookUrl: string,
    input: FakeTwilioInboundParams,
    options: FakeTwilioInboundOptions = {},
  ): Promise<FakeTwilioInboundResponse> {
    const sid = input.MessageSid ?? `SM${randomHex(16)}`;
    const given: Record<string, string> = {};
    for (const [key, value] of Object.entries(input)) {
      if (value !== undefined) given[key] = String(value);
    }
    const mediaCount = Object.keys(given).filter((key) => /^MediaUrl\d+$/.test(key)).length;
    const body = given.Body ?? '';
    const params: Record<string, string> = {
      ToCountry: 'US',
      FromCountry: 'US',
      SmsStatus: 'received',
      NumSegments: String(countSegments(body)),
      ApiVersion: API_VERSION,
      AccountSid: this.accountSid,
      SmsMessageSid: sid,
      SmsSid: sid,
      ...given,
      MessageSid: sid,
      Body: body,
      NumMedia: given.NumMedia ?? String(mediaCount),
    };
    const signature =
      options.signature ?? signTwilioWebhook(options.authToken ?? this.authToken, webhookUrl, params);
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': signature,
        'User-Agent': 'TwilioProxy/1.1',
        'I-Twilio-Idempotency-Token': randomHex(16),
      },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.any([this.closed.signal, AbortSignal.timeout(15_000)]),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { status: response.status, body: await response.text(), headers, params };
  }

  // ---- HTTP ----

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-twilio');
    const raw = await readBody(req);
    if (url.pathname.startsWith('/_fake/'))
      return this.handleControl(req.method ?? 'GET', url.pathname, raw, res);

    const delay = this.delays.shift();
    if (delay !== undefined) {
      await this.sleep(delay, this.closed.signal).catch(() => undefined);
      if (res.destroyed || this.closed.signal.aborted) return;
    }
    if (this.outage !== null) {
      const code = this.outage.code ?? defaultCode(this.outage.status);
      return this.error(res, this.outage.status, code, this.outage.message);
    }
    const failure = this.failures[0];
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) this.failures.shift();
      const code = failure.code ?? defaultCode(failure.status);
      return this.error(res, failure.status, code, failure.message);
    }

    const account = /^\/2010-04-01\/Accounts\/([^/]+)\.json$/.exec(url.pathname);
    if (account) return this.fetchAccount(req, res, account[1] ?? '');

    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages(?:\/([^/]+))?\.json$/.exec(url.pathname);
    if (!match) return this.error(res, 404, 20404);
    const [, accountSid, messageSid] = match;
    if (!this.authorized(req)) {
      return this.error(res, 401, 20003, undefined, { 'WWW-Authenticate': 'Basic realm="Twilio API"' });
    }
    if (accountSid !== this.accountSid) return this.error(res, 404, 20404);

    if (req.method === 'POST' && messageSid === undefined)
      return this.createMessage(new URLSearchParams(raw), res);
    if (req.method === 'GET' && messageSid === undefined) return this.listMessages(url, res);
    if (req.method === 'GET' && messageSid !== undefined) {
      const message = this.getMessage(messageSid);
      if (!message)
        return this.error(
          res,
          404,
          20404,
          `The requested resource /2010-04-01/Accounts/${accountSid}/Messages/${messageSid}.json was not found`,
        );
      return sendJson(res, 200, this.resource(message));
    }
    return this.error(res, 405, 20004, 'Method not allowed');
  }

  /** GET /2010-04-01/Accounts/{sid}.json: the account resource (health checks fetch it). */
  private fetchAccount(req: http.IncomingMessage, res: http.ServerResponse, accountSid: string): void {
    if (!this.authorized(req)) {
      return this.error(res, 401, 20003, undefined, { 'WWW-Authenticate': 'Basic realm="Twilio API"' });
    }
    if (accountSid !== this.accountSid) return this.error(res, 404, 20404);
    if (req.method !== 'GET') return this.error(res, 405, 20004, 'Method not allowed');
    const uri = `/${API_VERSION}/Accounts/${accountSid}.json`;
    const created = rfc2822(new Date(0));
    sendJson(res, 200, {
      sid: accountSid,
      owner_account_sid: accountSid,
      friendly_name: 'Fake Twilio account',
      status: 'active',
      type: 'Full',
      auth_token: this.authToken,
      date_created: created,
      date_updated: created,
      uri,
      subresource_uris: { messages: uri.replace(/\.json$/, '/Messages.json') },
    });
  }

  private authorized(req: http.IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private error(
    res: http.ServerResponse,
    status: number,
    code: number,
    message?: string,
    headers: http.OutgoingHttpHeaders = {},
  ): void {
    sendJson(
      res,
      status,
      {
        code,
        message: message ?? FAKE_TWILIO_ERROR_MESSAGES[code] ?? `HTTP ${status}`,
        more_info: `https://www.twilio.com/docs/errors/${code}`,
        status,
      },
      headers,
    );
  }

  private async createMessage(form: URLSearchParams, res: http.ServerResponse): Promise<void> {
    const to = form.get('To')?.trim() ?? '';
    const from = form.get('From')?.trim() || null;
    const messagingServiceSid = form.get('MessagingServiceSid')?.trim() || null;
    const body = form.get('Body') ?? '';
    const mediaUrls = form.getAll('MediaUrl').filter((u) => u.length > 0);
    const statusCallback = form.get('StatusCallback')?.trim() || null;

    if (!to) return this.error(res, 400, 21604);
    if (!from && !messagingServiceSid) return this.error(res, 400, 21603);
    if (!body && mediaUrls.length === 0) return this.error(res, 400, 21602);
    if (!E164.test(to)) return this.error(res, 400, 21211, `Invalid 'To' Phone Number: ${to}`);
    if (body.length > 1600) return this.error(res, 400, 21617);
    if (statusCallback !== null && !URL.canParse(statusCallback)) return this.error(res, 400, 21609);
    if (this.optedOut.has(to)) return this.error(res, 400, 21610);

    const now = new Date();
    const message: FakeTwilioMessage = {
      sid: `SM${randomHex(16)}`,
      accountSid: this.accountSid,
      to,
      from,
      messagingServiceSid,
      body,
      mediaUrls,
      statusCallback,
      status: 'queued',
      errorCode: null,
      errorMessage: null,
      numSegments: countSegments(body),
      dateCreated: now,
      dateUpdated: now,
      dateSent: null,
    };
    this.sent.push(message);
    this.waiters.notify();
    const hold = this.holdsAfterAccept.shift();
    if (this.dropsAfterAccept > 0) {
      this.dropsAfterAccept -= 1;
      res.socket?.destroy();
    } else {
      if (hold !== undefined) await this.sleep(hold, this.closed.signal).catch(() => undefined);
      if (!res.destroyed && !this.closed.signal.aborted) sendJson(res, 201, this.resource(message));
    }

    const outcome = this.nextOutcomes.shift() ?? this.outcomesByRecipient.get(to) ?? { status: 'delivered' };
    const walk = this.walk(message, outcome, this.walkAbort.signal).catch(() => undefined);
    this.walks.add(walk);
    void walk.finally(() => this.walks.delete(walk));
  }

  /**
   * GET Messages.json: the account's messages newest first, filtered like Twilio by To, From and
   * DateSent / DateSent< / DateSent> (messages still queued have no date sent), paged by PageSize
   * and Page.
   */
  private listMessages(url: URL, res: http.ServerResponse): void {
    const q = url.searchParams;
    const to = q.get('To');
    const from = q.get('From');
    const dateOf = (name: string): number | undefined => {
      const value = q.get(name);
      if (value === null) return undefined;
      const parsed = Date.parse(value);
      return Number.isNaN(parsed) ? undefined : parsed;
    };
    const sentOn = q.get('DateSent');
    const sentBefore = dateOf('DateSent<');
    const sentAfter = dateOf('DateSent>');
    const matching = this.sent
      .filter((m) => m.accountSid === this.accountSid)
      .filter((m) => to === null || m.to === to)
      .filter((m) => from === null || m.from === from)
      .filter((m) => {
        if (sentOn === null && sentBefore === undefined && sentAfter === undefined) return true;
        if (m.dateSent === null) return false;
        const sent = m.dateSent.getTime();
        if (sentOn !== null && m.dateSent.toISOString().slice(0, 10) !== sentOn.slice(0, 10)) return false;
        if (sentBefore !== undefined && sent > sentBefore) return false;
        if (sentAfter !== undefined && sent < sentAfter) return false;
        return true;
      })
      .reverse();
    const pageSize = Math.min(1000, Math.max(1, Number(q.get('PageSize') ?? 50) || 50));
    const page = Math.max(0, Number(q.get('Page') ?? 0) || 0);
    const start = page * pageSize;
    const rows = matching.slice(start, start + pageSize);
    const base = `/${API_VERSION}/Accounts/${this.accountSid}/Messages.json`;
    const pageUri = (n: number): string => {
      const params = new URLSearchParams(q);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(n));
      return `${base}?${params.toString()}`;
    };
    sendJson(res, 200, {
      messages: rows.map((m) => this.resource(m)),
      end: Math.max(start, start + rows.length - 1),
      first_page_uri: pageUri(0),
      next_page_uri: start + pageSize < matching.length ? pageUri(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
      start,
      uri: pageUri(page),
    });
  }

  private resource(m: FakeTwilioMessage): Record<string, unknown> {
    const uri = `/${API_VERSION}/Accounts/${m.accountSid}/Messages/${m.sid}.json`;
    const done = m.status !== 'queued' && m.status !== 'sending';
    return {
      account_sid: m.accountSid,
      api_version: API_VERSION,
      body: m.body,
      date_created: rfc2822(m.dateCreated),
      date_sent: m.dateSent === null ? null : rfc2822(m.dateSent),
      date_updated: rfc2822(m.dateUpdated),
      direction: 'outbound-api',
      error_code: m.errorCode,
      error_message: m.errorMessage,
      from: m.from,
      messaging_service_sid: m.messagingServiceSid,
      num_media: String(m.mediaUrls.length),
      num_segments: String(m.numSegments),
      price: done ? (-0.0079 * m.numSegments).toFixed(5) : null,
      price_unit: 'USD',
      sid: m.sid,
      status: m.status,
      subresource_uris: { media: uri.replace(/\.json$/, '/Media.json') },
      to: m.to,
      uri,
    };
  }

  // ---- status walk and callbacks ----

  /** Resolves after ms; rejects as soon as the signal aborts (reset or close), so the walk ends. */
  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error('FakeTwilio closed'));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new Error('FakeTwilio closed'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async walk(
    message: FakeTwilioMessage,
    outcome: FakeTwilioOutcome,
    signal: AbortSignal,
  ): Promise<void> {
    const steps: Array<{ status: FakeTwilioStatus; errorCode?: number; errorMessage?: string }> = [];
    switch (outcome.status) {
      case 'sent':
        steps.push({ status: 'sent' });
        break;
      case 'delivered':
        steps.push({ status: 'sent' }, { status: 'delivered' });
        break;
      case 'undelivered': {
        const errorCode = outcome.errorCode ?? 30003;
        steps.push(
          { status: 'sent' },
          {
            status: 'undelivered',
            errorCode,
            errorMessage: outcome.errorMessage ?? FAKE_TWILIO_ERROR_MESSAGES[errorCode] ?? 'Undelivered',
          },
        );
        break;
      }
      case 'failed': {
        const errorCode = outcome.errorCode ?? 30008;
        steps.push({
          status: 'failed',
          errorCode,
          errorMessage: outcome.errorMessage ?? FAKE_TWILIO_ERROR_MESSAGES[errorCode] ?? 'Failed',
        });
        break;
      }
    }
    if (this.sendOutOfOrder && steps.length > 1) {
      // The resource ends in its final status; the callbacks arrive final first, then a late "sent".
      await this.sleep(this.callbackDelayMs, signal);
      const final = steps[steps.length - 1];
      if (!final) return;
      this.apply(message, final);
      await this.postCallback(message, final, signal);
      await this.sleep(this.callbackDelayMs, signal);
      for (const step of steps.slice(0, -1)) await this.postCallback(message, step, signal);
      return;
    }
    for (const step of steps) {
      await this.sleep(this.callbackDelayMs, signal);
      this.apply(message, step);
      await this.postCallback(message, step, signal);
    }
  }

  private apply(
    message: FakeTwilioMessage,
    step: { status: FakeTwilioStatus; errorCode?: number; errorMessage?: string },
  ): void {
    message.status = step.status;
    message.errorCode = step.errorCode ?? null;
    message.errorMessage = step.errorMessage ?? null;
    message.dateUpdated = new Date();
    if (message.dateSent === null && step.status !== 'queued') message.dateSent = message.dateUpdated;
  }

  private async postCallback(
    message: FakeTwilioMessage,
    step: { status: FakeTwilioStatus; errorCode?: number },
    signal: AbortSignal,
  ): Promise<void> {
    if (this.disableCallbacks || !message.statusCallback) return;
    const params: Record<string, string> = {
      AccountSid: message.accountSid,
      ApiVersion: API_VERSION,
      From: message.from ?? '',
      MessageSid: message.sid,
      MessageStatus: step.status,
      SmsSid: message.sid,
      SmsStatus: step.status,
      To: message.to,
    };
    if (message.messagingServiceSid) params.MessagingServiceSid = message.messagingServiceSid;
    if (step.errorCode !== undefined) params.ErrorCode = String(step.errorCode);
    const url = message.statusCallback;
    const signature = signTwilioWebhook(this.authToken, url, params);
    const record: FakeTwilioCallback = { url, params, signature, responseStatus: null, error: null };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': signature,
          'User-Agent': 'TwilioProxy/1.1',
          'I-Twilio-Idempotency-Token': randomHex(16),
        },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
      });
      await response.arrayBuffer();
      record.responseStatus = response.status;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    if (signal.aborted) return;
    this.callbacks.push(record);
    this.waiters.notify();
  }

  // ---- sandbox control endpoints (JSON), for tools driving the standalone process ----

  private async handleControl(
    method: string,
    path: string,
    raw: string,
    res: http.ServerResponse,
  ): Promise<void> {
    const json = (): Record<string, unknown> => {
      try {
        const parsed: unknown = raw ? JSON.parse(raw) : {};
        return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    };
    if (method === 'GET' && path === '/_fake/messages')
      return sendJson(res, 200, { messages: this.sent.map((m) => this.resource(m)) });
    if (method === 'GET' && path === '/_fake/callbacks')
      return sendJson(res, 200, { callbacks: this.callbacks });
    if (method === 'POST' && path === '/_fake/reset') {
      this.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_fake/fail-next') {
      const body = json();
      if (typeof body.status !== 'number')
        return sendJson(res, 400, { error: 'status (number) is required' });
      this.failNext({
        status: body.status,
        ...(typeof body.code === 'number' ? { code: body.code } : {}),
        ...(typeof body.message === 'string' ? { message: body.message } : {}),
        ...(typeof body.times === 'number' ? { times: body.times } : {}),
      });
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_fake/outage') {
      const body = json();
      if (body.status === null) {
        this.setOutage(null);
        return sendJson(res, 200, { ok: true });
      }
      if (typeof body.status !== 'number')
        return sendJson(res, 400, { error: 'status (number, or null to end the outage) is required' });
      this.setOutage({
        status: body.status,
        ...(typeof body.code === 'number' ? { code: body.code } : {}),
        ...(typeof body.message === 'string' ? { message: body.message } : {}),
      });
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_fake/drop-after-accept') {
      const body = json();
      this.dropAfterAccept(typeof body.times === 'number' ? body.times : 1);
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_fake/inbound') {
      const body = json();
      const { webhookUrl, ...rest } = body;
      if (typeof webhookUrl !== 'string' || typeof rest.From !== 'string' || typeof rest.To !== 'string') {
        return sendJson(res, 400, { error: 'webhookUrl, From and To are required' });
      }
      const params: FakeTwilioInboundParams = { From: rest.From, To: rest.To };
      for (const [key, value] of Object.entries(rest)) {
        if (typeof value === 'string' || typeof value === 'number') params[key] = value;
      }
      try {
        const answer = await this.sendInbound(webhookUrl, params);
        return sendJson(res, 200, answer);
      } catch (error) {
        return sendJson(res, 502, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    return sendJson(res, 404, { error: `Unknown control endpoint ${method} ${path}` });
  }
}
