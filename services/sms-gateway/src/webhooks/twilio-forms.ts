import { type InboundSmsForm, storableText } from '@sprout/contracts';
import type { MessageLocationHint } from '@sprout/domain';

// What the webhooks' forms (schemas in @sprout/contracts) carry beyond their parsed fields.

/** MediaUrl{i} / MediaContentType{i} pairs of an MMS. */
export const mediaOf = (
  form: Record<string, unknown>,
  count: number,
): { url: string; contentType: string }[] => {
  const media: { url: string; contentType: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const url = form[`MediaUrl${i}`];
    const contentType = form[`MediaContentType${i}`];
    // These pass through the form's schema as sent: cleaned here so Postgres can store them.
    if (typeof url === 'string' && url.length > 0) {
      media.push({
        url: storableText(url),
        contentType: typeof contentType === 'string' ? storableText(contentType) : 'application/octet-stream',
      });
    }
  }
  return media;
};

/** The carrier's location of the sender's number (cleaned by the form's schema); null when Twilio sent none. */
export const locationHintOf = (form: InboundSmsForm): MessageLocationHint | null => {
  const hint: MessageLocationHint = {};
  const fields = [
    ['zip', form.FromZip],
    ['city', form.FromCity],
    ['state', form.FromState],
    ['country', form.FromCountry],
  ] as const;
  for (const [key, raw] of fields) {
    // Cleaned after the cut, which may split a surrogate pair (jsonb refuses the half left).
    const value = raw === undefined ? '' : storableText(raw.trim().slice(0, 64));
    if (value) hint[key] = value;
  }
  return Object.keys(hint).length === 0 ? null : hint;
};
