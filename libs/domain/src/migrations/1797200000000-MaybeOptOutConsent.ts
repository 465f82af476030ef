import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A consent event for a text that may have asked to stop ("enough", "no more tomatoes", "Stop. My
 * tomatoes are fine"): it is answered by asking for STOP (the question is its reply_message_id)
 * and changes nothing. record_inbound() records it as it records a HELP: any type but opt_out and
 * opt_in leaves the user's consent as it is.
 */
export class MaybeOptOutConsent1797200000000 implements MigrationInterface {
  name = 'MaybeOptOutConsent1797200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "consent_events" DROP CONSTRAINT "chk_consent_events_type"`);
    await queryRunner.query(
      `ALTER TABLE "consent_events" ADD CONSTRAINT "chk_consent_events_type" CHECK ("type" IN ('opt_out', 'opt_in', 'help', 'maybe_opt_out'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "consent_events" WHERE "type" = 'maybe_opt_out'`);
    await queryRunner.query(`ALTER TABLE "consent_events" DROP CONSTRAINT "chk_consent_events_type"`);
    await queryRunner.query(
      `ALTER TABLE "consent_events" ADD CONSTRAINT "chk_consent_events_type" CHECK ("type" IN ('opt_out', 'opt_in', 'help'))`,
    );
  }
}
