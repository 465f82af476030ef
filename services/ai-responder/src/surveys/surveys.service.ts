import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A pending survey delivery whose campaign is live, locked for this reply. */
export interface DueSurvey {
  deliveryId: string;
  campaignId: string;
  surveyUrl: string;
}

interface PendingRow {
  id: string;
  campaign_id: string;
  survey_url: string;
  start_date: Date;
  /** Whether the user had a conversation before this one (this is their second or later). */
  later_conversation: boolean;
}

/**
 * Survey links inside conversations (spec 001 Surveys): a delivery exists from the moment a user is
 * targeted (survey-scheduler); the next reply to that user carries the link and marks it delivered.
 * New users (created since the campaign started) are reached in their second conversation.
 */
@Injectable()
export class SurveysService {
  /** The oldest due delivery for this user, row-locked until the reply transaction ends; null when none. */
  async claimDue(
    manager: EntityManager,
    user: { id: string; createdAt: Date },
    conversationId: string,
  ): Promise<DueSurvey | null> {
    const pending = await manager.query<PendingRow[]>(
      `SELECT d."id", d."campaign_id", c."survey_url", c."start_date",
              EXISTS (
                SELECT 1 FROM "conversations" earlier, "conversations" current
                 WHERE current."id" = $2 AND earlier."user_id" = $1 AND earlier."id" <> current."id"
                   AND earlier."started_at" <= current."started_at"
              ) AS "later_conversation"
         FROM "survey_deliveries" d
         JOIN "survey_campaigns" c ON c."id" = d."campaign_id"
        WHERE d."user_id" = $1 AND d."conversation_id" IS NULL AND d."delivered_at" IS NULL
          AND c."status" = 'live' AND c."start_date" <= now()
          AND (c."end_date" IS NULL OR c."end_date" >= now())
        ORDER BY d."created_at", d."id"
        FOR UPDATE OF d SKIP LOCKED`,
      [user.id, conversationId],
    );
    for (const row of pending) {
      const newUser = user.createdAt.getTime() >= new Date(row.start_date).getTime();
      if (newUser && !row.later_conversation) continue;
      return { deliveryId: row.id, campaignId: row.campaign_id, surveyUrl: row.survey_url };
    }
    return null;
  }

  /** The line appended to the reply. */
  line(survey: DueSurvey): string {
    return `Quick survey: ${survey.surveyUrl}`;
  }

  /** Marks the delivery delivered with the reply that carried it, and counts it on the campaign. */
  async markDelivered(
    manager: EntityManager,
    survey: DueSurvey,
    delivery: { conversationId: string; messageId: string },
  ): Promise<void> {
    await manager.query(
      `WITH delivered AS (
         UPDATE "survey_deliveries"
            SET "delivered_at" = now(), "conversation_id" = $2, "message_id" = $3
          WHERE "id" = $1 AND "conversation_id" IS NULL
         RETURNING "campaign_id"
       )
       UPDATE "survey_campaigns" SET "delivered_count" = "delivered_count" + 1
        WHERE "id" IN (SELECT "campaign_id" FROM delivered)`,
      [survey.deliveryId, delivery.conversationId, delivery.messageId],
    );
  }
}
