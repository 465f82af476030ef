import { Logger } from '@nestjs/common';

/** Twilio's error code for a recipient who opted out at the carrier (replied STOP to Twilio). */
export const UNSUBSCRIBED_ERROR_CODE = '21610';

const logger = new Logger('Consent');

/**
 * SMS consent at send time: an outbound message or a status callback failed with 21610, and the
 * user was opted out by it (libs/domain recordCarrierOptOut, in the same transaction). STOP / START /
 * HELP texts are read in libs/sms and applied where they are recorded, for an SMS and the simulator alike.
 */
export const logCarrierOptOut = (userId: string): void =>
  logger.log(`User ${userId} opted out at the carrier (Twilio ${UNSUBSCRIBED_ERROR_CODE})`);
