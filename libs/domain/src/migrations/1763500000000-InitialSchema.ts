import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema as of the first release. Entities in ../entities must agree with it exactly
 * (test/schema-agreement.test.ts); indexes TypeORM cannot express (DESC, expressions, operator
 * classes) are declared on the entities with `synchronize: false` and created only here.
 */
export class InitialSchema1763500000000 implements MigrationInterface {
  name = 'InitialSchema1763500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE EXTENSION IF NOT EXISTS pgcrypto`,

      `CREATE TABLE "users" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "phone_number" varchar NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "is_active" boolean NOT NULL DEFAULT true,
        "last_message_at" timestamptz,
        "profile_completion_score" integer NOT NULL DEFAULT 0,
        "zip_code" varchar,
        "region" varchar,
        "city" varchar,
        "state" varchar,
        "hardiness_zone" varchar,
        "profile" jsonb NOT NULL DEFAULT '{}',
        "location_refused" boolean NOT NULL DEFAULT false,
        "location_asked_at" timestamptz,
        "opted_out" boolean NOT NULL DEFAULT false,
        "opted_out_at" timestamptz,
        "is_test_user" boolean NOT NULL DEFAULT false,
        "test_user_name" varchar,
        "test_user_model" varchar,
        "total_messages" integer NOT NULL DEFAULT 0,
        "total_tokens" integer NOT NULL DEFAULT 0,
        "total_cost" numeric(14,6) NOT NULL DEFAULT 0,
        "average_sentiment" varchar,
        CONSTRAINT "pk_users" PRIMARY KEY ("id"),
        CONSTRAINT "uq_users_phone_number" UNIQUE ("phone_number"),
        CONSTRAINT "chk_users_profile_completion_score" CHECK ("profile_completion_score" BETWEEN 0 AND 100),
        CONSTRAINT "chk_users_average_sentiment" CHECK ("average_sentiment" IN ('positive', 'negative', 'frustrated', 'neutral'))
      )`,
      `CREATE INDEX "idx_users_last_message_at" ON "users" ("last_message_at" DESC)`,
      `CREATE INDEX "idx_users_created_at" ON "users" ("created_at")`,
      `CREATE INDEX "idx_users_is_test_user_last_message_at" ON "users" ("is_test_user", "last_message_at")`,
      `CREATE INDEX "idx_users_phone_number_pattern" ON "users" ("phone_number" text_pattern_ops)`,

      `CREATE TABLE "conversations" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "started_at" timestamptz NOT NULL DEFAULT now(),
        "last_message_at" timestamptz NOT NULL DEFAULT now(),
        "ended_at" timestamptz,
        "message_count" integer NOT NULL DEFAULT 0,
        "sentiment" varchar,
        "topics" text[] NOT NULL DEFAULT '{}',
        "summary" text,
        "key_outcomes" text,
        "next_steps" text,
        "region" varchar,
        "experience_level" varchar,
        "model_used" varchar,
        "is_test_user" boolean NOT NULL DEFAULT false,
        "summarized_at" timestamptz,
        CONSTRAINT "pk_conversations" PRIMARY KEY ("id"),
        CONSTRAINT "fk_conversations_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "chk_conversations_sentiment" CHECK ("sentiment" IN ('positive', 'negative', 'frustrated', 'neutral'))
      )`,
      `CREATE INDEX "idx_conversations_last_message_at" ON "conversations" ("last_message_at" DESC)`,
      `CREATE INDEX "idx_conversations_user_id_last_message_at" ON "conversations" ("user_id", "last_message_at" DESC)`,
      `CREATE INDEX "idx_conversations_is_test_user_last_message_at" ON "conversations" ("is_test_user", "last_message_at" DESC)`,

      `CREATE TABLE "messages" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "conversation_id" uuid NOT NULL,
        "direction" varchar NOT NULL,
        "content" text NOT NULL,
        "status" varchar NOT NULL,
        "provider_sid" varchar,
        "error_code" varchar,
        "error_message" text,
        "segments" integer,
        "encoding" varchar,
        "media" jsonb NOT NULL DEFAULT '[]',
        "image_processed" boolean,
        "image_content_type" varchar,
        "image_processing_error" text,
        "image_analysis" text,
        "cost" numeric(14,6) NOT NULL DEFAULT 0,
        "token_usage" integer NOT NULL DEFAULT 0,
        "model_used" varchar,
        "response_time_ms" integer,
        "sentiment" varchar,
        "topics" text[] NOT NULL DEFAULT '{}',
        "is_test_user" boolean NOT NULL DEFAULT false,
        "kind" varchar NOT NULL DEFAULT 'reply',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "sent_at" timestamptz,
        "delivered_at" timestamptz,
        CONSTRAINT "pk_messages" PRIMARY KEY ("id"),
        CONSTRAINT "uq_messages_provider_sid" UNIQUE ("provider_sid"),
        CONSTRAINT "fk_messages_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "fk_messages_conversation_id" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE,
        CONSTRAINT "chk_messages_direction" CHECK ("direction" IN ('inbound', 'outbound')),
        CONSTRAINT "chk_messages_status" CHECK ("status" IN ('received', 'queued', 'accepted', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'pending', 'read', 'receiving')),
        CONSTRAINT "chk_messages_kind" CHECK ("kind" IN ('reply', 'consent', 'onboarding', 'validation', 'survey', 'command', 'system')),
        CONSTRAINT "chk_messages_encoding" CHECK ("encoding" IN ('GSM-7', 'UCS-2')),
        CONSTRAINT "chk_messages_sentiment" CHECK ("sentiment" IN ('positive', 'negative', 'frustrated', 'neutral'))
      )`,
      `CREATE INDEX "idx_messages_created_at" ON "messages" ("created_at")`,
      `CREATE INDEX "idx_messages_conversation_id_created_at" ON "messages" ("conversation_id", "created_at")`,
      `CREATE INDEX "idx_messages_user_id_created_at" ON "messages" ("user_id", "created_at")`,
      `CREATE INDEX "idx_messages_is_test_user_created_at" ON "messages" ("is_test_user", "created_at")`,
      `CREATE INDEX "idx_messages_failed_created_at" ON "messages" ("created_at") WHERE "status" IN ('failed', 'undelivered')`,
      `CREATE INDEX "idx_messages_with_media_created_at" ON "messages" ("created_at") WHERE "media" <> '[]'::jsonb`,

      `CREATE TABLE "llm_calls" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "message_id" uuid,
        "user_id" uuid,
        "conversation_id" uuid,
        "purpose" varchar NOT NULL,
        "model" varchar,
        "prompt_tokens" integer NOT NULL DEFAULT 0,
        "completion_tokens" integer NOT NULL DEFAULT 0,
        "total_tokens" integer NOT NULL DEFAULT 0,
        "cost" numeric(14,6) NOT NULL DEFAULT 0,
        "latency_ms" integer,
        "tier" varchar NOT NULL,
        "error" text,
        "is_test_user" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_llm_calls" PRIMARY KEY ("id"),
        CONSTRAINT "fk_llm_calls_message_id" FOREIGN KEY ("message_id") REFERENCES "messages" ("id") ON DELETE SET NULL,
        CONSTRAINT "fk_llm_calls_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE SET NULL,
        CONSTRAINT "fk_llm_calls_conversation_id" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE SET NULL,
        CONSTRAINT "chk_llm_calls_purpose" CHECK ("purpose" IN ('reply', 'summary', 'image', 'classification')),
        CONSTRAINT "chk_llm_calls_tier" CHECK ("tier" IN ('primary', 'fallback', 'template', 'minimal'))
      )`,
      `CREATE INDEX "idx_llm_calls_created_at" ON "llm_calls" ("created_at")`,
      `CREATE INDEX "idx_llm_calls_model_created_at" ON "llm_calls" ("model", "created_at")`,
      `CREATE INDEX "idx_llm_calls_message_id" ON "llm_calls" ("message_id")`,
      `CREATE INDEX "idx_llm_calls_user_id" ON "llm_calls" ("user_id")`,
      `CREATE INDEX "idx_llm_calls_conversation_id" ON "llm_calls" ("conversation_id")`,

      `CREATE TABLE "ai_models" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "name" varchar NOT NULL,
        "display_name" varchar,
        "input_price_per_million" numeric(14,6) NOT NULL DEFAULT 0,
        "output_price_per_million" numeric(14,6) NOT NULL DEFAULT 0,
        "max_tokens" integer NOT NULL DEFAULT 4096,
        "is_active" boolean NOT NULL DEFAULT true,
        "is_visible" boolean NOT NULL DEFAULT true,
        "is_live" boolean NOT NULL DEFAULT false,
        "is_fallback" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_ai_models" PRIMARY KEY ("id"),
        CONSTRAINT "uq_ai_models_name" UNIQUE ("name"),
        CONSTRAINT "chk_ai_models_max_tokens" CHECK ("max_tokens" BETWEEN 0 AND 2000000),
        CONSTRAINT "chk_ai_models_live_or_fallback_is_active" CHECK (("is_live" = false AND "is_fallback" = false) OR "is_active" = true)
      )`,
      `CREATE UNIQUE INDEX "uq_ai_models_single_live" ON "ai_models" ("is_live") WHERE "is_live" = true`,
      `CREATE UNIQUE INDEX "uq_ai_models_single_fallback" ON "ai_models" ("is_fallback") WHERE "is_fallback" = true`,

      `CREATE TABLE "beta_signups" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "email" varchar NOT NULL,
        "zip_code" varchar NOT NULL,
        "unique_code" varchar NOT NULL,
        "signup_date" timestamptz NOT NULL DEFAULT now(),
        "status" varchar NOT NULL DEFAULT 'pending',
        "approved_at" timestamptz,
        CONSTRAINT "pk_beta_signups" PRIMARY KEY ("id"),
        CONSTRAINT "uq_beta_signups_unique_code" UNIQUE ("unique_code")
      )`,
      `CREATE UNIQUE INDEX "uq_beta_signups_email_lower" ON "beta_signups" (lower("email"))`,
      `CREATE INDEX "idx_beta_signups_signup_date" ON "beta_signups" ("signup_date" DESC)`,

      `CREATE TABLE "survey_campaigns" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "name" varchar NOT NULL,
        "survey_url" text NOT NULL,
        "status" varchar NOT NULL DEFAULT 'scheduled',
        "start_date" timestamptz NOT NULL DEFAULT now(),
        "end_date" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "delivered_count" integer NOT NULL DEFAULT 0,
        "total_target_users" integer NOT NULL DEFAULT 0,
        "target_new_users" boolean NOT NULL DEFAULT true,
        "target_existing_users" boolean NOT NULL DEFAULT true,
        CONSTRAINT "pk_survey_campaigns" PRIMARY KEY ("id"),
        CONSTRAINT "chk_survey_campaigns_status" CHECK ("status" IN ('live', 'scheduled', 'completed', 'paused'))
      )`,

      `CREATE TABLE "survey_deliveries" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "campaign_id" uuid NOT NULL,
        "user_id" uuid NOT NULL,
        "conversation_id" uuid,
        "message_id" uuid,
        "delivered_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_survey_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "uq_survey_deliveries_campaign_id_user_id" UNIQUE ("campaign_id", "user_id"),
        CONSTRAINT "fk_survey_deliveries_campaign_id" FOREIGN KEY ("campaign_id") REFERENCES "survey_campaigns" ("id") ON DELETE CASCADE,
        CONSTRAINT "fk_survey_deliveries_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "fk_survey_deliveries_conversation_id" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE SET NULL,
        CONSTRAINT "fk_survey_deliveries_message_id" FOREIGN KEY ("message_id") REFERENCES "messages" ("id") ON DELETE SET NULL
      )`,
      `CREATE INDEX "idx_survey_deliveries_user_id" ON "survey_deliveries" ("user_id")`,
      `CREATE INDEX "idx_survey_deliveries_pending_user_id" ON "survey_deliveries" ("user_id") WHERE "conversation_id" IS NULL`,

      `CREATE TABLE "admin_users" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "username" varchar NOT NULL,
        "password_hash" varchar NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_login_at" timestamptz,
        CONSTRAINT "pk_admin_users" PRIMARY KEY ("id"),
        CONSTRAINT "uq_admin_users_username" UNIQUE ("username")
      )`,

      `CREATE TABLE "consent_events" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "type" varchar NOT NULL,
        "keyword" varchar,
        "source" varchar NOT NULL,
        "message_id" uuid,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_consent_events" PRIMARY KEY ("id"),
        CONSTRAINT "fk_consent_events_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "fk_consent_events_message_id" FOREIGN KEY ("message_id") REFERENCES "messages" ("id") ON DELETE SET NULL,
        CONSTRAINT "chk_consent_events_type" CHECK ("type" IN ('opt_out', 'opt_in', 'help')),
        CONSTRAINT "chk_consent_events_source" CHECK ("source" IN ('sms', 'web', 'provider'))
      )`,
      `CREATE INDEX "idx_consent_events_user_id_created_at" ON "consent_events" ("user_id", "created_at")`,

      `CREATE TABLE "settings" (
        "key" varchar NOT NULL,
        "value" jsonb NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_settings" PRIMARY KEY ("key")
      )`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const tables = [
      'settings',
      'consent_events',
      'admin_users',
      'survey_deliveries',
      'survey_campaigns',
      'beta_signups',
      'ai_models',
      'llm_calls',
      'messages',
      'conversations',
      'users',
    ];
    for (const table of tables) await queryRunner.query(`DROP TABLE "${table}"`);
  }
}
