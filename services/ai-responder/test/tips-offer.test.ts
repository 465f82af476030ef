// The one-time offer of garden tips in a reply: made when the conversation is about a crop with a
// task ahead and the gardener was never offered, then never again; a "no" right after it declines.
import { Message, User, consentToRecord, replyIdFor } from '@sprout/domain';
import { answerComplianceKeyword } from '@sprout/sms';
import { useClosable } from '@sprout/testing';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { newPhone, startHarness, storeInbound } from './harness';

// Early January: Portland's (97201) tomatoes are started indoors in mid-January.
const JAN_5 = new Date('2027-01-05T18:00:00Z');

describe('the tips offer in a reply', () => {
  const h = useClosable(() => startHarness());

  const ds = () => h.db.dataSource;
  const user = (id: string) => ds().getRepository(User).findOneByOrFail({ id });

  /** A Portland gardener's text, answered by the pipeline on the fixed clock. */
  const ask = async (
    phone: string,
    text: string,
    at = JAN_5,
  ): Promise<{ reply: Message; userId: string }> => {
    const inbound = await storeInbound(h.db, text, { phone, at });
    await ds().query(
      `UPDATE users SET zip_code = '97201', state = 'OR', region = 'Pacific Northwest' WHERE id = $1`,
      [inbound.userId],
    );
    await h.responder.app.get(PipelineService).reply(inbound.id, undefined, at);
    const reply = await ds()
      .getRepository(Message)
      .findOneByOrFail({ id: replyIdFor(inbound.id) });
    return { reply, userId: inbound.userId };
  };

  it('offers tips once, in a reply about a crop with a task ahead, within the segment budget', async () => {
    const phone = newPhone();
    const first = await ask(phone, 'When should I start my tomatoes?');
    expect(first.reply.content).toContain(
      "Want a text when it's time to start your tomatoes indoors? Reply TIPS",
    );
    expect(first.reply.segments).toBeLessThanOrEqual(3);
    expect((await user(first.userId)).tipsStatus).toBe('offered');

    const second = await ask(phone, 'How deep do I plant tomato seeds?', new Date(JAN_5.getTime() + 60_000));
    expect(second.reply.content).not.toContain('Reply TIPS');
  });

  it('makes no offer when the text names no crop', async () => {
    const { reply, userId } = await ask(newPhone(), 'My lawn has brown patches, what should I do?');
    expect(reply.content).not.toContain('Reply TIPS');
    expect((await user(userId)).tipsStatus).toBe('none');
  });

  it('takes a "no" right after the offer as declining it, and a "no" otherwise as an ordinary text', async () => {
    const phone = newPhone();
    const { userId } = await ask(phone, 'When should I start my tomatoes?');
    const no = answerComplianceKeyword('No thanks', 'help@example.com');
    const declined = await consentToRecord(ds(), { phoneNumber: phone }, no);
    expect(declined?.type).toBe('tips_decline');
    await storeInbound(h.db, 'No thanks', {
      phone,
      consent: declined!,
      at: new Date(JAN_5.getTime() + 120_000),
    });
    expect((await user(userId)).tipsStatus).toBe('declined');

    // Declined: the next "no" is not a keyword, and no offer comes again.
    expect(await consentToRecord(ds(), { phoneNumber: phone }, no)).toBeNull();
    const later = await ask(phone, 'When do I plant tomatoes outside?', new Date(JAN_5.getTime() + 180_000));
    expect(later.reply.content).not.toContain('Reply TIPS');
  });
});
