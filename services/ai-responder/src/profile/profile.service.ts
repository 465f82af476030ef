import { Injectable } from '@nestjs/common';
import type { InboundMoods, Sentiment, UserProfile } from '@sprout/domain';
import { type TextAnalysis, analyzeSentiment, parseProfileCommand } from '@sprout/gardening';
import { type CommandOutcome, applyProfileCommand } from './profile-commands';
import {
  type ProfileSignals,
  conversationStyleOf,
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
/** The user's mood is read over this many of their latest texts. */
export const USER_SENTIMENT_WINDOW = 50;
const STYLE_WINDOW = 10;

/** Profile commands, profile learning, and inbound sentiment and topics rolled up. */
@Injectable()
export class ProfileService {
  /** The outcome of a profile command, or null when the text is not one. */
  command(text: string): CommandOutcome | null {
    const command = parseProfileCommand(text);
    return command === null ? null : applyProfileCommand(command);
  }

  read(analysis: TextAnalysis): MessageInsights {
    return {
      sentiment: analyzeSentiment(analysis.text),
      topics: analysis.topics,
      signals: readProfileSignals(analysis.text),
    };
  }

  /**
   * The moods this message's sentiment rolls into, from what the reply's transaction read
   * (libs/domain inboundMoods, with this message's sentiment as if stored).
   */
  rollup(moods: InboundMoods): InsightRollup {
    const userSentiments = moods.recent
      .map((r) => r.sentiment)
      .filter((s): s is Sentiment => s !== null)
      .reverse();
    return {
      conversationSentiment: overallSentiment(moods.conversation),
      userSentiment: overallSentiment(userSentiments),
      recentTexts: moods.recent.slice(0, STYLE_WINDOW).map((r) => r.content),
    };
  }

  /**
   * The profile after this message: `learned` (learnProfile of this text, without style) with the
   * conversation style of the recent texts, and a command's values, which replace.
   */
  withStyle(
    learned: UserProfile,
    rollup: InsightRollup,
    commandPatch: Partial<UserProfile> = {},
  ): UserProfile {
    const style = conversationStyleOf(rollup.recentTexts);
    return { ...learned, ...(style === null ? {} : { conversationStyle: style }), ...commandPatch };
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
