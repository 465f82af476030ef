import {
  AwaitingReply,
  type InboundMessageInput,
  Message,
  awaitingRepliesBetween,
  claimAwaitingReplyAttempt,
  expireAwaitingReplies,
  recordInbound,
  settleAwaitingReply,
} from '@sprout/domain';
import { recordReplyTo } from '@sprout/testing';
import { HELP, STOP } from './consents';
import { useTestDatabase } from './test-database';

const IDLE = 6 * 60 * 60 * 1000;

// The awaiting-replies outbox: written by record_inbound() only when the caller owes an answer,
// settled by the reply's statement, by settleAwaitingReply and, for a keyword's confirmation, by
// its send. What the inbound sweep reads, so what it may ever answer.
describe('awaiting_replies', () => {
  let phoneCounter = 0;
  const nextPhone = () => `+1503555${String(100 + (phoneCounter++ % 100)).padStart(4, '0')}`;
  let sidCounter = 0;

  const ds = useTestDatabase();
  const text = async (content: string, extra: Partial<InboundMessageInput> = {}) => {
    const record = await recordInbound(ds(), {
      from: { phoneNumber: nextPhone() },
      content,
      providerSid: `SMoutbox${String(++sidCounter).padStart(26, '0')}`,
      idleTimeoutMs: IDLE,
      awaitingReply: true,
      ...extra,
    });
    if (record === null) throw new Error('not recorded');
    return record;
  };
  const rowOf = (messageId: string) => ds().getRepository(AwaitingReply).findOneBy({ messageId });
  const reply = (inboundId: string) => recordReplyTo(ds(), inboundId);

  it('holds a text the caller owes an answer, dated as the text, and nothing for anyone else', async () => {
    const owed = await text('When do I plant garlic?');
    expect(await rowOf(owed.messageId)).toMatchObject({
      queue: 'sms.inbound',
      createdAt: owed.createdAt,
      attempts: 0,
      lastAttemptAt: null,
    });
    const at = new Date(Date.now() - 60_000);
    const dated = await text('And onions?', { at });
    expect((await rowOf(dated.messageId))?.createdAt).toEqual(at);

    // An import, a fixture, an image test: not owed anything.
    const imported = await text('Imported from the old system', { awaitingReply: undefined });
    expect(await rowOf(imported.messageId)).toBeNull();
  });

  it('writes no second row for a repeated MessageSid', async () => {
    const first = await text('Is it too late for peas?');
    const again = await recordInbound(ds(), {
      from: { phoneNumber: nextPhone() },
      content: 'Is it too late for peas?',
      providerSid: `SMoutbox${String(sidCounter).padStart(26, '0')}`,
      idleTimeoutMs: IDLE,
      awaitingReply: true,
    });
    expect(again).toMatchObject({ created: false, messageId: first.messageId });
    expect(await ds().getRepository(AwaitingReply).countBy({ messageId: first.messageId })).toBe(1);
  });

  it("holds a keyword's confirmation, not the keyword; a STOP settles the sender's texts; an opted-out sender is owed nothing", async () => {
    const phone = nextPhone();
    const before = await text('How often do I water basil?', { from: { phoneNumber: phone } });
    expect(await rowOf(before.messageId)).not.toBeNull();
    const stop = await text('STOP', { from: { phoneNumber: phone }, consent: STOP });
    const confirmation = stop.consent?.replyMessageId ?? '';
    expect(confirmation).not.toBe('');
    expect(await rowOf(stop.messageId)).toBeNull();
    // The STOP settles what the sender was still owed: nothing of it is sent, even after a START.
    expect(await rowOf(before.messageId)).toBeNull();
    expect(await rowOf(confirmation)).toMatchObject({ queue: 'sms.outbound', attempts: 0 });

    // Opted out: a text gets no answer, a second STOP no second confirmation.
    const after = await text('What about my roses?', { from: { phoneNumber: phone } });
    expect(await rowOf(after.messageId)).toBeNull();
    const stopAgain = await text('STOP', { from: { phoneNumber: phone }, consent: STOP });
    expect(stopAgain.consent).toEqual({ replyMessageId: null });
    expect(await rowOf(stopAgain.messageId)).toBeNull();
  });

  it("is settled by the reply's statement, also when the reply was written before", async () => {
    const owed = await text('Why are my tomato leaves curling?');
    expect(await reply(owed.messageId)).not.toBeNull();
    expect(await rowOf(owed.messageId)).toBeNull();

    // A row left by a crash between the reply and its settle (or written by hand): a repeated reply settles it.
    await ds().query(`INSERT INTO awaiting_replies (message_id, queue) VALUES ($1, 'sms.inbound')`, [
      owed.messageId,
    ]);
    expect(await reply(owed.messageId)).toBeNull();
    expect(await rowOf(owed.messageId)).toBeNull();
  });

  it('is settled by settleAwaitingReply (a deliberate silence), once', async () => {
    const owed = await text('Buy cheap pills');
    expect(await settleAwaitingReply(ds(), owed.messageId)).toBe(true);
    expect(await settleAwaitingReply(ds(), owed.messageId)).toBe(false);
    expect(await rowOf(owed.messageId)).toBeNull();
  });

  it('is settled for a confirmation once its send is over, not while it is being sent', async () => {
    const messages = ds().getRepository(Message);
    const confirmationOf = async () => {
      const help = await text('HELP', { consent: HELP });
      return help.consent?.replyMessageId ?? '';
    };

    const sent = await confirmationOf();
    await messages.update({ id: sent }, { status: 'sending' });
    expect(await rowOf(sent)).not.toBeNull();
    // Twilio answers a send with status queued: the sid says it was sent.
    await messages.update(
      { id: sent },
      { status: 'queued', providerSid: 'SMsentconfirmation000000000000001' },
    );
    expect(await rowOf(sent)).toBeNull();

    const testUsers = await confirmationOf();
    await messages.update({ id: testUsers }, { status: 'delivered' });
    expect(await rowOf(testUsers)).toBeNull();

    const failed = await confirmationOf();
    await messages.update({ id: failed }, { status: 'failed', errorMessage: 'Not sent: opted out' });
    expect(await rowOf(failed)).toBeNull();
  });

  it('goes with its message', async () => {
    const owed = await text('Delete me');
    await ds().getRepository(Message).delete({ id: owed.messageId });
    expect(await rowOf(owed.messageId)).toBeNull();
  });

  it('lists rows by age, claims one attempt at a time, and expires the oldest', async () => {
    await ds().query(`DELETE FROM awaiting_replies`);
    const now = Date.now();
    const old = await text('Three hours ago', { at: new Date(now - 3 * 60 * 60_000 - 1000) });
    const due = await text('A minute ago', { at: new Date(now - 60_000) });
    const fresh = await text('Just now');

    const between = await awaitingRepliesBetween(
      ds(),
      new Date(now - 3 * 60 * 60_000),
      new Date(now - 30_000),
      10,
    );
    expect(between.map((r) => r.messageId)).toEqual([due.messageId]);
    expect(between[0]).toMatchObject({ queue: 'sms.inbound', attempts: 0, createdAt: due.createdAt });

    const at = new Date();
    const quietSince = new Date(at.getTime() - 30_000);
    expect(await claimAwaitingReplyAttempt(ds(), due.messageId, 0, at, quietSince)).toBe(1);
    // A second sweep that read the row before the first claimed it takes nothing.
    expect(await claimAwaitingReplyAttempt(ds(), due.messageId, 0, at, quietSince)).toBeNull();
    // Nor does one that read it just after the claim: the redriven job gets its time first.
    expect(await claimAwaitingReplyAttempt(ds(), due.messageId, 1, at, quietSince)).toBeNull();
    expect(
      await awaitingRepliesBetween(ds(), new Date(now - 3 * 60 * 60_000), new Date(now - 30_000), 10),
    ).toEqual([]);
    expect(await rowOf(due.messageId)).toMatchObject({ attempts: 1, lastAttemptAt: at });
    // Once that time has passed, the next attempt may be claimed.
    const later = new Date(at.getTime() + 31_000);
    expect(
      await claimAwaitingReplyAttempt(ds(), due.messageId, 1, later, new Date(later.getTime() - 30_000)),
    ).toBe(2);

    const expired = await expireAwaitingReplies(ds(), new Date(now - 3 * 60 * 60_000), 10);
    expect(expired.map((r) => r.messageId)).toEqual([old.messageId]);
    expect(await rowOf(old.messageId)).toBeNull();
    expect(await rowOf(fresh.messageId)).not.toBeNull();
  });
});
