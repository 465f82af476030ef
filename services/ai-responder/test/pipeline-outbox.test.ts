// Every way the pipeline settles a text removes its awaiting_replies row, so the inbound sweep
// never redrives a text that was answered or deliberately left unanswered.
import { AwaitingReply, User } from '@sprout/domain';
import { answerComplianceKeyword } from '@sprout/sms';
import { useClosable } from '@sprout/testing';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { newPhone, startHarness, storeInbound } from './harness';

describe('reply pipeline and the awaiting-replies outbox', () => {
  const h = useClosable(() => startHarness());

  const pipeline = () => h.responder.app.get(PipelineService);
  const awaiting = (messageId: string) =>
    h.db.dataSource.getRepository(AwaitingReply).existsBy({ messageId });

  it('settles a text with its reply', async () => {
    const inbound = await storeInbound(h.db, 'When should I plant tomatoes in 97201?');
    expect(await awaiting(inbound.id)).toBe(true);
    expect((await pipeline().reply(inbound.id)).outcome).toBe('replied');
    expect(await awaiting(inbound.id)).toBe(false);
  });

  it("settles a test user's text with its reply", async () => {
    const inbound = await storeInbound(h.db, 'When do I harvest potatoes?', { isTestUser: true });
    expect(await awaiting(inbound.id)).toBe(true);
    expect((await pipeline().reply(inbound.id)).outcome).toBe('replied');
    expect(await awaiting(inbound.id)).toBe(false);
  });

  it('settles the text of a user who opted out before it was answered', async () => {
    const inbound = await storeInbound(h.db, 'When do I prune roses?', { phone: newPhone() });
    await h.db.dataSource
      .getRepository(User)
      .update({ id: inbound.userId }, { optedOut: true, optedOutAt: new Date() });
    expect(await pipeline().reply(inbound.id)).toEqual({ outcome: 'opted-out', replyMessageId: null });
    expect(await awaiting(inbound.id)).toBe(false);
  });

  it('settles a keyword that reached it (keywords are answered where they are recorded)', async () => {
    const help = await storeInbound(h.db, 'HELP', {
      consent: answerComplianceKeyword('HELP', 'help@sprout.example') ?? undefined,
    });
    // Left behind as by a worker from before the outbox.
    await h.db.dataSource.getRepository(AwaitingReply).insert({ messageId: help.id, queue: 'sms.inbound' });
    expect(await pipeline().reply(help.id)).toEqual({ outcome: 'already-replied', replyMessageId: null });
    expect(await awaiting(help.id)).toBe(false);
  });

  it('settles a text answered before (a repeated job)', async () => {
    const inbound = await storeInbound(h.db, 'How often should I water my basil?');
    expect((await pipeline().reply(inbound.id)).outcome).toBe('replied');
    // Left behind as by a worker from before the outbox.
    await h.db.dataSource
      .getRepository(AwaitingReply)
      .insert({ messageId: inbound.id, queue: 'sms.inbound' });
    expect((await pipeline().reply(inbound.id)).outcome).toBe('already-replied');
    expect(await awaiting(inbound.id)).toBe(false);
  });
});
