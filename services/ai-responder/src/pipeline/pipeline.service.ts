import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { SmsInboundJobResult } from '@sprout/contracts';
import {
  Conversation,
  Message,
  type MessageKind,
  User,
  type UserProfile,
  recordOutbound,
  replyIdFor,
  settleAwaitingReply,
} from '@sprout/domain';
import {
  type ProcessingContext,
  type ProcessingResult,
  type ValidationResponseType,
  analysisWindow,
  configureZoneTable,
  gardenerMessages,
  preloadLanguageDetector,
  preloadZoneTable,
  processMessage,
  templateReplyFor,
  tipsOfferFor,
} from '@sprout/gardening';
import { CONFIG, type Job, JobQueues, UnrecoverableError } from '@sprout/platform';
import { analyzeSms, parseComplianceKeyword } from '@sprout/sms';
import { WaitingChildrenError } from 'bullmq';
import { DataSource, type EntityManager } from 'typeorm';
import { type Answer, AnsweringService } from '../answering/answering.service';
import { ConversationHistoryService } from '../answering/conversation-history.service';
import { type GardenerContext } from '../answering/system-prompt';
import { type AiResponderConfig } from '../config';
import { type KnownLocation, type LocationPatch } from '../location/location-rules';
import { type LocationReading, LocationService } from '../location/location.service';
import { MediaService } from '../media/media.service';
import { type CommandOutcome } from '../profile/profile-commands';
import { learnProfile } from '../profile/profile-learning';
import { type MessageInsights, ProfileService } from '../profile/profile.service';
import { SpendingService } from '../spending/spending.service';
import { SummariesService } from '../summaries/summaries.service';
import { SurveysService } from '../surveys/surveys.service';
import { composeReply } from './compose-reply';
import { type SenderLimitHit, SenderLimits, limitNotice } from './sender-limits';

/** What an MMS that carries only a picture asks (spec 001: the simulator's image-only text). */
export const IMAGE_ONLY_QUESTION = 'What can you tell me about this image?';

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
}

type RecordOutcome = 'replied' | 'already-replied' | 'opted-out' | 'missing';

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
 * The reply pipeline (ARCHITECTURE §5), one inbound message at a time:
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
    private readonly surveys: SurveysService,
    private readonly summaries: SummariesService,
    private readonly spending: SpendingService,
    private readonly media: MediaService,
    private readonly senderLimits: SenderLimits,
  ) {}

  /** Loads the zone table and language model now rather than on the first message. */
  onModuleInit(): void {
    configureZoneTable(this.config.hardinessZonesPath);
    if (!preloadZoneTable())
      this.logger.warn('Hardiness zone table not found: zones come from ZIP prefixes only');
    preloadLanguageDetector();
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
    const {
      entities: [inbound],
      raw: [loaded],
    } = await this.dataSource
      .getRepository(Message)
      .createQueryBuilder('m')
      .leftJoinAndSelect('m.user', 'u')
      .addSelect('EXISTS (SELECT 1 FROM "messages" "r" WHERE "r"."id" = :replyId)', 'replied')
      .where('m.id = :id', { id: inboundMessageId, replyId: replyIdFor(inboundMessageId) })
      .getRawAndEntities<{ replied: boolean }>();
    if (inbound === undefined || inbound.user === undefined || inbound.user === null) {
      this.logger.warn(`Inbound message ${inboundMessageId} no longer exists`);
      return { outcome: 'missing', replyMessageId: null };
    }
    if (inbound.direction !== 'inbound')
      throw new UnrecoverableError(`Message ${inboundMessageId} is not inbound`);
    const user = inbound.user;
    const replyId = replyIdFor(inbound.id);
    const replied =
      inbound.id === inboundMessageId
        ? loaded?.replied === true
        : await this.dataSource.getRepository(Message).existsBy({ id: replyId });

    if (replied) {
      await this.afterReply(replyId, inbound.conversationId);
      return { outcome: 'already-replied', replyMessageId: replyId };
    }
    if (user.optedOut) return { outcome: 'opted-out', replyMessageId: null };
    const keyword = parseComplianceKeyword(inbound.content);
    if (keyword !== null) {
      // Keywords are answered where they are recorded (sms-gateway, the simulator); the model never sees them.
      this.logger.warn(
        `Inbound ${inbound.id} is a consent keyword (${keyword}); it is answered where recorded`,
      );
      return keyword === 'opt_out'
        ? { outcome: 'opted-out', replyMessageId: null }
        : { outcome: 'already-replied', replyMessageId: null };
    }
    // Before any paid call (image analysis included). Test users (the simulator) are not limited.
    if (!user.isTestUser && !inbound.isTestUser) {
      const hit = await this.senderLimits.admit(user.id, inbound.id, now);
      if (hit !== null) return this.refuse(inbound, hit, now);
    }
    if (job !== undefined && (await this.media.awaitAnalysis(job, inbound))) {
      // BullMQ runs this job again once the image.analyze children have finished.
      throw new WaitingChildrenError();
    }

    const draft = await this.draft(inbound, user, now);
    const outcome = await this.record(inbound, draft, now);
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
  private async refuse(inbound: Message, hit: SenderLimitHit, now: Date): Promise<SmsInboundJobResult> {
    const replyId = replyIdFor(inbound.id);
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
    const insights = this.profile.read(text);
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

    const validation = processMessage(text, contextOf(known, user.profile), now).validation;
    const responseType: ValidationResponseType =
      hasMedia && !BLOCKING_WITH_MEDIA.has(validation.responseType)
        ? 'gardening_question'
        : validation.responseType;

    // Step 3: location onboarding.
    const reading = this.location.read(
      text,
      { ...known, locationRefused: user.locationRefused },
      responseType,
      inbound.locationHint,
    );
    const location: KnownLocation = { ...known, ...this.location.patchFor(known, reading) };
    const draft = { insights, reading, command: null, answer: null };

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

    // Step 5: input processing with what this message taught us.
    const profile = learnProfile(user.profile, insights.signals, insights.topics, null);
    const processed = processMessage(text, contextOf(location, profile), now);
    const gardener: GardenerContext = {
      ...location,
      locationRefused: user.locationRefused || reading.refused,
      profile,
    };

    // Step 6: the fallback chain.
    const answer = await this.answering.answer({
      question: text,
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
   * Steps 7-8: fits the text, attaches what is due, and records it all in one transaction: the
   * reply, its counters and what it changes on the user, the conversation and the inbound
   * (recordOutbound, one statement), then the model call's link and the survey delivery.
   */
  private async record(inbound: Message, draft: Draft, now: Date): Promise<RecordOutcome> {
    const replyId = replyIdFor(inbound.id);
    return this.dataSource.transaction(async (manager): Promise<RecordOutcome> => {
      // The user's row, locked, then the conversation: read after the lock, so it holds what a
      // concurrent reply of the same user wrote (a join in the locking statement would return the
      // conversation as it was when that statement started waiting, and lose its topics).
      const user = await manager
        .createQueryBuilder(User, 'u')
        .where('u.id = :id', { id: inbound.userId })
        .setLock('pessimistic_write')
        .getOne();
      if (user === null) return 'missing';
      if (user.optedOut) return 'opted-out';
      const conversation = await manager.findOneBy(Conversation, { id: inbound.conversationId });
      if (conversation === null) return 'missing';

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

      // Extras: the ZIP question (once, after an answer from the chain) and a due survey link
      // (never on a reply to an invalid message).
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
      const survey =
        draft.kind === 'validation'
          ? null
          : await this.surveys.claimDue(manager, user, inbound.conversationId);
      const surveyLine = survey === null ? null : this.surveys.line(survey);
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

      // Sentiment and topics of the inbound, rolled into the conversation and the user; the profile.
      const rollup = await this.profile.rollupInsights(manager, inbound, draft.insights);
      const learned =
        draft.kind === 'validation'
          ? user.profile
          : this.profile.learn(user.profile, draft.insights, rollup, draft.command?.profilePatch);
      const profile: UserProfile = location.region ? { ...learned, region: location.region } : learned;

      const recorded = await recordOutbound(manager, {
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
      });
      if (recorded === null) return 'already-replied';

      if (answer !== null && answer.callId === null)
        await this.recordCall(manager, answer, replyId, inbound, recorded.isTestUser);
      if (survey !== null && surveyLine !== null && composed.included.includes(surveyLine)) {
        await this.surveys.markDelivered(manager, survey, {
          conversationId: inbound.conversationId,
          messageId: replyId,
        });
      }
      return 'replied';
    });
  }

  /** Writes the llm_calls row of a template or minimal-tier answer (no model call made one). */
  private async recordCall(
    manager: EntityManager,
    answer: Answer,
    replyId: string,
    inbound: Message,
    isTestUser: boolean,
  ): Promise<void> {
    await this.spending.recordUnpaid(
      {
        messageId: replyId,
        userId: inbound.userId,
        conversationId: inbound.conversationId,
        purpose: 'reply',
        model: null,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0,
        tier: answer.tier,
        error: null,
        isTestUser,
      },
      manager,
    );
  }
}
