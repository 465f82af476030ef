import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMS path:
 * - `messages.location_hint`: the carrier's location of an inbound sender's number (Twilio's
 *   FromZip, FromCity, FromState, FromCountry), a hint the reply pipeline may use.
 * - `consent_events.reply_message_id`: the confirmation sent for a STOP / START / HELP. The
 *   outbound worker sends an opted-out user only the confirmation of their opt-out, found here.
 *   Both message links get an index (the worker and repeated webhooks look events up by them).
 */
export class SmsLocationHintAndConsentReplies1795400000000 implements MigrationInterface {
  name = 'SmsLocationHintAndConsentReplies1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "messages" ADD "location_hint" jsonb`,
      `ALTER TABLE "consent_events" ADD "reply_message_id" uuid`,
      `ALTER TABLE "consent_events" ADD CONSTRAINT "fk_consent_events_reply_message_id"
        FOREIGN KEY ("reply_message_id") REFERENCES "messages" ("id") ON DELETE SET NULL`,
      `CREATE INDEX "idx_consent_events_message_id" ON "consent_events" ("message_id")`,
      `CREATE INDEX "idx_consent_events_reply_message_id" ON "consent_events" ("reply_message_id")`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_consent_events_reply_message_id"`,
      `DROP INDEX "idx_consent_events_message_id"`,
      `ALTER TABLE "consent_events" DROP CONSTRAINT "fk_consent_events_reply_message_id"`,
      `ALTER TABLE "consent_events" DROP COLUMN "reply_message_id"`,
      `ALTER TABLE "messages" DROP COLUMN "location_hint"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
