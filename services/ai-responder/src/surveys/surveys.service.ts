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
  target_new_users: boolean;
  start_date: Date;
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
      `SELECT d."id", d."campaign_id", c."survey_url", c."target_new_users", c."start_date"
         FROM "survey_deliveries" d
         JOIN "survey_campaigns" c ON c."id" = d."campaign_id"
        WHERE d."user_id" = $1 AND d."conversation_id" IS NULL AND d."delivered_at" IS NULL
          AND c."status" = 'live' AND c."start_date" <= now()
          AND (c."end_date" IS NULL OR c."end_date" >= now())
        ORDER BY d."created_at", d."id"
        FOR UPDATE OF d SKIP LOCKED`,
      [user.id],
    );
    for (const row of pending) {
      const newUser = user.createdAt.getTime() >= new Date(row.start_date).getTime();
      if (newUser && !(await this.isLaterConversation(manager, user.id, conversationId))) continue;
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
    const updated = await manager.query<unknown[]>(
      `UPDATE "survey_deliveries"
          SET "delivered_at" = now(), "conversation_id" = $2, "message_id" = $3
        WHERE "id" = $1 AND "conversation_id" IS NULL
        RETURNING "id"`,
      [survey.deliveryId, delivery.conversationId, delivery.messageId],
    );
    const rows = (updated[0] as unknown[] | undefined) ?? [];
    if (rows.length === 0) return;
    await manager.query(
      `UPDATE "survey_campaigns" SET "delivered_count" = "delivered_count" + 1 WHERE "id" = $1`,
      [survey.campaignId],
    );
  }

  /** Whether the user had a conversation before this one (this is their second or later). */
  private async isLaterConversation(
    manager: EntityManager,
    userId: string,
    conversationId: string,
  ): Promise<boolean> {
    const [row] = await manager.query<Array<{ earlier: boolean }>>(
      `SELECT EXISTS (
          SELECT 1 FROM "conversations" earlier, "conversations" current
           WHERE current."id" = $2 AND earlier."user_id" = $1 AND earlier."id" <> current."id"
             AND earlier."started_at" <= current."started_at"
        ) AS "earlier"`,
      [userId, conversationId],
    );
    return row?.earlier === true;
  }
}
