import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import {
  MESSAGE_STATUSES,
  type Message,
  type MessageStatus,
  type StatusWrite,
  markStatusesRead,
  outboundBySids,
  sentOfConversation,
  staleSentMessages,
  updateStatusLocked,
  updateStatusesIfStill,
} from '@sprout/domain';
import {
  type SmsDeliveryStatus,
  type SmsProvider,
  type SmsStatusResult,
  isFailedStatus,
  nextStatus,
  parseDeliveryStatus,
  toSmsSendError,
} from '@sprout/sms';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { UNSUBSCRIBED_ERROR_CODE, logCarrierOptOut } from '../consent/carrier-opt-out';
import { SMS_PROVIDER } from '../sms-provider/sms-provider.module';

export interface StatusUpdate {
  providerSid: string;
  status: SmsDeliveryStatus;
  errorCode?: string | undefined;
  errorMessage?: string | undefined;
}

export type StatusOutcome = 'updated' | 'unchanged' | 'unknown-message';

export interface DeliveryCheckOutcome {
  /** Outbound messages whose provider status was read. */
  checked: number;
  /** Of those, messages whose stored status changed. */
  updated: number;
}

/** Provider statuses our messages table does not store, mapped to the nearest stored one. */
const toStoredStatus = (status: SmsDeliveryStatus): MessageStatus => {
  if (status === 'scheduled') return 'queued';
  if (status === 'canceled') return 'failed';
  return (MESSAGE_STATUSES as readonly string[]).includes(status) ? status : 'pending';
};

/** Outbound statuses that may still change, whose provider status a delivery check re-reads. */
const OPEN_STATUSES: MessageStatus[] = ['queued', 'accepted', 'sending', 'sent', 'pending'];

/** Twilio stops reporting on a message after a few days; older ones are no longer reconciled. */
const RECONCILE_MAX_AGE_MS = 3 * 24 * 60 * 60_000;
/** Messages re-read per scheduled run (the stalest first); the next run takes the rest. */
const RECONCILE_BATCH = 200;

/** Reads of a message's status before `apply` settles it under a lock instead. */
const CAS_ATTEMPTS = 3;
/** Callbacks applied by one read and one write at most. */
const BATCH_MAX = 200;

/** A callback waiting for its batch, with the error text it carries or was read for it. */
interface PendingUpdate {
  update: StatusUpdate;
  errorMessage: string | undefined;
  outcome: StatusOutcome | undefined;
  settle: (outcome: StatusOutcome) => void;
  fail: (error: unknown) => void;
}

/** What a provider status changes on a message (forward-only), or null when nothing. */
const statusChanges = (
  message: Message,
  update: StatusUpdate,
  errorMessage: string | undefined,
): Partial<Message> | null => {
  const current = parseDeliveryStatus(message.status) ?? 'pending';
  const next = nextStatus(current, update.status);
  if (next === current) return null;
  const now = new Date();
  const changes: Partial<Message> = { status: toStoredStatus(next) };
  if ((next === 'sent' || next === 'delivered' || next === 'read') && message.sentAt === null)
    changes.sentAt = now;
  if ((next === 'delivered' || next === 'read') && message.deliveredAt === null) changes.deliveredAt = now;
  if (isFailedStatus(next)) {
    changes.errorCode = update.errorCode ?? message.errorCode;
    changes.errorMessage = errorMessage ?? message.errorMessage ?? (next === 'canceled' ? 'Canceled' : null);
  }
  return changes;
};

@Injectable()
export class DeliveryStatusService {
  private readonly logger = new Logger(DeliveryStatusService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  private pending: PendingUpdate[] = [];
  private flushing = false;

  /**
   * Applies a provider status forward-only (a late "sent" after "delivered" changes nothing).
   * Callbacks arriving while a batch is being written wait and go in the next one: per batch one
   * read of its messages, then one write of every change only where the status is still the one
   * read (compare and set), again from a new read for those a concurrent callback or the send
   * changed meanwhile. Error 21610 (the recipient opted out at the carrier) opts the user out, in
   * one transaction with the status under a row lock.
   */
  async apply(update: StatusUpdate): Promise<StatusOutcome> {
    return this.applyRead(update, await this.errorMessageOf(update));
  }

  /**
   * `apply` for callbacks in their order of arrival: their error texts are read first, so a
   * callback waiting for its text is not overtaken by a later one of the same message.
   */
  async applyInOrder(updates: readonly StatusUpdate[]): Promise<StatusOutcome[]> {
    const texts = await Promise.all(updates.map((update) => this.errorMessageOf(update)));
    return Promise.all(updates.map((update, index) => this.applyRead(update, texts[index])));
  }

  private async errorMessageOf(update: StatusUpdate): Promise<string | undefined> {
    if (update.errorMessage !== undefined) return update.errorMessage;
    return isFailedStatus(update.status) && update.errorCode !== undefined
      ? this.providerErrorMessage(update.providerSid)
      : undefined;
  }

  /** Queues an update whose error text is known for the next batch write (or the opt-out path). */
  private applyRead(update: StatusUpdate, errorMessage: string | undefined): Promise<StatusOutcome> {
    if (update.errorCode === UNSUBSCRIBED_ERROR_CODE) return this.applyWithOptOut(update, errorMessage);
    return new Promise<StatusOutcome>((settle, fail) => {
      this.pending.push({ update, errorMessage, outcome: undefined, settle, fail });
      if (!this.flushing) void this.flush();
    });
  }

  /** Writes the waiting callbacks batch after batch until none wait (one flush runs at a time). */
  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, BATCH_MAX);
        try {
          await this.applyBatch(batch);
        } catch (error) {
          for (const entry of batch) if (entry.outcome === undefined) entry.fail(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async applyBatch(batch: PendingUpdate[]): Promise<void> {
    let open = batch;
    for (let attempt = 0; attempt < CAS_ATTEMPTS && open.length > 0; attempt++) {
      const bySid = new Map<string, PendingUpdate[]>();
      for (const entry of open) {
        const same = bySid.get(entry.update.providerSid);
        if (same === undefined) bySid.set(entry.update.providerSid, [entry]);
        else same.push(entry);
      }
      const messages = await outboundBySids(this.dataSource, [...bySid.keys()]);
      const found = new Map(messages.map((message) => [message.providerSid, message]));
      const writes: StatusWrite[] = [];
      const outcomes = new Map<PendingUpdate, StatusOutcome>();
      const waiting = new Map<string, PendingUpdate[]>();
      for (const [sid, entries] of bySid) {
        const message = found.get(sid);
        if (message === undefined) {
          for (const entry of entries) outcomes.set(entry, 'unknown-message');
          continue;
        }
        // Callbacks of one message in one batch: each applied to the state the one before left.
        let state = message;
        for (const entry of entries) {
          const changes = statusChanges(state, entry.update, entry.errorMessage);
          outcomes.set(entry, changes === null ? 'unchanged' : 'updated');
          if (changes !== null) state = { ...state, ...changes };
        }
        if (state === message) continue;
        writes.push({
          id: message.id,
          expected: message.status,
          status: state.status,
          sentAt: state.sentAt,
          deliveredAt: state.deliveredAt,
          errorCode: state.errorCode,
          errorMessage: state.errorMessage,
        });
        waiting.set(message.id, entries);
      }
      const written = await updateStatusesIfStill(this.dataSource, writes);
      const raced = new Set<PendingUpdate>();
      for (const [id, entries] of waiting)
        if (!written.has(id)) for (const entry of entries) raced.add(entry);
      for (const [entry, outcome] of outcomes) {
        if (raced.has(entry)) continue;
        entry.outcome = outcome;
        entry.settle(outcome);
      }
      open = [...raced];
    }
    // Still racing after CAS_ATTEMPTS reads: settle them under the row lock, one by one.
    for (const entry of open) {
      const outcome = await this.applyWithOptOut(entry.update, entry.errorMessage);
      entry.outcome = outcome;
      entry.settle(outcome);
    }
  }

  /** `apply` under a row lock in one transaction, with the carrier opt-out (error 21610) if any. */
  private async applyWithOptOut(
    update: StatusUpdate,
    errorMessage: string | undefined,
  ): Promise<StatusOutcome> {
    const outcome = await updateStatusLocked(
      this.dataSource,
      update.providerSid,
      update.errorCode === UNSUBSCRIBED_ERROR_CODE,
      (message) => statusChanges(message, update, errorMessage),
    );
    if (outcome === null) return 'unknown-message';
    if (outcome.optedOut) logCarrierOptOut(outcome.userId);
    return outcome.written ? 'updated' : 'unchanged';
  }

  /**
   * Re-reads the provider status of a conversation's outbound messages that are not final yet
   * (the admin "Check Delivery Status" button) and applies it like a callback. A message the
   * provider does not know is skipped; an unreachable provider fails the job (it is retried).
   */
  async checkConversation(conversationId: string): Promise<DeliveryCheckOutcome> {
    return this.recheck(await sentOfConversation(this.dataSource, conversationId, OPEN_STATUSES));
  }

  /**
   * The scheduled reconciliation: re-reads from Twilio every reply of the last three days still
   * open (queued, sent...) whose status has not changed for `smsStatusStaleAfterMs`, as when its
   * callbacks were lost. Each is re-read again only after as long again as its age at the last
   * read (doubling intervals), so a carrier that never reports delivery costs a few reads.
   */
  async reconcileStale(): Promise<DeliveryCheckOutcome> {
    const stale = await staleSentMessages(this.dataSource, {
      statuses: OPEN_STATUSES,
      maxAgeMs: RECONCILE_MAX_AGE_MS,
      staleAfterMs: this.config.smsStatusStaleAfterMs,
      limit: RECONCILE_BATCH,
    });
    if (stale.length === 0) return { checked: 0, updated: 0 };
    const outcome = await this.recheck(stale);
    // Read now: the unchanged ones wait their (longer) turn again.
    await markStatusesRead(
      this.dataSource,
      stale.map((m) => m.id),
      OPEN_STATUSES,
    );
    if (outcome.updated > 0)
      this.logger.log(`Reconciled ${outcome.updated} of ${outcome.checked} stale reply statuses from Twilio`);
    return outcome;
  }

  private async recheck(open: Array<Pick<Message, 'id' | 'providerSid'>>): Promise<DeliveryCheckOutcome> {
    let checked = 0;
    let updated = 0;
    for (const message of open) {
      if (message.providerSid === null) continue;
      let remote: SmsStatusResult;
      try {
        remote = await this.provider.fetchStatus(message.providerSid);
      } catch (caught) {
        const error = toSmsSendError(caught);
        if (error.retryable) throw error;
        this.logger.warn(`Could not read the status of ${message.providerSid}: ${error.message}`);
        continue;
      }
      checked += 1;
      const outcome = await this.apply({
        providerSid: message.providerSid,
        status: remote.status,
        ...(remote.errorCode === null ? {} : { errorCode: String(remote.errorCode) }),
        ...(remote.errorMessage === null ? {} : { errorMessage: remote.errorMessage }),
      });
      if (outcome === 'updated') updated += 1;
    }
    return { checked, updated };
  }

  /** Status callbacks carry only ErrorCode; the provider's message resource has the text. */
  private async providerErrorMessage(providerSid: string): Promise<string | undefined> {
    try {
      return (await this.provider.fetchStatus(providerSid)).errorMessage ?? undefined;
    } catch (error) {
      this.logger.warn(
        `Could not read the error text of ${providerSid}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }
}
