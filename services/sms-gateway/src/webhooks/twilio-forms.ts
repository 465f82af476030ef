import type { MessageLocationHint } from '@sprout/domain';
import { z } from 'zod';

// Form parameters Twilio posts to the webhooks; only what Sprout uses. Unknown keys pass through.

/** A repeated form key arrives as an array; Twilio never repeats these, so the first one counts. */
const first = (value: unknown): unknown => (Array.isArray(value) ? (value as unknown[])[0] : value);

const sid = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{10,64}$/, { error: 'must be a Twilio sid' });
const single = z.preprocess(first, z.string());
const optionalSingle = z.preprocess(first, z.string().optional());

export const InboundSmsForm = z.looseObject({
  MessageSid: z.preprocess(first, sid),
  From: single.pipe(z.string().trim().min(1, { error: 'From is required' })),
  To: optionalSingle,
  Body: optionalSingle.transform((v) => v ?? ''),
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

export const StatusCallbackForm = z.looseObject({
  MessageSid: z.preprocess(first, sid),
  MessageStatus: optionalSingle,
  SmsStatus: optionalSingle,
  ErrorCode: optionalSingle,
  ErrorMessage: optionalSingle,
});
export type StatusCallbackForm = z.output<typeof StatusCallbackForm>;

/** MediaUrl{i} / MediaContentType{i} pairs of an MMS. */
export const mediaOf = (
  form: Record<string, unknown>,
  count: number,
): { url: string; contentType: string }[] => {
  const media: { url: string; contentType: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const url = form[`MediaUrl${i}`];
    const contentType = form[`MediaContentType${i}`];
    if (typeof url === 'string' && url.length > 0) {
      media.push({
        url,
        contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream',
      });
    }
  }
  return media;
};

/** The carrier's location of the sender's number; null when Twilio sent none. */
export const locationHintOf = (form: InboundSmsForm): MessageLocationHint | null => {
  const hint: MessageLocationHint = {};
  const fields = [
    ['zip', form.FromZip],
    ['city', form.FromCity],
    ['state', form.FromState],
    ['country', form.FromCountry],
  ] as const;
  for (const [key, raw] of fields) {
    const value = raw?.trim().slice(0, 64);
    if (value) hint[key] = value;
  }
  return Object.keys(hint).length === 0 ? null : hint;
};
