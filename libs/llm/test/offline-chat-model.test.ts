import { LlmError, OfflineChatModel, countChatTokens, countTokens, type ChatRequest } from '@sprout/llm';

const request: ChatRequest = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a gardening advisor.' },
    { role: 'user', content: 'When do I plant garlic?' },
  ],
  timeoutMs: 1_000,
};

describe('OfflineChatModel', () => {
  it('answers with the responder and tokenizer counts', async () => {
    const seen: ChatRequest[] = [];
    const model = new OfflineChatModel((r) => {
      seen.push(r);
      return '  Plant garlic cloves in mid-fall, about 4 weeks before the ground freezes.  ';
    });
    const result = await model.complete(request);
    expect(seen).toEqual([request]);
    expect(result).toEqual({
      content: 'Plant garlic cloves in mid-fall, about 4 weeks before the ground freezes.',
      promptTokens: countChatTokens(request.messages),
      completionTokens: countTokens(
        'Plant garlic cloves in mid-fall, about 4 weeks before the ground freezes.',
      ),
      model: 'offline-advisor',
      provider: 'offline',
    });
    expect(model.provider).toBe('offline');
  });

  it('accepts async responders and a custom name', async () => {
    const model = new OfflineChatModel(async () => 'Mulch now.', { name: 'template' });
    await expect(model.complete(request)).resolves.toMatchObject({
      content: 'Mulch now.',
      model: 'template',
    });
  });

  it('wraps responder failures and empty answers as LlmError', async () => {
    const failing = new OfflineChatModel(() => {
      throw new Error('knowledge base missing');
    });
    await expect(failing.complete(request)).rejects.toMatchObject({
      name: 'LlmError',
      kind: 'server',
      retryable: false,
    });
    const empty = new OfflineChatModel(() => '   ');
    await expect(empty.complete(request)).rejects.toBeInstanceOf(LlmError);
  });

  it('times out a responder that never answers', async () => {
    const stuck = new OfflineChatModel(() => new Promise<string>(() => undefined));
    await expect(stuck.complete({ ...request, timeoutMs: 20 })).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
  });
});
