import { Injectable } from '@nestjs/common';
import type { Message, Sentiment, UserProfile } from '@sprout/domain';
import { analyzeSentiment, detectTopics, parseProfileCommand } from '@sprout/gardening';
import type { EntityManager } from 'typeorm';
import { type CommandOutcome, applyProfileCommand } from './profile-commands';
import {
  type ProfileSignals,
  conversationStyleOf,
  learnProfile,
  overallSentiment,
  profileCompletionScore,
  readProfileSignals,
} from './profile-learning';

/** What the responder reads from one inbound text about its sender. */
export interface MessageInsights {
  sentiment: Sentiment;
  /** Taxonomy topics, in order of appearance. */
  topics: string[];
  signals: ProfileSignals;
}

export interface InsightRollup {
  /** The conversation's mood over its inbound messages. */
  conversationSentiment: Sentiment | null;
  /** The user's mood over their recent inbound messages. */
  userSentiment: Sentiment | null;
  /** The user's recent inbound texts, newest first (for the conversation style). */
  recentTexts: string[];
}

const MAX_CONVERSATION_TOPICS = 20;
const USER_SENTIMENT_WINDOW = 50;
const STYLE_WINDOW = 10;

/** Profile commands, profile learning, and inbound sentiment and topics rolled up. */
@Injectable()
export class ProfileService {
  /** The outcome of a profile command, or null when the text is not one. */
  command(text: string): CommandOutcome | null {
    const command = parseProfileCommand(text);
    return command === null ? null : applyProfileCommand(command);
  }

  read(text: string): MessageInsights {
    return {
      sentiment: analyzeSentiment(text),
      topics: detectTopics(text),
      signals: readProfileSignals(text),
    };
  }

  /**
   * The moods this message's sentiment rolls into, read in the reply transaction. The sentiment
   * itself is stored with the reply (recordOutbound), so it is read here as if it were stored.
   */
  async rollupInsights(
    manager: EntityManager,
    inbound: Pick<Message, 'id' | 'userId' | 'conversationId'>,
    insights: MessageInsights,
  ): Promise<InsightRollup> {
    const [row] = await manager.query<
      Array<{
        conversation: Sentiment[] | null;
        recent: Array<{ sentiment: Sentiment | null; content: string }> | null;
      }>
    >(
      `SELECT
         (SELECT array_agg(s ORDER BY created_at, id) FROM (
            SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, created_at, id FROM messages
             WHERE conversation_id = $1 AND direction = 'inbound') m
           WHERE s IS NOT NULL) AS conversation,
         (SELECT json_agg(json_build_object('sentiment', s, 'content', content) ORDER BY created_at DESC, id DESC)
            FROM (SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, content, created_at, id FROM messages
                   WHERE user_id = $2 AND direction = 'inbound'
                   ORDER BY created_at DESC, id DESC LIMIT $5) r) AS recent`,
      [inbound.conversationId, inbound.userId, inbound.id, insights.sentiment, USER_SENTIMENT_WINDOW],
    );
    const recent = row?.recent ?? [];
    const userSentiments = recent
      .map((r) => r.sentiment)
      .filter((s): s is Sentiment => s !== null)
      .reverse();
    return {
      conversationSentiment: overallSentiment(row?.conversation ?? []),
      userSentiment: overallSentiment(userSentiments),
      recentTexts: recent.slice(0, STYLE_WINDOW).map((r) => r.content),
    };
  }

  /** The profile after this message (learned values fill gaps; a command's values replace). */
  learn(
    profile: UserProfile,
    insights: MessageInsights,
    rollup: InsightRollup,
    commandPatch: Partial<UserProfile> = {},
  ): UserProfile {
    const learned = learnProfile(
      profile,
      insights.signals,
      insights.topics,
      conversationStyleOf(rollup.recentTexts),
    );
    return { ...learned, ...commandPatch };
  }

  completionScore(
    user: { zipCode: string | null; hardinessZone: string | null; region: string | null },
    profile: UserProfile,
  ): number {
    return profileCompletionScore(user, profile);
  }

  /** The conversation's topics with this message's added (first mention first). */
  conversationTopics(existing: readonly string[], fresh: readonly string[]): string[] {
    return [...new Set([...existing, ...fresh])].slice(0, MAX_CONVERSATION_TOPICS);
  }
}
