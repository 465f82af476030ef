import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Survey campaigns at scale:
 * - `survey_campaigns.targeted_through_created_at` / `targeted_through_user_id`: how far the
 *   survey-scheduler's targeting walk over users (in created_at, id order, in batches) has got, so
 *   a run resumes where the last one stopped and a repeated run scans nothing twice.
 * - `survey_campaign_delivered_shards`: deliveries counted by the replies that carry the link,
 *   eight rows per campaign chosen by backend, so concurrent replies never wait on one row;
 *   deliveredCount is `delivered_count` plus their sum (the seed and older rows fill the column).
 * - The deliveries list (latest delivered first) reads a partial index of the delivered ones.
 */
export class SurveyTargeting1796050000000 implements MigrationInterface {
  name = 'SurveyTargeting1796050000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "survey_campaigns"
         ADD COLUMN "targeted_through_created_at" timestamptz,
         ADD COLUMN "targeted_through_user_id" uuid`,
      `CREATE TABLE "survey_campaign_delivered_shards" (
        "campaign_id" uuid NOT NULL,
        "shard" smallint NOT NULL,
        "delivered" integer NOT NULL DEFAULT 0,
        CONSTRAINT "pk_survey_campaign_delivered_shards" PRIMARY KEY ("campaign_id", "shard"),
        CONSTRAINT "fk_survey_campaign_delivered_shards_campaign_id" FOREIGN KEY ("campaign_id")
          REFERENCES "survey_campaigns" ("id") ON DELETE CASCADE
      )`,
      `CREATE INDEX "idx_survey_deliveries_campaign_id_delivered_at" ON "survey_deliveries" ("campaign_id", "delivered_at" DESC)
         WHERE "delivered_at" IS NOT NULL`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_survey_deliveries_campaign_id_delivered_at"`);
    await queryRunner.query(`DROP TABLE "survey_campaign_delivered_shards"`);
    await queryRunner.query(
      `ALTER TABLE "survey_campaigns" DROP COLUMN "targeted_through_created_at", DROP COLUMN "targeted_through_user_id"`,
    );
  }
}
