import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { SmsInboundJobResult } from '@sprout/contracts';
import {
  type Message,
  type MessageKind,
  type PlannedReply,
  type ReplyRecordOutcome,
  type ReplyState,
  type User,
  type UserProfile,
  inboundToAnswer,
  recordOutbound,
  recordReply,
  settleAwaitingReply,
} from '@sprout/domain';
import {
  type ProcessingContext,
  type ProcessingResult,
  type ValidationResponseType,
  analysisWindow,
  analyzeText,
  configureZoneTable,
  gardenerMessages,
  preloadAdvisor,
  preloadZoneTable,
  processMessage,
  templateReplyFor,
  tipsOfferFor,
  validateInContext,
} from '@sprout/gardening';
import { CONFIG, type Job, JobQueues, UnrecoverableError } from '@sprout/platform';
import { analyzeSms } from '@sprout/sms';
import { WaitingChildrenError } from 'bullmq';
import { DataSource } from 'typeorm';
import { type Answer, AnsweringService } from '../answering/answering.service';
import { ConversationHistoryService } from '../answering/conversation-history.service';
import { type GardenerContext } from '../answering/system-prompt';
import { type AiResponderConfig } from '../config';
import { type KnownLocation, type LocationPatch } from '../location/location-rules';
import { type LocationReading, LocationService } from '../location/location.service';
import { MediaService } from '../media/media.service';
import { type CommandOutcome } from '../profile/profile-commands';
import { learnProfile } from '../profile/profile-learning';
import { type MessageInsights, ProfileService, USER_SENTIMENT_WINDOW } from '../profile/profile.service';
import { SpendingService } from '../spending/spending.service';
import { SummariesService } from '../summaries/summaries.service';
import { composeReply } from './compose-reply';
import { type SenderLimitHit, SenderLimits, limitNotice } from './sender-limits';

/** What an MMS that carries only a picture asks (the same text the simulator sends for an image alone). */
const IMAGE_ONLY_QUESTION = 'What can you tell me about this image?';

/** With a photo attached, only these findings stop a message from reaching the model. */
const BLOCKING_WITH_MEDIA = new Set<ValidationResponseType>(['safety_concern', 'spam']);

/** The reply before it is recorded: its text and everything the transaction stores with it. */
interface Draft {
  kind: MessageKind;
  body: string;
  /** Set when the fallback chain answered (step 6). */
  answer: Answer | null;
  insights: MessageInsights;
  reading: LocationReading | null;
  command: CommandOutcome | null;
  /** The profile this text teaches, learned once from `learnedFrom` (the user's as read at step 1). */
  learned: UserProfile;
  learnedFrom: UserProfile;
}

/** The line a due survey adds to a reply (the summaries leave it out of a conversation's gist). */
const surveyLineOf = (surveyUrl: string): string => `Quick survey: ${surveyUrl}`;

/** Same JSON (profiles are JSON columns): whether a locked row still holds what the draft learned from. */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const knownLocationOf = (user: User): KnownLocation => ({
  zipCode: user.zipCode,
  city: user.city,
  state: user.state,
  region: user.region,
  hardinessZone: user.hardinessZone,
});

/** Longest answer to ask a model for: the segment budget less room for a ZIP question or survey link. */
const answerCharsFor = (segments: number): number =>
  Math.max(140, (segments === 1 ? 160 : 153 * segments) - 80);

/** Input processing's context note (the "[Context: ...]" it appends), or null when it added none. */
const contextNoteOf = (processed: ProcessingResult): string | null => {
  const { originalMessage, processedMessage, skipProcessing } = processed.processing;
  if (skipProcessing || processedMessage === originalMessage) return null;
  return processedMessage.slice(originalMessage.trim().length).trim() || null;
};

/**
 * The reply pipeline, one inbound message at a time:
 * 1 user (opted out: nothing; over a per-sender reply limit: one notice, then nothing),
 * 2 conversation, 3 location onboarding, 4 validation (templates, no model), 5 input processing,
 * 6 the fallback chain, 7 SMS fitting, 8 survey link, record and enqueue, 9 summary re-scheduled.
 *
 * Idempotent and crash-safe: the reply's id derives from the inbound id, and everything the reply
 * changes (reply row, llm_calls link, profile, location, counters, sentiment, survey delivery) is
 * written in one transaction under the user's row lock. A job that dies before that commit is
 * retried from scratch (model calls it made stay in llm_calls); one that dies after it finds the
 * reply and only repeats the idempotent enqueues.
 */
@Injectable()
export class PipelineService implements OnModuleInit {
  private readonly logger = new Logger(PipelineService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
    private readonly location: LocationService,
    private readonly profile: ProfileService,
    private readonly answering: AnsweringService,
    private readonly history: ConversationHistoryService,
    private readonly summaries: SummariesService,
    private readonly spending: SpendingService,
    private readonly media: MediaService,
    private readonly senderLimits: SenderLimits,
  ) {}

  /**
   * Loads the zone table and the offline advisor's search index now rather than on the first
   * message (the index alone takes seconds to build). The language model (about 70 MB of RSS) is
   * left to load on first use: validation asks it only about texts its word lists cannot place
   * (other scripts, other languages' words), which few texts are.
   */
  onModuleInit(): void {
    configureZoneTable(this.config.hardinessZonesPath);
    if (!preloadZoneTable())
      this.logger.warn('Hardiness zone table not found: zones come from ZIP prefixes only');
    preloadAdvisor();
  }

  /**
   * Answers one inbound message. `job` (the sms.inbound job) lets an MMS wait for its image
   * analysis; `now` is when it is answered (the sender's limits count by it). Whatever it answers
   * settles the text's awaiting_replies row (the reply's statement deletes it; a deliberate
   * silence, here): only a job that throws leaves it to the inbound sweep.
   */
  async reply(inboundMessageId: string, job?: Job, now: Date = new Date()): Promise<SmsInboundJobResult> {
    const result = await this.answer(inboundMessageId, job, now);
    if (result.outcome !== 'replied') await settleAwaitingReply(this.dataSource, inboundMessageId);
    return result;
  }

  private async answer(
    inboundMessageId: string,
    job: Job | undefined,
    now: Date,
  ): Promise<SmsInboundJobResult> {
    // Step 1: the user (sms-gateway found or created them with the message), and whether the reply
    // exists already, in one statement.
    const loaded = await inboundToAnswer(this.dataSource, inboundMessageId);
    const inbound = loaded?.inbound;
    if (loaded === null || inbound === undefined || inbound.user === undefined || inbound.user === null) {
      this.logger.warn(`Inbound message ${inboundMessageId} no longer exists`);
      return { outcome: 'missing', replyMessageId: null };
    }
    if (inbound.direction !== 'inbound')
      throw new UnrecoverableError(`Message ${inboundMessageId} is not inbound`);
    const user = inbound.user;
    // Derived once by the read, from the id as stored.
    const replyId = loaded.replyId;
    const replied = loaded.replied;

    if (replied) {
      await this.afterReply(replyId, inbound.conversationId);
      return { outcome: 'already-replied', replyMessageId: replyId };
    }
    if (user.optedOut) return { outcome: 'opted-out', replyMessageId: null };
    if (inbound.kind === 'consent') {
      // The intake read it as a keyword and answered it where it recorded it; the model never sees it.
      this.logger.warn(`Inbound ${inbound.id} is a consent keyword; it was answered where recorded`);
      return { outcome: 'already-replied', replyMessageId: null };
    }
    // Before any paid call (image analysis included). Test users (the simulator) are not limited.
    if (!user.isTestUser && !inbound.isTestUser) {
      const hit = await this.senderLimits.admit(user.id, inbound.id, now);
      if (hit !== null) return this.refuse(inbound, replyId, hit, now);
    }
    if (job !== undefined && (await this.media.awaitAnalysis(job, inbound))) {
      // BullMQ runs this job again once the image.analyze children have finished.
      throw new WaitingChildrenError();
    }

    const draft = await this.draft(inbound, user, now);
    const outcome = await this.record(inbound, replyId, draft, now);
    if (outcome === 'missing') return { outcome: 'missing', replyMessageId: null };
    if (outcome === 'opted-out') return { outcome: 'opted-out', replyMessageId: null };
    // Step 8 (send) and step 9: both idempotent, so a retry after a crash here repeats them safely.
    await this.afterReply(replyId, inbound.conversationId);
    return { outcome, replyMessageId: replyId };
  }

  /**
   * A text over its sender's limit: the first of the stretch gets the notice (recorded in the same
   * transaction as the refusal, so exactly one text of a stretch gets it), the rest nothing.
   */
  private async refuse(
    inbound: Message,
    replyId: string,
    hit: SenderLimitHit,
    now: Date,
  ): Promise<SmsInboundJobResult> {
    const noticed = await this.dataSource.transaction(async (manager) => {
      if (!(await this.senderLimits.refuse(manager, inbound.userId, hit, now))) return false;
      const content = limitNotice(hit.until.getTime() - now.getTime());
      const { encoding, segments } = analyzeSms(content);
      await recordOutbound(manager, {
        id: replyId,
        userId: inbound.userId,
        conversationId: inbound.conversationId,
        inReplyTo: inbound.id,
        content,
        kind: 'system',
        encoding,
        segments,
      });
      return true;
    });
    if (!noticed) return { outcome: 'rate-limited', replyMessageId: null };
    await this.queues.enqueue('sms.outbound', { messageId: replyId });
    return { outcome: 'replied', replyMessageId: replyId };
  }

  private async afterReply(replyId: string, conversationId: string): Promise<void> {
    await this.queues.enqueue('sms.outbound', { messageId: replyId });
    await this.summaries.schedule(conversationId);
  }

  /** Steps 2-6: everything up to the reply text, with no writes except llm_calls. */
  private async draft(inbound: Message, user: User, now: Date): Promise<Draft> {
    // Step 2: the conversation is the one sms-gateway filed the message under (touchConversation).
    const hasMedia = inbound.media.length > 0;
    // What one job reads and asks the model about is bounded (an SMS's length), whatever was stored.
    const content = analysisWindow(inbound.content).trim();
    const text = content === '' && hasMedia ? IMAGE_ONLY_QUESTION : content;
    const known = knownLocationOf(user);
    // Read once: validation, location, profile, processing and the advisor's search share it.
    const analysis = analyzeText(text);
    const insights = this.profile.read(analysis);
    // What this text teaches about the gardener, learned once: the prompt's context and the stored profile.
    const learned = learnProfile(user.profile, insights.signals, insights.topics, null);
    // The conversation so far: a follow-up in a gardening conversation is never refused as off-topic.
    const history = await this.history.load(inbound);
    const contextOf = (location: KnownLocation, profile: UserProfile): ProcessingContext => ({
      zip_code: location.zipCode,
      region: location.region,
      hardiness_zone: location.hardinessZone,
      soil_type: profile.soilType ?? null,
      experience_level: profile.experienceLevel ?? null,
      conversation: gardenerMessages(history.turns),
    });

    // Validation reads where the gardener is and the conversation, not the profile: read once here,
    // again only if this text changes where they are.
    const first = contextOf(known, user.profile);
    const validation = validateInContext(analysis, first, now);
    const responseType: ValidationResponseType =
      hasMedia && !BLOCKING_WITH_MEDIA.has(validation.responseType)
        ? 'gardening_question'
        : validation.responseType;

    // Step 3: location onboarding.
    const reading = this.location.read(
      analysis,
      { ...known, locationRefused: user.locationRefused },
      responseType,
      inbound.locationHint,
    );
    const location: KnownLocation = { ...known, ...this.location.patchFor(known, reading) };
    const draft = { insights, reading, command: null, answer: null, learned, learnedFrom: user.profile };

    // Step 4: answers that need no model.
    if (responseType === 'command') {
      const command = this.profile.command(text);
      if (command !== null) return { ...draft, kind: 'command', body: command.reply, command, reading: null };
    }
    if (responseType === 'location_reply') {
      const onboarding = this.location.replyFor(reading, location);
      if (onboarding !== null) return { ...draft, kind: 'onboarding', body: onboarding };
    }
    const template = responseType === validation.responseType ? templateReplyFor(validation) : null;
    // Small talk ("hi", "thanks") is a valid message answered by template: a reply like any other.
    // An invalid message (spam, off-topic...) teaches nothing about the gardener or where they are.
    if (template !== null) {
      return validation.isValid
        ? { ...draft, kind: 'reply', body: template }
        : { ...draft, kind: 'validation', body: template, reading: null };
    }

    // Step 5: input processing, once, with what this message taught us (its location and profile).
    const profile = learned;
    const context = contextOf(location, profile);
    const sameLocation =
      context.zip_code === first.zip_code &&
      context.region === first.region &&
      context.hardiness_zone === first.hardiness_zone;
    const processed = processMessage(analysis, context, now, sameLocation ? validation : undefined);
    const gardener: GardenerContext = {
      ...location,
      locationRefused: user.locationRefused || reading.refused,
      profile,
    };

    // Step 6: the fallback chain.
    const answer = await this.answering.answer({
      question: text,
      analysis,
      messageContext: contextNoteOf(processed),
      imageAnalysis: inbound.imageAnalysis,
      gardener,
      history,
      testUserModel: user.isTestUser ? user.testUserModel : null,
      owner: { userId: user.id, conversationId: inbound.conversationId, isTestUser: inbound.isTestUser },
      maxChars: answerCharsFor(this.config.smsMaxSegments),
      now,
    });
    return { ...draft, kind: 'reply', body: answer.text, answer };
  }

  /**
   * Steps 7-8: the reply planned (pure: `plan`) on the user's locked row, then written once
   * (recordReply, one transaction): the reply with its counters and what it changes on the user,
   * the conversation and the inbound, its model call's link or its template tier's row, the survey
   * delivery.
   */
  private async record(
    inbound: Message,
    replyId: string,
    draft: Draft,
    now: Date,
  ): Promise<ReplyRecordOutcome> {
    return recordReply(this.dataSource, this.spending, {
      inbound,
      sentiment: draft.insights.sentiment,
      moodWindow: USER_SENTIMENT_WINDOW,
      // Never on a reply to an invalid message.
      withSurvey: draft.kind !== 'validation',
      plan: (state) => this.plan(inbound, replyId, draft, state, now),
    });
  }

  /** The reply as written, from the draft and the locked state: no reads, no writes. */
  private plan(inbound: Message, replyId: string, draft: Draft, state: ReplyState, now: Date): PlannedReply {
    const { user, conversation, survey } = state;
    // Location, re-applied to the locked row so a concurrent change is not overwritten.
    const known = knownLocationOf(user);
    const locationPatch: LocationPatch =
      draft.command !== null
        ? draft.command.userPatch
        : draft.reading === null
          ? {}
          : this.location.patchFor(known, draft.reading);
    const location = { ...known, ...locationPatch };
    const locationRefused =
      draft.command?.userPatch.locationRefused ??
      (locationPatch.zipCode ? false : user.locationRefused || draft.reading?.refused === true);

    // Extras: the ZIP question (once, after an answer from the chain) and a due survey link.
    const extras: string[] = [];
    const mayAsk =
      draft.answer !== null &&
      draft.answer.tier !== 'minimal' &&
      this.location.shouldAsk({
        zipCode: location.zipCode,
        locationRefused,
        locationAskedAt: user.locationAskedAt,
      });
    const alreadyAsks = /\bzip\b/i.test(draft.body);
    if (mayAsk && !alreadyAsks) extras.push(this.location.question);
    const surveyLine = survey === null ? null : surveyLineOf(survey.surveyUrl);
    if (surveyLine !== null) extras.push(surveyLine);
    // The one-time offer of garden tips, when the conversation is about a crop with a task ahead
    // (a survey link due goes alone: it is not kept waiting for the offer).
    const tipsOffer =
      draft.kind === 'reply' &&
      surveyLine === null &&
      draft.answer !== null &&
      draft.answer.tier !== 'minimal'
        ? tipsOfferFor({
            tipsStatus: user.tipsStatus,
            optedOut: user.optedOut,
            zipCode: location.zipCode ?? null,
            inboundText: inbound.content,
            replyText: draft.body,
            now,
          })
        : null;
    if (tipsOffer !== null) extras.push(tipsOffer);
    const composed = composeReply(draft.body, extras, this.config.smsMaxSegments);
    const offered = tipsOffer !== null && composed.included.includes(tipsOffer);
    const asked = mayAsk && (alreadyAsks || composed.included.includes(this.location.question));
    const { encoding, segments } = analyzeSms(composed.text);
    const answer = draft.answer;

    // Sentiment and topics of the inbound, rolled into the conversation and the user; the profile,
    // learned once in the draft unless a concurrent reply changed it since (then learned on the row).
    const rollup = this.profile.rollup(state.moods);
    const learned =
      draft.kind === 'validation'
        ? user.profile
        : this.profile.withStyle(
            sameJson(user.profile, draft.learnedFrom)
              ? draft.learned
              : learnProfile(user.profile, draft.insights.signals, draft.insights.topics, null),
            rollup,
            draft.command?.profilePatch,
          );
    const profile: UserProfile = location.region ? { ...learned, region: location.region } : learned;

    return {
      message: {
        id: replyId,
        userId: user.id,
        conversationId: inbound.conversationId,
        // Ordered after the inbound; its response time (model calls and image analysis included)
        // is measured from the inbound's arrival.
        inReplyTo: inbound.id,
        content: composed.text,
        kind: draft.kind,
        encoding,
        segments,
        tokens: answer === null ? 0 : answer.promptTokens + answer.completionTokens,
        cost: answer?.cost ?? 0,
        modelUsed: answer?.author ?? null,
        answered: { sentiment: draft.insights.sentiment, topics: draft.insights.topics },
        user: {
          ...locationPatch,
          locationRefused,
          locationAskedAt: asked ? now : user.locationAskedAt,
          profile,
          profileCompletionScore: this.profile.completionScore(location, profile),
          averageSentiment: rollup.userSentiment,
          ...(offered ? { tipsStatus: 'offered' as const, tipsStatusAt: now } : {}),
        },
        // A reply reopens a conversation summarised in the meantime; the summary is re-scheduled.
        conversation: {
          topics: this.profile.conversationTopics(conversation.topics, draft.insights.topics),
          sentiment: rollup.conversationSentiment,
          region: conversation.region ?? location.region,
          experienceLevel: profile.experienceLevel ?? conversation.experienceLevel,
        },
        // The model call that answered is linked to the reply in the same statement.
        llmCallId: answer?.callId ?? null,
      },
      // A template or minimal-tier answer: no model call wrote its llm_calls row.
      unpaidCall:
        answer !== null && answer.callId === null
          ? {
              userId: inbound.userId,
              conversationId: inbound.conversationId,
              purpose: 'reply',
              model: null,
              promptTokens: 0,
              completionTokens: 0,
              latencyMs: 0,
              tier: answer.tier,
              error: null,
            }
          : null,
      carriesSurvey: surveyLine !== null && composed.included.includes(surveyLine),
    };
  }
}
