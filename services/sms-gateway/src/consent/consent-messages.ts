import type { ConsentEventType } from '@sprout/domain';

/** The program name carriers expect at the start of compliance answers. */
export const PROGRAM_NAME = 'Sprout';

/** The one confirmation each STOP / START / HELP keyword gets (GSM-7, at most two segments). */
export const consentReplyText = (type: ConsentEventType, contactEmail: string): string => {
  switch (type) {
    case 'opt_out':
      return `${PROGRAM_NAME}: You're unsubscribed and will get no more messages from us. Reply START to resubscribe.`;
    case 'opt_in':
      return (
        `${PROGRAM_NAME}: You're subscribed to gardening advice by text. Text a question anytime. ` +
        'Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to opt out.'
      );
    case 'help':
      return (
        `${PROGRAM_NAME}: gardening advice by text for your region and season. Text a question anytime. ` +
        `Reply STOP to opt out, START to opt back in. Msg & data rates may apply. Help: ${contactEmail}`
      );
  }
};
