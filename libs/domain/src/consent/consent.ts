import type { DataSource, EntityManager } from 'typeorm';
import type { InboundConsent, InboundSender } from '../messages/message-writer';
import type { ConsentEventType, TipsStatus } from '../types';

/** How the recorder answers TIPS: the confirmation for the user's ZIP (null while unknown). */
export interface TipsConsentOptions {
  confirmation: (zipCode: string | null) => InboundConsent['reply'];
}

const TIPS_KEYWORDS: readonly ConsentEventType[] = ['tips_opt_in', 'tips_opt_out', 'tips_decline'];

/**
 * The consent a text is recorded with, given the sender as they are. A sender already opted out
 * is sent nothing but opt-out and HELP answers: a maybe-opt-out (answered by asking for STOP) or
 * a TIPS keyword from them is dropped and the text recorded as any other, which nothing answers
 * (TIPS does not undo a STOP: START does). A bare "no" declines tips only right after the offer
 * (tips status 'offered'); otherwise it is an ordinary text. TIPS is confirmed for the user's ZIP
 * when `tips` says how.
 */
export async function consentToRecord<T extends { type: ConsentEventType; reply: InboundConsent['reply'] }>(
  db: DataSource | EntityManager,
  from: InboundSender,
  consent: T | null,
  tips?: TipsConsentOptions,
): Promise<T | null> {
  if (consent === null || (consent.type !== 'maybe_opt_out' && !TIPS_KEYWORDS.includes(consent.type))) {
    return consent;
  }
  const rows = await db.query<{ opted_out: boolean; zip_code: string | null; tips_status: TipsStatus }[]>(
    'userId' in from
      ? `SELECT opted_out, zip_code, tips_status FROM users WHERE id = $1`
      : `SELECT opted_out, zip_code, tips_status FROM users WHERE phone_number = $1`,
    ['userId' in from ? from.userId : from.phoneNumber],
  );
  const user = rows[0] ?? { opted_out: false, zip_code: null, tips_status: 'none' as const };
  if (user.opted_out) return null;
  if (consent.type === 'tips_decline' && user.tips_status !== 'offered') return null;
  if (consent.type === 'tips_opt_in' && tips !== undefined) {
    return { ...consent, reply: tips.confirmation(user.zip_code) };
  }
  return consent;
}
