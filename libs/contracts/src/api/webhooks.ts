import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { storableText } from '../http/params';

// Twilio's webhooks to the sms-gateway: form-encoded posts, checked by their X-Twilio-Signature.
// Only the parameters Sprout uses are parsed; the others pass through (the signature covers all).

/** A repeated form key arrives as an array; Twilio never repeats these, so the first one counts. */
const first = (value: unknown): unknown => (Array.isArray(value) ? (value as unknown[])[0] : value);

const sid = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{10,64}$/, { error: 'must be a Twilio sid' });
const single = z.preprocess(first, z.string());
/** Twilio's text is never refused: NUL and unpaired surrogates are cleaned (storableText), the rest kept. */
const optionalSingle = z.preprocess(first, z.string().optional()).transform((v) => v && storableText(v));

/** Twilio's longest message Body, in characters. */
export const SMS_BODY_MAX_CHARS = 1600;

/**
 * The Body as stored: cleaned, and its first SMS_BODY_MAX_CHARS characters (never half a surrogate
 * pair). Twilio never sends more; a longer signed body is stored cut rather than refused, since a
 * refused webhook is a text lost (Twilio does not retry), and cut it cannot stall the analysis.
 */
export const smsBodyOf = (body: string | undefined): string => {
  const text = body ?? '';
  if (text.length <= SMS_BODY_MAX_CHARS) return text;
  let end = SMS_BODY_MAX_CHARS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
};

/** POST /webhooks/twilio/sms: an inbound SMS or MMS (MediaUrl{i} / MediaContentType{i} pass through). */
export const InboundSmsForm = z.looseObject({
  MessageSid: z.preprocess(first, sid),
  From: single.pipe(z.string().trim().min(1, { error: 'From is required' })),
  To: optionalSingle,
  Body: optionalSingle.transform(smsBodyOf),
  NumMedia: optionalSingle.transform((v) => {
    const n = Number(v ?? '0');
    return Number.isInteger(n) && n >= 0 && n <= 10 ? n : 0;
  }),
  FromZip: optionalSingle,
  FromCity: optionalSingle,
  FromState: optionalSingle,
  FromCountry: optionalSingle,
});
export type InboundSmsForm = z.output<typeof InboundSmsForm>;

/** POST /webhooks/twilio/status: a message's delivery status changed. */
export const StatusCallbackForm = z.looseObject({
  MessageSid: z.preprocess(first, sid),
  MessageStatus: optionalSingle,
  SmsStatus: optionalSingle,
  ErrorCode: optionalSingle,
  ErrorMessage: optionalSingle,
});
export type StatusCallbackForm = z.output<typeof StatusCallbackForm>;

/** The sms-gateway's endpoints (`/webhooks/**` at the edge); not in /api/docs. */
export const webhooksApi = {
  inboundSms: endpoint({
    method: 'POST',
    path: '/webhooks/twilio/sms',
    access: 'webhook',
    tag: 'twilio webhooks',
    summary: 'An inbound SMS or MMS from Twilio (form-encoded, X-Twilio-Signature checked)',
    body: InboundSmsForm,
    answer: answer<string>('Empty TwiML'),
    answerContentType: 'text/xml',
  }),
  statusCallback: endpoint({
    method: 'POST',
    path: '/webhooks/twilio/status',
    access: 'webhook',
    tag: 'twilio webhooks',
    summary: "Twilio's status callback of an outbound message (form-encoded, X-Twilio-Signature checked)",
    body: StatusCallbackForm,
    status: 204,
    answer: answer<void>('No content'),
  }),
} as const;
