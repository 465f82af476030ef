import {
  AiModel,
  BetaSignup,
  Conversation,
  Message,
  User,
  findOrCreateUserByPhone,
  touchConversation,
} from '@sprout/domain';
import { useTestDatabase } from './test-database';

describe('database constraints', () => {
  const ds = useTestDatabase();
  let user: User;
  let conversation: Conversation;

  beforeAll(async () => {
    user = await findOrCreateUserByPhone(ds().manager, '+15035550100');
    conversation = await touchConversation(ds().manager, user, new Date(), 60_000);
  });

  const message = (providerSid: string | null): Partial<Message> => ({
    userId: user.id,
    conversationId: conversation.id,
    direction: 'inbound',
    content: 'How deep do I plant garlic?',
    status: 'received',
    providerSid,
  });

  it('rejects a second message with the same provider sid, but allows many without one', async () => {
    const repo = ds().getRepository(Message);
    await repo.insert(message('SM00000000000000000000000000000001'));
    await expect(repo.insert(message('SM00000000000000000000000000000001'))).rejects.toThrow(
      /uq_messages_provider_sid/,
    );
    await repo.insert(message(null));
    await repo.insert(message(null));
    expect(await repo.countBy({ userId: user.id })).toBe(3);
  });

  it('fills message defaults and reads money back as a number', async () => {
    const repo = ds().getRepository(Message);
    const saved = await repo.save(repo.create({ ...message(null), cost: 0.000123 }));
    const loaded = await repo.findOneByOrFail({ id: saved.id });
    expect(loaded.cost).toBe(0.000123);
    expect(loaded.media).toEqual([]);
    expect(loaded.topics).toEqual([]);
    expect(loaded.kind).toBe('reply');
    expect(loaded.tokenUsage).toBe(0);
    expect(loaded.createdAt).toBeInstanceOf(Date);
  });

  it('rejects values outside the fixed sets', async () => {
    const repo = ds().getRepository(Message);
    await expect(repo.insert({ ...message(null), direction: 'sideways' as never })).rejects.toThrow(
      /chk_messages_direction/,
    );
    await expect(repo.insert({ ...message(null), status: 'lost' as never })).rejects.toThrow(
      /chk_messages_status/,
    );
  });

  it('allows at most one live model and at most one fallback model', async () => {
    const repo = ds().getRepository(AiModel);
    await repo.insert({ name: 'gpt-4o-mini', isLive: true });
    await repo.insert({ name: 'gpt-4o', isFallback: true });
    await expect(repo.insert({ name: 'gpt-4.1', isLive: true })).rejects.toThrow(/uq_ai_models_single_live/);
    await expect(repo.insert({ name: 'gpt-4.1-mini', isFallback: true })).rejects.toThrow(
      /uq_ai_models_single_fallback/,
    );
    await repo.insert({ name: 'gpt-4.1' });
    await repo.insert({ name: 'gpt-4.1-mini' });
    expect(await repo.countBy({ isLive: false, isFallback: false })).toBe(2);

    const model = await repo.findOneByOrFail({ name: 'gpt-4.1' });
    expect(model.maxTokens).toBe(4096);
    expect(model.isVisible).toBe(true);
    expect(model.inputPricePerMillion).toBe(0);
  });

  it('requires the live model to be active', async () => {
    const repo = ds().getRepository(AiModel);
    await expect(repo.update({ name: 'gpt-4o-mini' }, { isActive: false })).rejects.toThrow(
      /chk_ai_models_live_or_fallback_is_active/,
    );
  });

  it('treats beta signup emails as unique regardless of case', async () => {
    const repo = ds().getRepository(BetaSignup);
    await repo.insert({ email: 'Ada@Example.com', zipCode: '97201', uniqueCode: 'SPROUT-AAAA' });
    await expect(
      repo.insert({ email: 'ada@example.COM', zipCode: '97202', uniqueCode: 'SPROUT-BBBB' }),
    ).rejects.toThrow(/uq_beta_signups_email_lower/);
    const signup = await repo.findOneByOrFail({ uniqueCode: 'SPROUT-AAAA' });
    expect(signup.status).toBe('pending');
  });

  it('deletes a user together with their conversations and messages', async () => {
    const manager = ds().manager;
    const other = await findOrCreateUserByPhone(manager, '+15035550199', { isTestUser: true });
    const conv = await touchConversation(manager, other, new Date(), 60_000);
    await manager.insert(Message, { ...message(null), userId: other.id, conversationId: conv.id });
    await manager.delete(User, { id: other.id });
    expect(await manager.countBy(Conversation, { userId: other.id })).toBe(0);
    expect(await manager.countBy(Message, { userId: other.id })).toBe(0);
  });

  it('keeps conversations.search_text as lower-cased summary, region and topics, bulk loads included', async () => {
    const repo = ds().getRepository(Conversation);
    const searchText = async (id: string): Promise<string | undefined> => {
      const rows: Array<{ search_text: string }> = await ds().query(
        'SELECT search_text FROM conversations WHERE id = $1',
        [id],
      );
      return rows[0]?.search_text;
    };
    const saved = await repo.save(
      repo.create({
        userId: user.id,
        summary: 'Early Blight on Romas',
        region: 'Pacific Northwest',
        topics: ['Tomatoes'],
      }),
    );
    expect(await searchText(saved.id)).toBe('early blight on romas pacific northwest tomatoes');
    await repo.update(saved.id, { summary: 'Powdery mildew' });
    expect(await searchText(saved.id)).toBe('powdery mildew pacific northwest tomatoes');
    await repo.update(saved.id, { lastMessageAt: new Date() });
    expect(await searchText(saved.id)).toBe('powdery mildew pacific northwest tomatoes');

    // The seeds load in replica mode, where ordinary triggers are off: this one still fires.
    const bulk = await ds().transaction(async (manager): Promise<Array<{ id: string }>> => {
      await manager.query('SET LOCAL session_replication_role = replica');
      return manager.query(
        `INSERT INTO conversations (user_id, summary, topics) VALUES ($1, 'Bulk Aphids', '{Roses}') RETURNING id`,
        [user.id],
      );
    });
    expect(await searchText(bulk[0]?.id ?? '')).toBe('bulk aphids  roses');
  });
});
